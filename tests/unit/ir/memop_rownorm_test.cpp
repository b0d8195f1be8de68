// tests/unit/ir/memop_rownorm_test.cpp — a `rownorm` spec lowers to a MemOpConfig with a NormSpec: `norm`,
// `eps` (a run-time scalar by name, or a number), `over` (one symbol, or a tuple); its iteration space is the
// first input, seen as [outer, over, inner] in memory order (norm_axes); `.with_rows` is its own tunable; its
// canonical form holds the normalization, so the hash tells one norm, epsilon or `over` from another.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/pipeline.h"
#include "ir/memop.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("rownorm.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop && !c.config && !c.pipeline) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

std::string rownorm_spec(const std::string& operands, const std::string& out = "f32[N,C]",
                         const std::string& rest = "") {
  return "kernel k : sm90a\n  rownorm(" + operands + ")\n" + rest + "  >> store(y: " + out + ")\n";
}

TEST(MemOpRownorm, LowersNormEpsAndOver) {
  MemOpConfig m = lowered(rownorm_spec("x: bf16[N,C], g: bf16[C], epsilon: f32, norm = layer, eps = epsilon, over = C",
                                       "bf16[N,C]", "  >> expr(x * g)\n"));
  EXPECT_EQ(m.op.value, OpKind::rownorm);
  ASSERT_TRUE(m.norm);
  EXPECT_EQ(m.norm->norm.value, NormKind::layer);
  ASSERT_TRUE(m.norm->eps);
  EXPECT_EQ(m.norm->eps->scalar, "epsilon");
  ASSERT_EQ(m.norm->over.size(), 1u);
  EXPECT_EQ(m.norm->over[0].value, "C");
  EXPECT_EQ(&m.domain(), &m.input());
  // The chain reads the inputs and scalars, not the sizes (as a map's does).
  EXPECT_EQ(m.operand_names(), (std::vector<std::string>{"x", "g", "epsilon"}));
  EXPECT_EQ(m.tune.vector.value, 8);
  EXPECT_EQ(m.tune.rows.value, 1);
  EXPECT_TRUE(m.tune.rows.span.implied);
  EXPECT_FALSE(m.reduce);
}

TEST(MemOpRownorm, EpsTakesANumberAndOverATuple) {
  MemOpConfig m = lowered(rownorm_spec("x: f32[B,H,W], norm = rms, eps = 1e-6, over = (H, W)", "f32[B,H,W]"));
  ASSERT_TRUE(m.norm && m.norm->eps);
  EXPECT_TRUE(m.norm->eps->scalar.empty());
  EXPECT_DOUBLE_EQ(m.norm->eps->value, 1e-6);
  ASSERT_EQ(m.norm->over.size(), 2u);
  EXPECT_EQ(m.norm->over[1].value, "W");
  NormAxes a = norm_axes(m);
  EXPECT_TRUE(a.adjacent);
  EXPECT_EQ(a.outer, (std::vector<size_t>{0}));
  EXPECT_EQ(a.over, (std::vector<size_t>{1, 2}));
  EXPECT_TRUE(a.inner.empty());
}

TEST(MemOpRownorm, AxesOfAStridedOverAndOfExtentsApart) {
  MemOpConfig bn = lowered(rownorm_spec("x: f32[N,C], norm = l2, over = N"));
  NormAxes a = norm_axes(bn);
  EXPECT_TRUE(a.adjacent);
  EXPECT_TRUE(a.outer.empty());
  EXPECT_EQ(a.over, (std::vector<size_t>{0}));
  EXPECT_EQ(a.inner, (std::vector<size_t>{1}));
  // A column-major matrix's rows are its second extent in memory: over its first extent is contiguous.
  MemOpConfig col = lowered(rownorm_spec("x: f32[M,K] col, norm = softmax, over = M", "f32[M,K] col"));
  EXPECT_TRUE(norm_axes(col).inner.empty());
  MemOpConfig apart = lowered(rownorm_spec("x: f32[A,B,C], norm = l1, over = (A, C)", "f32[A,B,C]"));
  EXPECT_FALSE(norm_axes(apart).adjacent);
}

TEST(MemOpRownorm, RowsPerBlockIsARownormTunable) {
  MemOpConfig m = lowered(rownorm_spec("x: f32[N,C], norm = softmax, over = C", "f32[N,C]", "  .with_rows(8)\n"));
  EXPECT_EQ(m.tune.rows.value, 8);
  SourceFile map("map.ucut", "kernel k : sm90a\n  map(x: f32[N])\n  .with_rows(8)\n  >> store(y: f32[N])\n");
  Compilation c = compile_spec(map, StopAfter::lower);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(std::string(rule_info(c.diags.diagnostics()[0].rule).code), "L010");
}

TEST(MemOpRownorm, TheHashTellsNormsEpsilonsAndAxesApart) {
  const std::string base = "x: f32[N,C], epsilon: f32, norm = layer, eps = epsilon, over = C";
  std::string h = memop_hash(lowered(rownorm_spec(base)));
  EXPECT_NE(h, memop_hash(lowered(rownorm_spec("x: f32[N,C], epsilon: f32, norm = rms, eps = epsilon, over = C"))));
  EXPECT_NE(h, memop_hash(lowered(rownorm_spec("x: f32[N,C], epsilon: f32, norm = layer, eps = 1e-5, over = C"))));
  EXPECT_NE(h, memop_hash(lowered(rownorm_spec("x: f32[N,C], epsilon: f32, norm = layer, eps = epsilon, over = N"))));
  EXPECT_NE(h, memop_hash(lowered(rownorm_spec(base, "f32[N,C]", "  .with_rows(8)\n"))));
  EXPECT_EQ(h, memop_hash(lowered(rownorm_spec(base, "f32[N,C]", "  .with_rows(1)\n"))));
  nlohmann::json j = canonical_memop(lowered(rownorm_spec(base)));
  EXPECT_EQ(j["rownorm"]["norm"], "layer");
  EXPECT_EQ(j["rownorm"]["eps"], "epsilon");
  EXPECT_EQ(j["rownorm"]["over"], nlohmann::json::array({"C"}));
}

TEST(MemOpRownorm, TheIrDumpSaysWhereTheNormCameFrom) {
  const std::string text = rownorm_spec("x: f32[N,C], norm = softmax, over = C");
  SourceFile src("rownorm.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  ASSERT_TRUE(c.memop);
  std::string ir = dump_memop_ir(src, *c.memop);
  EXPECT_NE(ir.find("  rownorm softmax @2:31\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("    over (C) @2:47\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("  rows 1 (default @1:1)\n"), std::string::npos) << ir;
}

}  // namespace
}  // namespace ucut
