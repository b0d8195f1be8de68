// tests/unit/ir/memop_reduce_test.cpp — a `reduce` spec lowers to a MemOpConfig with a ReduceSpec: `op`,
// `of` over the inputs by name, `weights`, `acc`; its iteration space is the first input, whose extent
// symbols are operands after the scalars; its canonical form holds the reduction, so the hash tells a reduce
// from a map and one op, `of` or weighting from another; the IR dump says where each reduce field came from.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "compiler/pipeline.h"
#include "ir/memop.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("reduce.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop && !c.config && !c.pipeline) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

std::string reduce_spec(const std::string& operands, const std::string& chain = "",
                        const std::string& out = "f32") {
  return "kernel k : sm90a\n  reduce(" + operands + ")\n" + chain + "  >> store(loss: " + out + "[1])\n";
}

TEST(MemOpReduce, LowersOpOfWeightsAndAcc) {
  MemOpConfig m = lowered(reduce_spec("y: bf16[N], a: f32, b: f32, of = y * y, op = sum, weights = simpson",
                                      "  >> expr((b - a) / (N - 1) * x)\n", "bf16"));
  EXPECT_EQ(m.op.value, OpKind::reduce);
  ASSERT_TRUE(m.reduce);
  EXPECT_EQ(m.reduce->op.value, ReduceOp::sum);
  EXPECT_EQ(m.reduce->weights.value, ReduceWeights::simpson);
  EXPECT_EQ(m.reduce->acc.value, DType::f32);
  EXPECT_TRUE(m.reduce->acc.span.implied);
  ASSERT_TRUE(m.reduce->of);
  EXPECT_EQ(m.reduce->of->text, "(y * y)");
  // The sizes follow the scalars among the operands; the chain reads N as operand 3.
  EXPECT_EQ(m.operand_names(), (std::vector<std::string>{"y", "a", "b", "N"}));
  EXPECT_EQ(&m.domain(), &m.input());
  EXPECT_EQ(m.output().dtype.value, DType::bf16);
  std::vector<double> loads;
  for (const ExprOp& op : m.chain[0].expr->postfix)
    if (op.code == ExprCode::load) loads.push_back(op.value);
  EXPECT_EQ(loads, (std::vector<double>{2, 1, 3}));
  // The vector width is the input's: 16 bytes of bf16; the one-value output does not narrow it.
  EXPECT_EQ(m.tune.vector.value, 8);
}

TEST(MemOpReduce, OfDefaultsToTheFirstInput) {
  MemOpConfig m = lowered(reduce_spec("x: f32[N], op = max"));
  ASSERT_TRUE(m.reduce);
  EXPECT_FALSE(m.reduce->of);
  EXPECT_TRUE(m.reduce->of_span.implied);
  EXPECT_EQ(m.reduce->weights.value, ReduceWeights::none);
  EXPECT_FALSE(lowered("kernel k : sm90a\n  map(x: f32[N])\n  >> store(y: f32[N])\n").reduce);
}

TEST(MemOpReduce, TheHashTellsReducesFromMapsAndFromEachOther) {
  std::set<std::string> hashes;
  for (const char* operands :
       {"x: f32[N], op = sum", "x: f32[N], op = mean", "x: f32[N], op = max", "x: f32[N], op = min",
        "x: f32[N], of = x * x, op = sum", "x: f32[N], op = sum, weights = simpson"})
    hashes.insert(memop_hash(lowered(reduce_spec(operands))));
  EXPECT_EQ(hashes.size(), 6u);
  std::string map = memop_hash(lowered("kernel k : sm90a\n  map(x: f32[N])\n  >> store(loss: f32[N])\n"));
  EXPECT_EQ(hashes.count(map), 0u);
  // A written default keeps the hash; a tunable changes it.
  EXPECT_EQ(memop_hash(lowered(reduce_spec("x: f32[N], op = sum, acc: f32"))),
            memop_hash(lowered(reduce_spec("x: f32[N], op = sum"))));
  EXPECT_EQ(hashes.count(memop_hash(lowered("kernel k : sm90a\n  reduce(x: f32[N], op = sum)\n"
                                            "    .with_block(512)\n  >> store(loss: f32[1])\n"))),
            0u);
  nlohmann::json j = canonical_memop(lowered(reduce_spec("x: f32[N], of = x * x, op = mean")));
  EXPECT_EQ(j["op"], "reduce");
  EXPECT_EQ(j["reduce"]["op"], "mean");
  EXPECT_EQ(j["reduce"]["weights"], "none");
  EXPECT_EQ(j["reduce"]["acc"], "f32");
  EXPECT_TRUE(j["reduce"]["of"].is_array());
}

TEST(MemOpReduce, IrDumpSaysWhereEachReduceFieldCameFrom) {
  const std::string text = reduce_spec("x: f32[N], of = x * x, op = mean");
  std::string dump = dump_memop_ir(SourceFile("reduce.ucut", text), lowered(text));
  EXPECT_NE(dump.find("  reduce mean @2:38"), std::string::npos) << dump;
  EXPECT_NE(dump.find("    of (x * x) @2:26"), std::string::npos) << dump;
  EXPECT_NE(dump.find("    weights none (default @2:3)"), std::string::npos) << dump;
}

