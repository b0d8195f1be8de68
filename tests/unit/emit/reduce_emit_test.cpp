// tests/unit/emit/reduce_emit_test.cpp — emit/memory/reduce.cpp: the value of an element is `of` over the
// inputs there (times its Simpson weight), the op picks the accumulator (a logsumexp's a pair), a mean divides the combined
// value by the count before the chain, the chain reads scalars and sizes, the launch takes the spec's
// tunables, and the kernel reduces on cub::BlockReduce with its partials in the translation unit's own
// workspace (memop_reduce.inc). tests/golden/emit/memory/reduce_simpson_bf16.cu pins a whole file.
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;

std::string reduce_spec(const std::string& operands, const std::string& rest = "") {
  return "kernel k : sm90a\n  reduce(" + operands + ")\n" + rest + "  >> store(loss: f32[1])\n";
}

TEST(ReduceEmit, TheValueIsOfOverTheInputsAndAMeanDividesByTheCount) {
  std::string code = code_of(reduce_spec("X: bf16[N], Y: bf16[N], of = (X - Y) * (X - Y), op = mean"));
  EXPECT_TRUE(contains(code, "CUTLASS_DEVICE float value(float v_X, float v_Y, int64_t i) const")) << code;
  EXPECT_TRUE(contains(code,
                       "return cutlass::multiplies<float>{}(cutlass::minus<float>{}(v_X, v_Y), "
                       "cutlass::minus<float>{}(v_X, v_Y));"))
      << code;
  EXPECT_TRUE(contains(code, "x = x / float(count);"));
  EXPECT_TRUE(contains(code, "using ReduceOp = ucut_reduce_value<ucut_reduce_sum>;"));
  EXPECT_TRUE(contains(code, "constexpr int kVector = 8;"));
  EXPECT_TRUE(contains(code, "cub::BlockReduce<Acc, Threads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>"));
  EXPECT_TRUE(contains(code, "__device__ ucut_reduce_workspace<ReduceOp::Acc, kMaxBlocks> workspace;"));
  EXPECT_FALSE(contains(code, "weight(i)"));
}

TEST(ReduceEmit, MaxAndMinCombineWithTheirFunctors) {
  EXPECT_TRUE(
      contains(code_of(reduce_spec("X: f32[N], op = max")), "using ReduceOp = ucut_reduce_value<ucut_reduce_max>;"));
  EXPECT_TRUE(
      contains(code_of(reduce_spec("X: f32[N], op = min")), "using ReduceOp = ucut_reduce_value<ucut_reduce_min>;"));
}

TEST(ReduceEmit, LogsumexpCombinesMaxAndSumPairsThroughThePartials) {
  std::string code = code_of(reduce_spec("X: f32[N], of = X * 2, op = logsumexp", "  >> expr(x - 1)\n"));
  EXPECT_TRUE(contains(code, "// logsumexp of (X * 2) -> expr((x - 1)) -> loss, in f32.")) << code;
  EXPECT_TRUE(contains(code, "using ReduceOp = ucut_reduce_logsumexp;"));
  EXPECT_TRUE(contains(code, "return cutlass::multiplies<float>{}(v_X, 2.0f);"));  // `of`, before
  EXPECT_TRUE(contains(code, "x = cutlass::minus<float>{}(x, 1.0f);"));              // the chain, after
  // The partials are (max, sum of exps) pairs; finish applies the chain to max + log(sum) (the accumulator's store).
  EXPECT_TRUE(contains(code, "__device__ ucut_reduce_workspace<ReduceOp::Acc, kMaxBlocks> workspace;"));
  EXPECT_TRUE(contains(code, "ucut_reduce_workspace<ReduceOp::Acc, kMaxBlocks>* work = nullptr;"));
  EXPECT_TRUE(contains(code, "body.finish(a.max + logf(a.sum))"));
  EXPECT_TRUE(contains(code, "return {hi.max, hi.sum + lo.sum * expf(lo.max - hi.max)};"));
  EXPECT_FALSE(contains(code, "x = x / float(count);"));
}

TEST(ReduceEmit, SimpsonWeightsAndTheChainReadScalarsAndSizes) {
  std::string code = code_of(
      reduce_spec("y: f32[N], a: f32, b: f32, op = sum, weights = simpson", "  >> expr((b - a) / N * x)\n"));
  EXPECT_TRUE(contains(code, "return (x) * weight(i);")) << code;
  EXPECT_TRUE(contains(code, "const int64_t last = ((count - 3) & ~int64_t(1)) + 2;"));
  EXPECT_TRUE(contains(code, "int64_t n_N;"));
  EXPECT_TRUE(contains(code, "cutlass::minus<float>{}(s_b, s_a), float(n_N))")) << code;
}

TEST(ReduceEmit, TheLaunchTakesTheTunables) {
  std::string code = code_of(
      "kernel k : sm90a\n  reduce(X: f32[N], op = sum)\n"
      "    .with_vector(2).with_block(512).with_items(4).with_grid(auto)\n"
      "  >> store(loss: f32[1])\n");
  EXPECT_TRUE(contains(code, "constexpr int kVector = 2;")) << code;
  EXPECT_TRUE(contains(code, "constexpr int kThreads = 512;"));
  EXPECT_TRUE(contains(code, "constexpr int kItems = 4;"));
  EXPECT_TRUE(contains(code, "constexpr bool kPersistent = false;"));
  EXPECT_TRUE(contains(code, "constexpr int kMaxBlocks = 2048;"));
  EXPECT_TRUE(contains(code,
                       "ucut_reduce_launch<ElementOut, kVector, kThreads, kItems, kPersistent, "
                       "kMaxBlocks, ReduceOp, Body>"));
}

}  // namespace
}  // namespace ucut
