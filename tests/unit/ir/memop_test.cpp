// tests/unit/ir/memop_test.cpp — ir/memop.h and ir/lower_memop.cpp: a `map` spec lowers to a MemOpConfig
// (never a KernelConfig), its inputs, scalars and slices in declaration order, its chain through the epilogue
// stages' own lowering with the operands' names resolved (`load(i)`, scalar parameters); its canonical form
// holds the semantic fields only, so name and spacing do not change the hash; its IR dump says where each
// field came from; the targets the families emit for are sm80 to sm90a.
#include "ir/memop.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "compiler/pipeline.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("map.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop && !c.config && !c.pipeline) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

constexpr const char* kRelu =
    "kernel relu : sm90a\n  map(input: bf16[N])\n  >> relu\n  >> store(output: bf16[N])\n";

TEST(MemOp, MapLowersItsInputAndChain) {
  MemOpConfig m = lowered(
      "kernel k : sm80\n  map(x: f16[M,N] align(4))\n  >> leaky_relu(0.1) >> expr(x * 0.5) >> cast(bf16)\n"
      "  >> store(y: f32[M,N])\n");
  EXPECT_EQ(m.op.value, OpKind::map);
  EXPECT_EQ(m.arch.value, Arch::sm80);
  ASSERT_EQ(m.inputs.size(), 1u);
  EXPECT_EQ(m.input().name.value, "x");
  EXPECT_EQ(m.input().dtype.value, DType::f16);
  EXPECT_EQ(m.input().align.value, 4);
  ASSERT_EQ(m.input().dims.size(), 2u);
  EXPECT_EQ(m.input().dims[1].symbol, "N");
  ASSERT_EQ(m.chain.size(), 4u);
  EXPECT_EQ(m.chain[0].kind, EpiKind::leaky_relu);
  EXPECT_EQ(m.chain[0].params, std::vector<double>{0.1});
  ASSERT_TRUE(m.chain[1].expr);
  EXPECT_EQ(m.chain[1].expr->text, "(x * 0.5)");
  EXPECT_EQ(m.chain[2].dtype.value, DType::bf16);
  EXPECT_EQ(m.output().name.value, "y");
  EXPECT_EQ(m.output().dtype.value, DType::f32);
}

TEST(MemOp, MapLowersInputsScalarsAndSlices) {
  MemOpConfig m = lowered(
      "kernel k : sm90a\n  map(x: bf16[B,D] slice(in, 0, 2), beta: f32, g: bf16[B,D] slice(in, 1, 2), "
      "t: i32[D], s: bf16)\n  >> leaky_relu(s) >> expr(x * sigmoid(beta * g) + t)\n  >> store(out: "
      "bf16[B,D])\n");
  ASSERT_EQ(m.inputs.size(), 3u);
  EXPECT_EQ(m.inputs[1].name.value, "g");
  EXPECT_EQ(m.inputs[2].dtype.value, DType::i32);
  ASSERT_EQ(m.scalars.size(), 2u);
  EXPECT_EQ(m.scalars[0].name.value, "beta");
  EXPECT_EQ(m.scalars[1].dtype.value, DType::bf16);
  EXPECT_EQ(m.operand_names(), (std::vector<std::string>{"x", "g", "t", "beta", "s"}));
  ASSERT_EQ(m.slices.size(), 2u);
  EXPECT_EQ(m.slice_of(1)->of.value, "in");
  EXPECT_EQ(m.slice_of(1)->block.value, 1);
  EXPECT_EQ(m.slice_of(1)->blocks.value, 2);
  EXPECT_EQ(m.slice_of(2), nullptr);
  std::vector<CallerTensor> callers = m.caller_inputs();
  ASSERT_EQ(callers.size(), 2u);  // `in` once, then `t`
  EXPECT_EQ(callers[0].name, "in");
  EXPECT_EQ(callers[1].name, "t");
  EXPECT_EQ(m.extent_symbols(), (std::vector<std::string>{"B", "D"}));
  // The activation's parameter reads scalar `s` (operand 4); the expression loads `beta` and `g` by index.
  EXPECT_EQ(m.chain[0].param_operands, std::vector<int>{4});
  const EpiExpr& e = *m.chain[1].expr;
  EXPECT_EQ(e.text, "((x * sigmoid((beta * g))) + t)");
  std::vector<double> loads;
  for (const ExprOp& op : e.postfix)
    if (op.code == ExprCode::load) loads.push_back(op.value);
  EXPECT_EQ(loads, (std::vector<double>{3, 1, 2}));
}