TEST(MemOpReduce, OverNamesTheReducedExtentsWithTheirSpans) {
  const std::string text =
      "kernel k : sm90a\n  reduce(A: f32[M,N], x: f32[N], of = A * x, op = sum, over = N)\n  >> store(y: f32[M])\n";
  SourceFile src("reduce.ucut", text);
  MemOpConfig m = lowered(text);
  ASSERT_TRUE(m.reduce);
  ASSERT_EQ(m.reduce->over.size(), 1u);
  EXPECT_EQ(m.reduce->over[0].value, "N");
  EXPECT_EQ(src.line_col(m.reduce->over[0].span.begin), (std::pair<int, int>{2, 63}));
  ReduceAxes axes = reduce_axes(m);
  EXPECT_EQ(axes.reduced, (std::vector<size_t>{1}));
  EXPECT_EQ(axes.kept, (std::vector<size_t>{0}));
  EXPECT_TRUE(axes.suffix());
  // A tuple names several; the middle extent of three is adjacent but no suffix (columns).
  MemOpConfig rows = lowered("kernel k : sm90a\n  reduce(X: f32[B,H,W], op = max, over = (H, W))\n"
                             "  >> store(y: f32[B])\n");
  EXPECT_EQ(reduce_axes(rows).reduced, (std::vector<size_t>{1, 2}));
  EXPECT_TRUE(reduce_axes(rows).suffix());
  MemOpConfig columns =
      lowered("kernel k : sm90a\n  reduce(X: f32[B,D,K], op = sum, over = D)\n  >> store(y: f32[B,K])\n");
  EXPECT_TRUE(reduce_axes(columns).adjacent());
  EXPECT_FALSE(reduce_axes(columns).suffix());
  // Without `over` every extent is reduced.
  EXPECT_EQ(reduce_axes(lowered(reduce_spec("x: f32[N], op = sum"))).kept.size(), 0u);
}

TEST(MemOpReduce, ArgmaxAndArgminAreOps) {
  MemOpConfig m = lowered("kernel k : sm90a\n  reduce(X: f32[M,N], op = argmax, over = N)\n  >> store(i: i32[M])\n");
  EXPECT_EQ(m.reduce->op.value, ReduceOp::argmax);
  EXPECT_TRUE(is_arg_op(m.reduce->op.value));
  EXPECT_EQ(canonical_memop(m)["reduce"]["op"], "argmax");
  EXPECT_EQ(find_reduce_op("argmin"), ReduceOp::argmin);
  EXPECT_FALSE(is_arg_op(ReduceOp::max));
}

TEST(MemOpReduce, LogsumexpIsAValueOpWithOfAndOverAndItsOwnHash) {
  const std::string text = "kernel k : sm90a\n  reduce(X: f32[M,N], of = X * 2, op = logsumexp, over = N)\n"
                           "  >> store(y: f32[M])\n";
  MemOpConfig m = lowered(text);
  ASSERT_TRUE(m.reduce);
  EXPECT_EQ(m.reduce->op.value, ReduceOp::logsumexp);
  EXPECT_FALSE(is_arg_op(m.reduce->op.value));
  EXPECT_EQ(find_reduce_op("logsumexp"), ReduceOp::logsumexp);
  EXPECT_EQ(reduce_op_name(ReduceOp::logsumexp), "logsumexp");
  ASSERT_TRUE(m.reduce->of);
  EXPECT_EQ(m.reduce->of->text, "(X * 2)");
  EXPECT_EQ(canonical_memop(m)["reduce"]["op"], "logsumexp");
  EXPECT_NE(memop_hash(lowered(reduce_spec("x: f32[N], op = logsumexp"))),
            memop_hash(lowered(reduce_spec("x: f32[N], op = max"))));
  std::string dump = dump_memop_ir(SourceFile("reduce.ucut", text), m);
  EXPECT_NE(dump.find("  reduce logsumexp @2:40"), std::string::npos) << dump;
  // Full reductions take it too.
  EXPECT_EQ(lowered(reduce_spec("x: f32[N], op = logsumexp")).reduce->op.value, ReduceOp::logsumexp);
}

TEST(MemOpReduce, OverAndRowsEnterTheHashOnlyWhenGiven) {
  const std::string full = reduce_spec("x: f32[N], op = sum");
  nlohmann::json j = canonical_memop(lowered(full));
  EXPECT_FALSE(j["reduce"].contains("over"));
  EXPECT_FALSE(j.contains("tune"));
  auto spec = [](const std::string& over, const std::string& rows) {
    return "kernel k : sm90a\n  reduce(X: f32[M,N], op = sum, over = " + over + ")\n" + rows +
           "  >> store(y: f32[M])\n";
  };
  nlohmann::json a = canonical_memop(lowered(spec("N", "")));
  EXPECT_EQ(a["reduce"]["over"], nlohmann::json::array({"N"}));
  EXPECT_NE(memop_hash(lowered(spec("N", ""))), memop_hash(lowered(spec("N", "    .with_rows(2)\n"))));
  // `.with_rows(auto)` is the default, so the same kernel.
  EXPECT_EQ(memop_hash(lowered(spec("N", ""))), memop_hash(lowered(spec("N", "    .with_rows(auto)\n"))));
  EXPECT_EQ(canonical_memop(lowered(spec("N", "    .with_rows(4)\n")))["tune"]["rows"], 4);
}

TEST(MemOpReduce, IrDumpShowsOverAndRowsOfAPerAxisReduce) {
  const std::string text =
      "kernel k : sm90a\n  reduce(X: f32[B,H,W], op = sum, over = (H, W))\n    .with_rows(2)\n"
      "  >> store(y: f32[B])\n";
  std::string dump = dump_memop_ir(SourceFile("reduce.ucut", text), lowered(text));
  EXPECT_NE(dump.find("    over H, W @2:42"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  rows 2 @3:16"), std::string::npos) << dump;
  std::string full = dump_memop_ir(SourceFile("reduce.ucut", reduce_spec("x: f32[N], op = sum")),
                                   lowered(reduce_spec("x: f32[N], op = sum")));
  EXPECT_EQ(full.find("over"), std::string::npos) << full;
  EXPECT_EQ(full.find("rows"), std::string::npos) << full;
}

}  // namespace
}  // namespace ucut
