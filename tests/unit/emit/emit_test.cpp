// tests/unit/emit/emit_test.cpp — properties of the SM90 emitter (emit/sm90/gemm.cpp) that hold for any spec:
// byte determinism, the config-hash namespace, the embedded spec (comment and kSpec literal), the kernel ABI,
// and the CUTLASS types each construct selects (fusion callbacks, ElementC, tile scheduler, kernel schedule).
// The files (each pasted template as its marker line) are pinned by golden_emit_test.cpp; these tests say which
// property a golden diff broke.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>

#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "emit/cpp_writer.h"
#include "ir/canonical.h"
#include "support/sha256.h"

namespace ucut {
namespace {

constexpr const char* kMlpUp = R"(# GEMM + bias + GELU (tanh) in bf16.
kernel mlp_up : sm90a
  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)
    .with_threadblockshape(128, 256, 64)
    .with_cluster(2, 1, 1)
    .with_scheduler(tma_cooperative)
  >> bias(col)
  >> gelu_tanh
  >> store(D: bf16[M,N] row)
)";

/// The same kernel as kMlpUp with other comments, spacing and line breaks.
constexpr const char* kMlpUpReformatted = R"(// a different comment
kernel   mlp_up:sm90a gemm( A : bf16[ M , K ] row,B: bf16[K,N] col,acc:f32 )   # trailing
.with_threadblockshape(128,256,64).with_cluster(2,1,1)
        .with_scheduler( tma_cooperative )
>> bias( col ) >> gelu_tanh
>> store(D: bf16[M,N] row)     // end)";

std::string gemm_spec(std::string_view configs, std::string_view chain, std::string_view operands =
                                                                              "A: bf16[M,K] row, B: bf16[K,N] col, acc: f32") {
  return fmt::format("kernel k : sm90a\n  gemm({})\n{}{}\n", operands, configs, chain);
}

struct Emitted {
  Compilation comp;
  std::string code;
};

Emitted emit(const std::string& text) {
  SourceFile src("spec.ucut", text);
  Emitted e{compile_spec(src, StopAfter::emit), ""};
  std::string diags;
  for (const Diagnostic& d : e.comp.diags.diagnostics())
    if (d.severity == Severity::error) diags += fmt::format("\n  {}: {}", rule_info(d.rule).code, d.message);
  EXPECT_TRUE(diags.empty()) << "the spec does not compile:" << diags << "\n" << text;
  EXPECT_TRUE(e.comp.kernel.has_value()) << text;
  if (e.comp.kernel) e.code = e.comp.kernel->code;
  return e;
}

bool contains(const std::string& hay, std::string_view needle) { return hay.find(needle) != std::string::npos; }

size_t count(const std::string& hay, std::string_view needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + needle.size())) ++n;
  return n;
}

/// The line of `code` that starts (after indentation) with `prefix`, or "".
std::string line_starting(const std::string& code, std::string_view prefix) {
  std::istringstream in(code);
  std::string line;
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(' ');
    if (b != std::string::npos && line.compare(b, prefix.size(), prefix) == 0) return line.substr(b);
  }
  return "";
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Decodes adjacent C++ string literals starting at `code[pos]` (a `"`) the way a compiler would: escapes
/// \" \\ \n \t \xH... (a hex escape takes every following hex digit), raw newlines inside a literal are errors.
/// Returns the bytes, or nullopt if the literals are malformed; `end` receives the offset after the last one.
std::optional<std::string> decode_literals(const std::string& code, size_t pos, size_t* end) {
  std::string out;
  while (pos < code.size() && code[pos] == '"') {
    ++pos;
    while (true) {
      if (pos >= code.size() || code[pos] == '\n') return std::nullopt;
      char c = code[pos++];
      if (c == '"') break;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= code.size()) return std::nullopt;
      char e = code[pos++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'x': {
          int v = 0, digits = 0;
          while (pos < code.size() && hex_value(code[pos]) >= 0) {
            v = v * 16 + hex_value(code[pos++]);
            ++digits;
            if (v > 0xff) return std::nullopt;  // out of range for char: the emitter let a digit extend it
          }
          if (digits == 0) return std::nullopt;
          out += static_cast<char>(v);
          break;
        }
        default: return std::nullopt;  // the emitter uses no other escapes
      }
    }
    while (pos < code.size() && (code[pos] == ' ' || code[pos] == '\n')) ++pos;
  }
  *end = pos;
  return out;
}