TEST(MemOp, CanonicalFormIgnoresNameAndSpacing) {
  MemOpConfig a = lowered(kRelu);
  MemOpConfig b = lowered("# moved\nkernel other_name:sm90a map(input:bf16[N])>>relu>>store(output:bf16[N])");
  EXPECT_EQ(canonical_memop(a), canonical_memop(b));
  EXPECT_EQ(memop_hash(a), memop_hash(b));
  EXPECT_EQ(memop_namespace(a).rfind("ucut_mem_", 0), 0u);
  EXPECT_EQ(memop_namespace(a).size(), std::string("ucut_mem_").size() + 16);
  std::string text = canonical_memop(a).dump();
  EXPECT_EQ(text.find("other_name"), std::string::npos) << text;
  EXPECT_EQ(canonical_memop(a)["op"], "map");
  EXPECT_EQ(canonical_memop(a)["inputs"][0]["name"], "input");
  EXPECT_EQ(canonical_memop(a)["chain"][1]["op"], "store");
}

TEST(MemOp, EverySemanticFieldChangesTheHash) {
  std::string base = memop_hash(lowered(kRelu));
  for (const char* other : {
           "kernel relu : sm80\n  map(input: bf16[N])\n  >> relu\n  >> store(output: bf16[N])\n",
           "kernel relu : sm90a\n  map(input: f32[N])\n  >> relu\n  >> store(output: bf16[N])\n",
           "kernel relu : sm90a\n  map(x: bf16[N])\n  >> relu\n  >> store(output: bf16[N])\n",
           "kernel relu : sm90a\n  map(input: bf16[N] align(2))\n  >> relu\n  >> store(output: bf16[N])\n",
           "kernel relu : sm90a\n  map(input: bf16[N])\n  >> gelu\n  >> store(output: bf16[N])\n",
           "kernel relu : sm90a\n  map(input: bf16[N])\n  >> relu\n  >> store(out: bf16[N])\n",
       })
    EXPECT_NE(memop_hash(lowered(other)), base) << other;
  // Scalars, other inputs' extents and slices are semantic too.
  std::set<std::string> hashes;
  for (const char* operands : {
           "a: f32[M,N], b: f32[M,N]",
           "a: f32[M,N], b: f32[M,1]",
           "a: f32[M,N], b: f32[N]",
           "a: f32[M,N], b: f32[M,N], s: f32",
           "a: f32[M,N], b: f32[M,N], s: bf16",
           "a: f32[M,N], b: f32[M,N] slice(p, 0, 2)",
           "a: f32[M,N], b: f32[M,N] slice(p, 1, 2)",
           "a: f32[M,N], b: f32[M,N] slice(p, 1, 4)",
       })
    hashes.insert(memop_hash(lowered(std::string("kernel k : sm90a\n  map(") + operands +
                                     ")\n  >> expr(x + b)\n  >> store(c: f32[M,N])\n")));
  EXPECT_EQ(hashes.size(), 8u);
  EXPECT_NE(memop_hash(lowered("kernel k : sm90a\n  map(a: f32[N], s: f32, t: f32)\n  >> leaky_relu(s)\n"
                               "  >> store(c: f32[N])\n")),
            memop_hash(lowered("kernel k : sm90a\n  map(a: f32[N], s: f32, t: f32)\n  >> leaky_relu(t)\n"
                               "  >> store(c: f32[N])\n")));
}

