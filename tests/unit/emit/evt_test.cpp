// tests/unit/emit/evt_test.cpp — build_evt() (emit/sm90/evt.h): the EVT node types each stage lowers to, the
// activation parameters, the argument nesting CUTLASS requires (Sm90VisitorImpl::Arguments is
// tuple<Child0::Arguments, ..., ChildN::Arguments, Node::Arguments>: children first, the node's own last), and the
// ABI slots the arguments read (ir/abi_slots.cpp's chain order).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "compiler/pipeline.h"
#include "emit/sm90/evt.h"
#include "ir/abi_slots.h"

namespace ucut::sm90 {
namespace {

constexpr std::string_view kFusion = "cutlass::epilogue::fusion::";

/// Lowers `chain` (the `>> ...` stages) on a bf16 GEMM and returns the config.
KernelConfig lowered(std::string_view chain, std::string_view operands = "A: bf16[M,K] row, B: bf16[K,N] col, acc: f32") {
  std::string text = fmt::format("kernel k : sm90a\n  gemm({})\n  {}\n", operands, chain);
  SourceFile src("evt.ucut", text);
  Compilation c = compile_spec(src, StopAfter::check);
  std::string diags;
  for (const Diagnostic& d : c.diags.diagnostics())
    if (d.severity == Severity::error) diags += fmt::format("\n  {}: {}", rule_info(d.rule).code, d.message);
  EXPECT_TRUE(diags.empty()) << text << diags;
  EXPECT_TRUE(c.config.has_value()) << text;
  return c.config ? *c.config : KernelConfig{};
}

/// The type of alias `name` in the tree ("" when absent).
std::string type_of(const EvtTree& t, std::string_view name) {
  for (const auto& [n, type] : t.aliases)
    if (n == name) return type;
  return "";
}

bool contains(const std::string& hay, std::string_view needle) { return hay.find(needle) != std::string::npos; }

std::string compute(std::string_view fn, std::string_view out, std::string_view children) {
  return fmt::format("{}Sm90EVT<{}Sm90Compute<{}, {}, ElementCompute, RoundStyle>, {}>", kFusion, kFusion, fn, out,
                     children);
}

TEST(Evt, BiasColIsARowBroadcastOneValuePerColumn) {
  EvtTree t = build_evt(lowered(">> bias(col) >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(t, "Evt0"), std::string(kFusion) + "Sm90AccFetch");
  EXPECT_EQ(type_of(t, "Evt1"), std::string(kFusion) +
                                    "Sm90RowBroadcast<0, TileShape, cutlass::bfloat16_t, ElementCompute, "
                                    "cute::Stride<cute::_0, cute::_1, int64_t>, 8>");
  EXPECT_EQ(type_of(t, "Evt2"), compute("cutlass::plus", "ElementD", "Evt0, Evt1"));
  EXPECT_EQ(t.root, "Evt2");
  EXPECT_EQ(t.aliases.size(), 3u);
  EXPECT_EQ(t.description, "acc + bias[n] -> D");
  EXPECT_FALSE(t.needs_epilogue_descriptor);
}

TEST(Evt, BiasRowIsAColBroadcastOneValuePerRow) {
  EvtTree t = build_evt(lowered(">> bias(row, f32) >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(t, "Evt1"), std::string(kFusion) +
                                    "Sm90ColBroadcast<0, TileShape, float, ElementCompute, "
                                    "cute::Stride<cute::_1, cute::_0, int64_t>, 4>");
  EXPECT_EQ(t.arguments, "{{}, {static_cast<const float *>(a->vectors[0]), float(0), {}}, {}}");
  EXPECT_EQ(t.description, "acc + bias[m] -> D");
}

TEST(Evt, ChannelScaleMultipliesByTheVector) {
  EvtTree t = build_evt(lowered(">> channel_scale(col) >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(contains(type_of(t, "Evt1"), "Sm90RowBroadcast<0, TileShape, cutlass::bfloat16_t,")) << type_of(t, "Evt1");
  EXPECT_EQ(type_of(t, "Evt2"), compute("cutlass::multiplies", "ElementD", "Evt0, Evt1"));
}

TEST(Evt, ActivationParametersAreFloatLiterals) {
  EvtTree leaky = build_evt(lowered(">> leaky_relu(0.1) >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(leaky, "Evt1"), compute("cutlass::epilogue::thread::LeakyReLU", "ElementD", "Evt0"));
  EXPECT_EQ(leaky.arguments, "{{}, {0.1f}}");

  EvtTree clamp = build_evt(lowered(">> clamp(-1, 2) >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(clamp, "Evt1"), compute("cutlass::epilogue::thread::Clamp", "ElementD", "Evt0"));
  EXPECT_EQ(clamp.arguments, "{{}, {-1.0f, 2.0f}}");

  // Defaults are filled in: leaky_relu's alpha 0.01, hardtanh's -1..1, softplus's beta 1 and threshold 20.
  EXPECT_EQ(build_evt(lowered(">> leaky_relu >> store(D: bf16[M,N] row)")).arguments, "{{}, {0.01f}}");
  EXPECT_EQ(build_evt(lowered(">> hardtanh >> store(D: bf16[M,N] row)")).arguments, "{{}, {-1.0f, 1.0f}}");
  EXPECT_EQ(build_evt(lowered(">> softplus(threshold = 10) >> store(D: bf16[M,N] row)")).arguments,
            "{{}, {1.0f, 10.0f}}");
  // A parameterless activation has empty arguments.
  EXPECT_EQ(build_evt(lowered(">> relu >> store(D: bf16[M,N] row)")).arguments, "{{}, {}}");
}

TEST(Evt, DivisionByAPowerOfTwoConstantIsTheExactMultiplication) {
  // x / 2 and x / 0.25 multiply by 0.5 and 4 (the same real number, rounded once); x / 3 stays a division (its
  // reciprocal is not exact), as do a constant numerator and a divisor that is not a constant.
  EvtTree half = build_evt(lowered(">> expr(x / 2) >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(half, "Evt2"), compute("cutlass::multiplies", "ElementD", "Evt0, Evt1"));
  EXPECT_EQ(half.arguments, "{{}, {{0.5f}}, {}}");
  EXPECT_EQ(build_evt(lowered(">> expr(x / 0.25) >> store(D: bf16[M,N] row)")).arguments, "{{}, {{4.0f}}, {}}");

  EvtTree third = build_evt(lowered(">> expr(x / 3) >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(third, "Evt2"), compute("cutlass::divides", "ElementD", "Evt0, Evt1"));
  EXPECT_EQ(third.arguments, "{{}, {{3.0f}}, {}}");
  EXPECT_EQ(type_of(build_evt(lowered(">> expr(2 / x) >> store(D: bf16[M,N] row)")), "Evt2"),
            compute("cutlass::divides", "ElementD", "Evt1, Evt0"));
  EXPECT_EQ(type_of(build_evt(lowered(">> expr(x / (x + 2)) >> store(D: bf16[M,N] row)")), "Evt3"),
            compute("cutlass::divides", "ElementD", "Evt0, Evt2"));
}

TEST(Evt, ThreeStageChainNestsChildrenFirstOwnArgumentsLast) {
  // scale(alpha) >> bias(col) >> leaky_relu(0.1) >> store, built by hand:
  //   Evt0 AccFetch                                    {}
  //   Evt1 ScalarBroadcast (alpha, scalar slot 0)      {{a->scalars[0]}}
  //   Evt2 multiplies(Evt1, Evt0)                      {Evt1, Evt0, {}}
  //   Evt3 RowBroadcast (vector slot 0)                {ptr, null_default, dRow}
  //   Evt4 plus(Evt2, Evt3)                            {Evt2, Evt3, {}}
  //   Evt5 LeakyReLU(Evt4), re-typed to ElementD       {Evt4, {0.1f}}
  EvtTree t = build_evt(lowered(">> scale(alpha) >> bias(col) >> leaky_relu(0.1) >> store(D: bf16[M,N] row)"));
  const std::string acc = "{}";
  const std::string alpha = "{{a->scalars[0]}}";
  const std::string scaled = "{" + alpha + ", " + acc + ", {}}";
  const std::string bias = "{static_cast<const cutlass::bfloat16_t *>(a->vectors[0]), cutlass::bfloat16_t(0), {}}";
  const std::string biased = "{" + scaled + ", " + bias + ", {}}";
  const std::string root = "{" + biased + ", {0.1f}}";
  EXPECT_EQ(root,
            "{{{{{a->scalars[0]}}, {}, {}}, {static_cast<const cutlass::bfloat16_t *>(a->vectors[0]), "
            "cutlass::bfloat16_t(0), {}}, {}}, {0.1f}}");
  EXPECT_EQ(t.arguments, root);

  ASSERT_EQ(t.aliases.size(), 6u);
  EXPECT_EQ(type_of(t, "Evt1"), std::string(kFusion) + "Sm90ScalarBroadcast<ElementCompute>");
  EXPECT_EQ(type_of(t, "Evt2"), compute("cutlass::multiplies", "ElementCompute", "Evt1, Evt0"));
  EXPECT_EQ(type_of(t, "Evt4"), compute("cutlass::plus", "ElementCompute", "Evt2, Evt3"));
  EXPECT_EQ(type_of(t, "Evt5"), compute("cutlass::epilogue::thread::LeakyReLU", "ElementD", "Evt4"));
  EXPECT_EQ(t.root, "Evt5");
  EXPECT_EQ(t.description, "leaky_relu(alpha*(acc) + bias[n]) -> D");
}

TEST(Evt, ResidualIsBetaTimesCPlusX) {
  EvtTree t = build_evt(lowered(">> residual(C: bf16[M,N] row, beta = 0.5) >> silu >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(t, "Evt1"), std::string(kFusion) + "Sm90ScalarBroadcast<ElementCompute>");
  EXPECT_EQ(type_of(t, "Evt2"), std::string(kFusion) + "Sm90SrcFetch<ElementC>");
  EXPECT_EQ(type_of(t, "Evt3"), compute("cutlass::homogeneous_multiply_add", "ElementCompute", "Evt1, Evt2, Evt0"));
  EXPECT_EQ(type_of(t, "Evt4"), compute("cutlass::epilogue::thread::SiLu", "ElementD", "Evt3"));
  EXPECT_EQ(t.arguments, "{{{{a->scalars[0]}}, {}, {}, {}}, {}}");
}

TEST(Evt, StoreAfterANonComputeNodeAddsAnIdentityConversion) {
  EvtTree t = build_evt(lowered(">> aux_store(Z: bf16[M,N] row) >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(t.needs_epilogue_descriptor);
  EXPECT_EQ(type_of(t, "AuxDesc0"),
            "cutlass::epilogue::collective::detail::AuxStoreDescriptor<EpiDesc, cutlass::layout::RowMajor, "
            "cutlass::bfloat16_t>");
  EXPECT_EQ(type_of(t, "Evt2"), std::string(kFusion) +
                                    "Sm90EVT<" + std::string(kFusion) +
                                    "Sm90AuxStore<AuxDesc0::Stages, typename EpiDesc::EpilogueTile, cutlass::bfloat16_t, "
                                    "RoundStyle, typename AuxDesc0::Stride, typename AuxDesc0::SmemLayoutAtom, typename "
                                    "AuxDesc0::CopyOpR2S, 8>, Evt0>");
  EXPECT_EQ(type_of(t, "Evt3"), compute("cutlass::epilogue::thread::Identity", "ElementD", "Evt2"));
  EXPECT_EQ(t.root, "Evt3");
  // AuxStore: {child, {ptr_aux, dAux}}; the Identity root: {child, {}}.
  EXPECT_EQ(t.arguments,
            "{{{}, {static_cast<cutlass::bfloat16_t *>(a->aux[0].ptr), ucut_make_stride<typename AuxDesc0::Stride>("
            "a->aux[0].ld, a->aux[0].batch_stride)}}, {}}");
}

TEST(Evt, CastConvertsThenTheRootConvertsToElementD) {
  EvtTree t = build_evt(lowered(">> cast(f16) >> store(D: bf16[M,N] row)"));
  EXPECT_EQ(type_of(t, "Evt1"), compute("cutlass::epilogue::thread::Identity", "cutlass::half_t", "Evt0"));
  EXPECT_EQ(type_of(t, "Evt2"), compute("cutlass::epilogue::thread::Identity", "ElementD", "Evt1"));
  EXPECT_EQ(t.arguments, "{{{}, {}}, {}}");
}

TEST(Evt, Fp8ScalesMultiplyTheAccumulatorAndTheOutput) {
  EvtTree t = build_evt(lowered(">> store(D: e4m3[M,N] row scaled)",
                                "A: e4m3[M,K] row scaled, B: e4m3[K,N] col scaled, acc: f32"));
  EXPECT_EQ(type_of(t, "Evt1"), std::string(kFusion) +
                                    "Sm90ScalarBroadcast<ElementCompute, cute::Stride<cute::_0, cute::_0, cute::_0>, 2>");
  EXPECT_EQ(type_of(t, "Evt2"), compute("cutlass::multiplies", "ElementCompute", "Evt1, Evt0"));
  EXPECT_EQ(type_of(t, "Evt3"), std::string(kFusion) +
                                    "Sm90ScalarBroadcast<ElementCompute, cute::Stride<cute::_0, cute::_0, cute::_0>, 1>");
  EXPECT_EQ(type_of(t, "Evt4"), compute("cutlass::multiplies", "ElementD", "Evt3, Evt2"));
  EXPECT_EQ(t.arguments, "{{{1.0f}, {a->scale_d}}, {{{1.0f, 1.0f}, {a->scale_a, a->scale_b}}, {}, {}}, {}}");
}

TEST(Evt, SlotIndicesFollowAbiSlotOrder) {
  // Slots are numbered per kind in chain order (ir/abi_slots.cpp); each leaf reads the slot of its own stage.
  // stage 0 scale(alpha) -> scalar 0    stage 1 bias(col) -> vector 0    stage 2 residual -> scalar 1 (beta)
  // stage 3 aux_store(Z) -> aux 0       stage 4 channel_scale(row) -> vector 1
  // stage 5 scale(gamma = 2) -> scalar 2    stage 6 aux_store(Y) -> aux 1    stage 7 store (Identity to ElementD)
  KernelConfig cfg = lowered(
      ">> scale(alpha) >> bias(col) >> residual(C: bf16[M,N] row) >> aux_store(Z: bf16[M,N] row) >> "
      "channel_scale(row) >> scale(gamma = 2) >> aux_store(Y: bf16[M,N] row) >> store(D: bf16[M,N] row)");
  AbiSlots s = abi_slots(cfg);
  ASSERT_EQ(s.vectors.size(), 2u);
  ASSERT_EQ(s.scalars.size(), 3u);
  ASSERT_EQ(s.aux.size(), 2u);
  EXPECT_EQ(s.scalars[2].name, "gamma");

  // The arguments, built by hand with the nesting rule (children first, the node's own last):
  auto vec = [](int i) {
    return fmt::format("{{static_cast<const cutlass::bfloat16_t *>(a->vectors[{}]), cutlass::bfloat16_t(0), {{}}}}", i);
  };
  auto scalar = [](int i) { return fmt::format("{{{{a->scalars[{}]}}}}", i); };
  auto aux = [](int i) {
    return fmt::format("{{static_cast<cutlass::bfloat16_t *>(a->aux[{0}].ptr), ucut_make_stride<typename "
                       "AuxDesc{0}::Stride>(a->aux[{0}].ld, a->aux[{0}].batch_stride)}}",
                       i);
  };
  std::string x = "{}";                                  // AccFetch
  x = "{" + scalar(0) + ", " + x + ", {}}";              // multiplies(alpha, x)
  x = "{" + x + ", " + vec(0) + ", {}}";                 // plus(x, bias)
  x = "{" + scalar(1) + ", {}, " + x + ", {}}";          // homogeneous_multiply_add(beta, C, x)
  x = "{" + x + ", " + aux(0) + "}";                     // AuxStore Z
  x = "{" + x + ", " + vec(1) + ", {}}";                 // multiplies(x, channel scale)
  x = "{" + scalar(2) + ", " + x + ", {}}";              // multiplies(gamma, x)
  x = "{" + x + ", " + aux(1) + "}";                     // AuxStore Y
  x = "{" + x + ", {}}";                                 // Identity -> ElementD
  EvtTree t = build_evt(cfg);
  EXPECT_EQ(t.arguments, x);
  EXPECT_EQ(t.arguments.find("a->vectors[2]"), std::string::npos);
  EXPECT_EQ(t.arguments.find("a->scalars[3]"), std::string::npos);
  EXPECT_EQ(t.arguments.find("a->aux[2]"), std::string::npos);
  EXPECT_TRUE(contains(type_of(t, "AuxDesc0"), "cutlass::bfloat16_t>"));
  EXPECT_TRUE(contains(type_of(t, "AuxDesc1"), "cutlass::bfloat16_t>"));
  // bias(col) is a row broadcast, channel_scale(row) a column broadcast.
  std::string types;
  for (const auto& [n, ty] : t.aliases) types += n + " = " + ty + "\n";
  EXPECT_LT(types.find("Sm90RowBroadcast"), types.find("Sm90ColBroadcast")) << types;
}

}  // namespace
}  // namespace ucut::sm90