/// The decoded value of `const char NAME[] = "...";` in `code`.
std::optional<std::string> literal_value(const std::string& code, std::string_view name) {
  std::string head = fmt::format("const char {}[] = ", name);
  size_t p = code.find(head);
  if (p == std::string::npos) return std::nullopt;
  size_t end = 0;
  auto v = decode_literals(code, p + head.size(), &end);
  if (!v || end >= code.size() || code[end] != ';') return std::nullopt;
  return v;
}

// ---------------------------------------------------------------- determinism and identity

TEST(Emit, SameSpecTwiceGivesIdenticalBytes) {
  Emitted a = emit(kMlpUp), b = emit(kMlpUp);
  ASSERT_FALSE(a.code.empty());
  EXPECT_EQ(a.code, b.code);
  EXPECT_EQ(a.comp.kernel->kernel_namespace, b.comp.kernel->kernel_namespace);
  EXPECT_EQ(a.comp.kernel->config_hash, b.comp.kernel->config_hash);
  EXPECT_EQ(a.comp.kernel->gencode, "arch=compute_90a,code=sm_90a");
}

TEST(Emit, CommentsAndWhitespaceDoNotChangeTheIdentity) {
  Emitted a = emit(kMlpUp), b = emit(kMlpUpReformatted);
  ASSERT_TRUE(a.comp.kernel && b.comp.kernel);
  EXPECT_EQ(a.comp.kernel->kernel_namespace, b.comp.kernel->kernel_namespace);
  EXPECT_EQ(a.comp.kernel->config_hash, b.comp.kernel->config_hash);
  EXPECT_NE(a.code, b.code);  // the spec text itself is embedded
}

TEST(Emit, NamespaceIsUcutPlusFirst16HexOfTheCanonicalConfigHash) {
  Emitted e = emit(kMlpUp);
  ASSERT_TRUE(e.comp.kernel && e.comp.config);
  std::string hash = sha256_hex(canonical_config(*e.comp.config).dump());
  ASSERT_EQ(hash.size(), 64u);
  std::string ns = "ucut_" + hash.substr(0, 16);
  EXPECT_EQ(e.comp.kernel->config_hash, hash);
  EXPECT_EQ(e.comp.kernel->kernel_namespace, ns);
  EXPECT_EQ(kernel_namespace(*e.comp.config), ns);
  EXPECT_TRUE(std::regex_match(ns, std::regex("ucut_[0-9a-f]{16}"))) << ns;
  EXPECT_TRUE(contains(e.code, "\nnamespace " + ns + " {\n")) << ns;
  EXPECT_TRUE(contains(e.code, "\n}  // namespace " + ns + "\n"));
  EXPECT_TRUE(contains(e.code, "// config sha256 " + hash + "\n"));
  EXPECT_EQ(literal_value(e.code, "kConfig"), canonical_config(*e.comp.config).dump());
  EXPECT_EQ(literal_value(e.code, "kName"), "mlp_up");
}

TEST(Emit, DifferentConfigsGetDifferentNamespaces) {
  Emitted a = emit(kMlpUp);
  std::string other(kMlpUp);
  other.replace(other.find("gelu_tanh"), 9, "gelu");
  Emitted b = emit(other);
  ASSERT_TRUE(a.comp.kernel && b.comp.kernel);
  EXPECT_NE(a.comp.kernel->kernel_namespace, b.comp.kernel->kernel_namespace);
}

// ---------------------------------------------------------------- the embedded spec

TEST(Emit, SpecIsEmbeddedAsCommentsAndAsTheKSpecLiteral) {
  Emitted e = emit(kMlpUp);
  std::string block = "// ---- spec ----\n";
  std::istringstream in(kMlpUp);
  for (std::string l; std::getline(in, l);) block += l.empty() ? "//\n" : "// " + l + "\n";
  block += "// ---- end of spec ----\n";
  EXPECT_TRUE(contains(e.code, block)) << block;
  EXPECT_EQ(literal_value(e.code, "kSpec"), std::string(kMlpUp));
}