TEST(MemOp, TunablesLowerWithTheirPlacesAndDefaultsAreImplied) {
  MemOpConfig d = lowered(kRelu);
  EXPECT_EQ(d.tune.vector.value, 8);
  EXPECT_EQ(d.tune.block.value, 256);
  EXPECT_EQ(d.tune.items.value, 1);
  EXPECT_EQ(d.tune.grid.value, GridPolicy::persistent);
  for (Span s : {d.tune.vector.span, d.tune.block.span, d.tune.items.span, d.tune.grid.span})
    EXPECT_TRUE(s.implied);
  SourceFile src("map.ucut",
                 "kernel k : sm90a\n  map(input: f32[N])\n    .with_vector(2).with_block(512).with_items(4)"
                 ".with_grid(auto)\n  >> relu\n  >> store(output: f32[N])\n");
  Compilation c = compile_spec(src, StopAfter::lower);
  ASSERT_TRUE(c.memop);
  const MemTunables& t = c.memop->tune;
  EXPECT_EQ(t.vector.value, 2);
  EXPECT_EQ(t.block.value, 512);
  EXPECT_EQ(t.items.value, 4);
  EXPECT_EQ(t.grid.value, GridPolicy::cover);
  EXPECT_FALSE(t.vector.span.implied);
  EXPECT_EQ(src.line_col(t.vector.span.begin), std::make_pair(3, 18));  // the argument, where a fix-it edits
  std::string dump = dump_memop_ir(src, *c.memop);
  EXPECT_NE(dump.find("  block 512 @3:32"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  grid auto @3:61"), std::string::npos) << dump;
  EXPECT_NE(dump_memop_ir(SourceFile("map.ucut", kRelu), d).find("  items 1 (default @1:1)"),
            std::string::npos);
  // A default (the vector width is a function of the tensors) widens with a tensor's type and `align`.
  EXPECT_EQ(
      lowered("kernel k : sm90a\n  map(a: bf16[N], t: i32[N])\n  >> expr(x * t)\n  >> store(o: bf16[N])\n")
          .tune.vector.value,
      4);
  EXPECT_EQ(lowered("kernel k : sm90a\n  map(a: bf16[M,N], r: bf16[M,1] align(1))\n  >> expr(x * r)\n"
                    "  >> store(o: bf16[M,N])\n")
                .tune.vector.value,
            8);
}

TEST(MemOp, EveryKnobChangesTheHashAndWrittenDefaultsDoNot) {
  auto hash = [](const std::string& knobs) {
    return memop_hash(lowered("kernel k : sm90a\n  map(input: bf16[N])\n" + knobs +
                              "  >> relu\n  >> store(output: bf16[N])\n"));
  };
  std::string base = hash("");
  EXPECT_EQ(hash("    .with_vector(8).with_block(256).with_items(1).with_grid(persistent)\n"), base);
  std::set<std::string> hashes = {base};
  for (const char* knob :
       {"    .with_vector(4)\n", "    .with_block(512)\n", "    .with_items(2)\n", "    .with_grid(auto)\n"})
    hashes.insert(hash(knob));
  EXPECT_EQ(hashes.size(), 5u);
  EXPECT_FALSE(canonical_memop(lowered(kRelu)).contains("tune"));
}

TEST(MemOp, KernelsWithoutOperandsKeepTheirCanonicalForm) {
  nlohmann::json j = canonical_memop(lowered(kRelu));
  EXPECT_FALSE(j.contains("scalars"));
  EXPECT_FALSE(j.contains("slices"));
  EXPECT_FALSE(j["chain"][0].contains("param_operands"));
}

TEST(MemOp, IrDumpSaysWhereEachFieldCameFrom) {
  SourceFile src("map.ucut", kRelu);
  std::string dump = dump_memop_ir(src, lowered(kRelu));
  EXPECT_NE(dump.find("MemOpConfig 'relu' @1:1"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  arch sm90a @1:15"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  op map @2:3"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  input input: bf16[N] row align(8) @2:7"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  stage relu {\"op\":\"relu\"} @3:6"), std::string::npos) << dump;
  const char* sliced =
      "kernel k : sm90a\n  map(x: f32[B,D] slice(in, 0, 2), g: f32[B,D] slice(in, 1, 2), a: f32)\n"
      "  >> expr(x * g * a)\n  >> store(out: f32[B,D])\n";
  std::string more = dump_memop_ir(SourceFile("map.ucut", sliced), lowered(sliced));
  EXPECT_NE(more.find("    slice of in block 1 of 2 @2:48"), std::string::npos) << more;
  EXPECT_NE(more.find("  scalar a: f32 @2:65"), std::string::npos) << more;
}

TEST(MemOp, FamiliesEmitFromAmpereOn) {
  EXPECT_TRUE(memop_emits_for(Arch::sm80));
  EXPECT_TRUE(memop_emits_for(Arch::sm86));
  EXPECT_TRUE(memop_emits_for(Arch::sm89));
  EXPECT_TRUE(memop_emits_for(Arch::sm90a));
  for (Arch a : {Arch::sm70, Arch::sm75, Arch::sm90, Arch::sm100a}) EXPECT_FALSE(memop_emits_for(a));
}

TEST(MemOp, MapIsAMemoryFamily) {
  EXPECT_TRUE(memory_family(op_family(OpKind::map)));
  EXPECT_FALSE(memory_family(op_family(OpKind::gemm)));
  EXPECT_FALSE(memory_family(op_family(OpKind::conv2d)));
  EXPECT_FALSE(op_is_pipeline_stage(OpKind::map));
}

}  // namespace
}  // namespace ucut
