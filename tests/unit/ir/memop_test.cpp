// tests/unit/ir/memop_test.cpp — ir/memop.h and ir/lower_memop.cpp: a `map` spec lowers to a MemOpConfig
// (never a KernelConfig), its chain through the epilogue stages' own lowering; its canonical form holds the
// semantic fields only, so name and spacing do not change the hash; its IR dump says where each field came
// from; the targets the families emit for are sm80 to sm90a.
#include "ir/memop.h"

#include <gtest/gtest.h>

#include <string>

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
}

TEST(MemOp, IrDumpSaysWhereEachFieldCameFrom) {
  SourceFile src("map.ucut", kRelu);
  std::string dump = dump_memop_ir(src, lowered(kRelu));
  EXPECT_NE(dump.find("MemOpConfig 'relu' @1:1"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  arch sm90a @1:15"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  op map @2:3"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  input input: bf16[N] row align(8) @2:7"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  stage relu {\"op\":\"relu\"} @3:6"), std::string::npos) << dump;
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