TEST(Emit, QuotesBackslashesAndOtherBytesInTheSpecStayValidCpp) {
  std::string spec =
      "# a \"quoted\" \\ thing\n"
      "# tab\there, caf\xc3\xa9 \xc2\xb7 A\xc2\xb7" "B, \\x41 and \\n stay text\n"
      "# ends with a backslash \\\n"
      "kernel quoted : sm90a\n"
      "  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)  // \"x\"\n"
      "  >> store(D: bf16[M,N] row)\n";
  Emitted e = emit(spec);
  ASSERT_FALSE(e.code.empty());
  // The literal decodes back to the exact spec bytes.
  EXPECT_EQ(literal_value(e.code, "kSpec"), spec);
  // Escaped as expected: quotes and backslashes escaped, one source line per spec line.
  EXPECT_TRUE(contains(e.code, "const char kSpec[] = \"# a \\\"quoted\\\" \\\\ thing\\n\"\n")) << e.code;
  // Non-ASCII bytes become hex escapes whose literal ends at once, so a following hex digit (`B`) cannot extend them.
  EXPECT_TRUE(contains(e.code, "caf\\xc3\"\"\\xa9\"\" \\xc2\"\"\\xb7\"\" A\\xc2\"\"\\xb7\"\"B")) << e.code;
  // The comments keep the text; a trailing backslash would splice the next line into the comment, so it is guarded.
  EXPECT_TRUE(contains(e.code, "\n// # a \"quoted\" \\ thing\n"));
  EXPECT_TRUE(contains(e.code, "\n// # ends with a backslash \\ (end of line)\n"));
  EXPECT_FALSE(contains(e.code, "\\\n"));  // no line of the output ends in a backslash
}

TEST(Emit, CppStringLiteralEscapes) {
  EXPECT_EQ(cpp_string_literal(""), "\"\"");
  EXPECT_EQ(cpp_string_literal("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(cpp_string_literal("x\ny"), "\"x\\n\"\n    \"y\"");
  EXPECT_EQ(cpp_string_literal("\t"), "\"\\t\"");
  EXPECT_EQ(cpp_string_literal("\x01" "f"), "\"\\x01\"\"f\"");
  for (std::string s : {std::string("a\"\\\n\t\x7f\xff" "0"), std::string("\\x41"), std::string(1, '\0')}) {
    std::string lit = cpp_string_literal(s);
    size_t end = 0;
    EXPECT_EQ(decode_literals(lit, 0, &end), s) << lit;
    EXPECT_EQ(end, lit.size());
  }
}

// ---------------------------------------------------------------- the kernel ABI

TEST(Emit, EveryAbiFunctionAndTheEntryPointAppear) {
  Emitted e = emit(kMlpUp);
  const std::string& ns = e.comp.kernel->kernel_namespace;
  for (const char* sig : {"int can_implement(const ucut_gemm_args* a, char* err, size_t err_len) {",
                          "size_t workspace_size(const ucut_gemm_args* a) {",
                          "void* prepare(const ucut_gemm_args* a, void* workspace, void* stream, char* err, size_t err_len) {",
                          "int launch(void* prepared, void* stream, char* err, size_t err_len) {",
                          "void release(void* prepared) {"})
    EXPECT_EQ(count(e.code, sig), 1u) << sig;
  EXPECT_TRUE(contains(e.code, "const ucut_kernel_api kApi = {UCUT_ABI_VERSION, kName, kConfig, kSpec, can_implement, "
                               "workspace_size,\n                                prepare, launch, release};"));
  EXPECT_TRUE(contains(e.code, "#define UCUT_ABI_VERSION 7"));  // kernel_abi.h is pasted in
  EXPECT_TRUE(contains(e.code, fmt::format("extern \"C\" const ucut_kernel_api* {}_api(void) {{ return &{}::kApi; }}\n"
                                           "#ifdef UCUT_DEFINE_ENTRY\n"
                                           "extern \"C\" __attribute__((visibility(\"default\"))) const ucut_kernel_api* "
                                           "ucut_entry(void) {{ return {}_api(); }}\n"
                                           "#endif\n",
                                           ns, ns, ns)));
  EXPECT_EQ(count(e.code, "ucut_entry(void)"), 1u);  // only under the #ifdef
  EXPECT_TRUE(e.code.ends_with("#endif\n"));
}

// ---------------------------------------------------------------- what each construct selects

TEST(Emit, PlainStoreUsesLinearCombination) {
  Emitted e = emit(gemm_spec("", "  >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(contains(e.code, "\n  using FusionCallbacks = cutlass::epilogue::fusion::LinearCombination<ElementD, "
                               "ElementCompute, ElementC, ElementCompute>;\n"));
  EXPECT_FALSE(contains(e.code, "Sm90EVT"));
  EXPECT_TRUE(contains(e.code, "args.epilogue.thread.alpha = ElementCompute(1);"));
  EXPECT_TRUE(contains(e.code, "args.epilogue.thread.beta = ElementCompute(0);"));
}

TEST(Emit, FusedChainUsesAnEvtWhoseRootOutputsElementD) {
  Emitted e = emit(kMlpUp);
  std::string fc = line_starting(e.code, "using FusionCallbacks = ");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(fc, m, std::regex(R"(using FusionCallbacks = (Evt\d+);)"))) << fc;
  std::string root = line_starting(e.code, "using " + m[1].str() + " = ");
  EXPECT_TRUE(root.starts_with("using " + m[1].str() + " = cutlass::epilogue::fusion::Sm90EVT<"
                               "cutlass::epilogue::fusion::Sm90Compute<cutlass::epilogue::thread::GELU_taylor, ElementD, "
                               "ElementCompute, RoundStyle>"))
      << root;
  EXPECT_EQ(count(e.code, "ElementD, ElementCompute, RoundStyle>"), 1u);  // only the root converts to ElementD
  EXPECT_FALSE(contains(e.code, "LinearCombination<"));
  EXPECT_TRUE(contains(e.code, "// Epilogue visitor tree: gelu_tanh(acc + bias[n]) -> D\n"));
  EXPECT_TRUE(contains(e.code, "args.epilogue.thread = {{{}, {static_cast<const cutlass::bfloat16_t *>(a->vectors[0]), "
                               "cutlass::bfloat16_t(0), {}}, {}}, {}};"));
}

TEST(Emit, AuxStoreEmitsEpilogueAndAuxStoreDescriptors) {
  Emitted e = emit(gemm_spec("", "  >> aux_store(Z: f16[M,N] col) >> relu >> store(D: f16[M,N] col)",
                             "A: f16[M,K] row, B: f16[K,N] col, acc: f32"));
  EXPECT_TRUE(contains(e.code, "\n  using EpiDesc = cutlass::epilogue::collective::detail::EpilogueDescriptor<TileShape, "
                               "cutlass::epilogue::collective::EpilogueTileAuto, ElementC, ElementD, EpilogueSchedule>;\n"));
  EXPECT_TRUE(contains(e.code, "using AuxDesc0 = cutlass::epilogue::collective::detail::AuxStoreDescriptor<EpiDesc, "
                               "cutlass::layout::ColumnMajor, cutlass::half_t>;"));
  EXPECT_TRUE(contains(e.code, "cutlass::epilogue::fusion::Sm90AuxStore<AuxDesc0::Stages, typename EpiDesc::EpilogueTile, "
                               "cutlass::half_t, RoundStyle, typename AuxDesc0::Stride, typename AuxDesc0::SmemLayoutAtom, "
                               "typename AuxDesc0::CopyOpR2S, 8>"));
  EXPECT_TRUE(contains(e.code, "{static_cast<cutlass::half_t *>(a->aux[0].ptr), ucut_make_stride<typename AuxDesc0::Stride>("
                               "a->aux[0].ld, a->aux[0].batch_stride)}"));
  // The descriptor must come after the aliases it names.
  EXPECT_LT(e.code.find("using EpilogueSchedule = "), e.code.find("using EpiDesc = "));
  EXPECT_LT(e.code.find("using EpiDesc = "), e.code.find("using AuxDesc0 = "));

  Emitted plain = emit(kMlpUp);
  EXPECT_FALSE(contains(plain.code, "EpilogueDescriptor"));
  EXPECT_FALSE(contains(plain.code, "AuxStoreDescriptor"));
}

TEST(Emit, ResidualMakesElementCTheResidualType) {
  Emitted res = emit(gemm_spec("", "  >> residual(C: f16[M,N] row) >> store(D: f16[M,N] row)",
                               "A: f16[M,K] row, B: f16[K,N] col, acc: f32"));
  EXPECT_TRUE(contains(res.code, "\n  using ElementC = cutlass::half_t;\n  using LayoutC = cutlass::layout::RowMajor;\n"));
  EXPECT_FALSE(contains(res.code, "using ElementC = void;"));
  EXPECT_TRUE(contains(res.code, "args.epilogue.ptr_C = static_cast<const ElementC*>(a->c.ptr);"));
  EXPECT_TRUE(contains(res.code, "cutlass::epilogue::fusion::Sm90SrcFetch<ElementC>"));

  Emitted none = emit(kMlpUp);
  EXPECT_TRUE(contains(none.code, "// no residual: the epilogue never reads C\n  using ElementC = void;\n"));
  EXPECT_TRUE(contains(none.code, "args.epilogue.ptr_C = nullptr;"));
  EXPECT_FALSE(contains(none.code, "Sm90SrcFetch"));
}

TEST(Emit, TileSchedulerSetsTheDecomposition) {
  std::string sched = "    .with_scheduler(tma_cooperative)\n";
  Emitted sk = emit(gemm_spec(sched + "    .with_tile_scheduler(stream_k)\n", "  >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(contains(sk.code, "    CollectiveMainloop, CollectiveEpilogue, cutlass::gemm::StreamKScheduler>;"));
  EXPECT_TRUE(contains(sk.code, "args.scheduler.decomposition_mode = "
                                "cutlass::gemm::kernel::detail::DecompositionMode::StreamK;"));
  EXPECT_FALSE(contains(sk.code, "args.scheduler.splits"));

  Emitted split = emit(gemm_spec(sched + "    .with_tile_scheduler(split_k(4))\n", "  >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(contains(split.code, "    CollectiveMainloop, CollectiveEpilogue, cutlass::gemm::StreamKScheduler>;"));
  EXPECT_TRUE(contains(split.code, "args.scheduler.splits = 4;\n"));
  EXPECT_TRUE(contains(split.code, "args.scheduler.decomposition_mode = "
                                   "cutlass::gemm::kernel::detail::DecompositionMode::SplitK;"));

  Emitted def = emit(gemm_spec(sched, "  >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(contains(def.code, "    CollectiveMainloop, CollectiveEpilogue, void>;"));
  EXPECT_FALSE(contains(def.code, "decomposition_mode"));

  Emitted raster = emit(gemm_spec(sched + "    .with_raster(along_n, swizzle = 2)\n", "  >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(contains(raster.code, "RasterOrderOptions::AlongN;"));
  EXPECT_TRUE(contains(raster.code, "args.scheduler.max_swizzle_size = 2;"));
}

TEST(Emit, Fp8FastAccumPicksTheFastAccumKernelSchedule) {
  const char* fp8 = "A: e4m3[M,K] row scaled, B: e4m3[K,N] col scaled, acc: f32";
  std::string tile = "    .with_threadblockshape(128, 128, 128)\n";
  Emitted fast = emit(gemm_spec(tile + "    .with_scheduler(tma_cooperative)\n    .with_fp8_fast_accum()\n",
                                "  >> store(D: bf16[M,N] row)", fp8));
  EXPECT_TRUE(contains(fast.code, "using KernelSchedule = cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum;"));

  Emitted slow = emit(gemm_spec(tile + "    .with_scheduler(tma_cooperative)\n", "  >> store(D: bf16[M,N] row)", fp8));
  EXPECT_TRUE(contains(slow.code, "using KernelSchedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;"));
  EXPECT_FALSE(contains(slow.code, "FP8FastAccum"));

  Emitted pp = emit(gemm_spec("    .with_threadblockshape(64, 128, 128)\n    .with_scheduler(tma_pingpong)\n"
                              "    .with_fp8_fast_accum()\n",
                              "  >> store(D: bf16[M,N] row)", fp8));
  EXPECT_TRUE(contains(pp.code, "using KernelSchedule = cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum;"));
  EXPECT_TRUE(contains(pp.code, "using EpilogueSchedule = cutlass::epilogue::TmaWarpSpecialized;"));
}

TEST(Emit, StageCountIsAutoCarveoutOrFixed) {
  Emitted aut = emit(kMlpUp);
  EXPECT_TRUE(contains(aut.code, "    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename "
                                 "CollectiveEpilogue::SharedStorage))>,\n"));
  EXPECT_TRUE(contains(aut.code, "static_assert(GemmKernel::SharedStorageSize <= 232448,"));
  Emitted fixed = emit(gemm_spec("    .with_stages(4)\n", "  >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(contains(fixed.code, "    cutlass::gemm::collective::StageCount<4>,\n"));
}

TEST(Emit, OutputHasNoAbsolutePathsOrTrailingWhitespace) {
  Emitted e = emit(kMlpUp);
  EXPECT_FALSE(contains(e.code, ucut::test_paths::source_dir()));
  EXPECT_FALSE(contains(e.code, " \n"));
  EXPECT_FALSE(contains(e.code, "\t"));
}

}  // namespace
}  // namespace ucut
