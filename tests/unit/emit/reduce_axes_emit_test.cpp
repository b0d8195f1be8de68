// tests/unit/emit/reduce_axes_emit_test.cpp — emit/memory/reduce_axes.cpp: a `reduce` with `over` launches the rows
// kernel when the reduced extents end the first input (each row read from its offsets, computed once per row: x of
// y = A·x contiguous along the row, a per-row scale constant) and the columns kernel otherwise, over [outer, length,
// inner]; a mean divides by the row length; `.with_rows` reaches the launch; argmax and argmin store indices;
// logsumexp combines its (max, sum of exps) pair on either kernel; a full
// reduction stays on reduce.cpp's kernel; the same spec emits the same bytes. tests/golden/emit/memory/reduce_{rows_bf16,columns_f32}.cu pin whole
// files.
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;
using test::error_ids;

const char* kMatVec =
    "kernel mv : sm90a\n  reduce(A: f32[M,N], x: f32[N], of = A * x, op = sum, over = N)\n  >> store(y: f32[M])\n";

TEST(ReduceAxesEmit, RowsOfAMatrixVectorProductReadXAlongTheRow) {
  std::string code = code_of(kMatVec);
  EXPECT_TRUE(contains(code, "#include <cub/warp/warp_reduce.cuh>")) << code;
  EXPECT_TRUE(contains(code, "// sum of (A * x) over N -> y, in f32.")) << code;
  EXPECT_TRUE(contains(code, "constexpr int kRows = 0;  // rows per block: picked from the row length at run time"));
  // A is read as the domain; x, broadcast along M, from the row's offset on.
  EXPECT_TRUE(contains(code, "int64_t t_x;"));
  EXPECT_TRUE(contains(code, "return Row{t_x.offset(first)};"));
  EXPECT_TRUE(contains(code, "const cutlass::Array<float, kVector> v_A = t_A.vector(first + j);"));
  EXPECT_TRUE(contains(code, "const cutlass::Array<float, kVector> v_x = ucut_vector_at(t_x, row.t_x + j);"));
  EXPECT_TRUE(contains(code, "return value(t_A.element(first + j), ucut_element_at(t_x, row.t_x + j), first + j);"));
  EXPECT_TRUE(contains(code, "body.count = n_N;"));
  EXPECT_TRUE(contains(code,
                       "return ucut_reduce_rows_launch<ElementOut, kVector, kThreads, kItems, kPersistent, ReduceOp, "
                       "Body>(body, t_y, n_M, n_N, kRows, stream, err, err_len);"))
      << code;
  EXPECT_TRUE(contains(code, "int run_reduce(const ElementIn0* t_A, const ElementIn1* t_x, ElementOut* t_y, "
                             "int64_t n_M, int64_t n_N, cudaStream_t stream, char* err, size_t err_len)"));
  EXPECT_FALSE(contains(code, "__device__ ucut_reduce_workspace"));  // no partials: no last-CTA finish
}

TEST(ReduceAxesEmit, AMiddleExtentIsReducedAsColumns) {
  std::string code =
      code_of("kernel k : sm90a\n  reduce(X: f32[B,D,K], op = mean, over = D)\n  >> store(Y: f32[B,K])\n");
  EXPECT_TRUE(contains(code, "body.count = n_D;")) << code;
  EXPECT_TRUE(contains(code, "x = x / float(count);"));
  EXPECT_TRUE(contains(code,
                       "return ucut_reduce_columns_launch<ElementOut, kVector, kThreads, kPersistent, ReduceOp, "
                       "Body>(body, t_Y, n_B, n_D, n_K, stream, err, err_len);"))
      << code;
  EXPECT_FALSE(contains(code, "kRows"));
  EXPECT_FALSE(contains(code, "struct Row"));
  // Column sums of [N, C]: nothing before the reduced extent.
  EXPECT_TRUE(contains(code_of("kernel k : sm90a\n  reduce(X: bf16[N,C], op = sum, over = N)\n"
                               "  >> store(Y: bf16[C])\n"),
                       "(body, t_Y, 1, n_N, n_C, stream, err, err_len);"));
}

TEST(ReduceAxesEmit, ARowConstantInputIsReadOncePerRowAndRowsReachTheLaunch) {
  std::string code = code_of(
      "kernel k : sm90a\n  reduce(X: bf16[B,H,W], s: bf16[B,1,1], of = X * s, op = max, over = (H, W))\n"
      "    .with_rows(4)\n  >> store(Y: f32[B])\n");
  EXPECT_TRUE(contains(code, "v_s.fill(ucut_element_at(t_s, row.t_s));")) << code;
  EXPECT_TRUE(contains(code, "using ReduceOp = ucut_reduce_value<ucut_reduce_max>;"));
  EXPECT_TRUE(contains(code, "constexpr int kRows = 4;  // rows per block"));
  EXPECT_TRUE(contains(code, "(body, t_Y, n_B, n_H * n_W, kRows, stream, err, err_len);"));
}

TEST(ReduceAxesEmit, ArgmaxAndArgminStoreTheIndexAlongOver) {
  std::string rows =
      code_of("kernel k : sm90a\n  reduce(X: bf16[M,N], op = argmax, over = N)\n  >> store(idx: i32[M])\n");
  EXPECT_TRUE(contains(rows, "using ReduceOp = ucut_reduce_argmax;")) << rows;
  EXPECT_TRUE(contains(rows, "using ElementOut = int32_t;"));
  EXPECT_TRUE(contains(rows, "ucut_reduce_rows_launch<ElementOut"));
  std::string columns = code_of(
      "kernel k : sm90a\n  reduce(X: f32[N,C], of = X * X, op = argmin, over = N)\n  >> store(idx: i32[C])\n");
  EXPECT_TRUE(contains(columns, "using ReduceOp = ucut_reduce_argmin;")) << columns;
  EXPECT_TRUE(contains(columns, "ucut_reduce_columns_launch<ElementOut"));
  // A value's combination goes through the value accumulator.
  EXPECT_TRUE(contains(code_of(kMatVec), "using ReduceOp = ucut_reduce_value<ucut_reduce_sum>;"));
}

TEST(ReduceAxesEmit, LogsumexpRowsAndColumnsCombineItsPairWithCub) {
  std::string rows =
      code_of("kernel k : sm90a\n  reduce(X: f32[M,N], op = logsumexp, over = N, acc: f32)\n  >> store(y: f32[M])\n");
  EXPECT_TRUE(contains(rows, "using ReduceOp = ucut_reduce_logsumexp;")) << rows;
  EXPECT_TRUE(contains(rows, "ucut_reduce_rows_launch<ElementOut"));
  EXPECT_TRUE(contains(rows, "using WarpReduce = cub::WarpReduce<Acc>;"));
  std::string columns = code_of(
      "kernel k : sm90a\n  reduce(X: f32[B,C,K], of = X * 2, op = logsumexp, over = C)\n  >> store(y: bf16[B,K])\n");
  EXPECT_TRUE(contains(columns, "using ReduceOp = ucut_reduce_logsumexp;")) << columns;
  EXPECT_TRUE(contains(columns, "ucut_reduce_columns_launch<ElementOut"));
  EXPECT_TRUE(contains(columns, "using ElementOut = cutlass::bfloat16_t;"));
}

TEST(ReduceAxesEmit, OverEveryExtentIsAFullReduction) {
  std::string code = code_of("kernel k : sm90a\n  reduce(X: f32[M,N], op = sum, over = (M, N))\n"
                             "  >> store(y: f32[1])\n");
  EXPECT_TRUE(contains(code, "__device__ ucut_reduce_workspace<ReduceOp::Acc, kMaxBlocks> workspace;")) << code;
  EXPECT_FALSE(contains(code, "ucut_reduce_rows_launch<"));
}

TEST(ReduceAxesEmit, TheSameSpecEmitsTheSameBytes) {
  EXPECT_EQ(code_of(kMatVec), code_of(kMatVec));
  const std::string columns = "kernel k : sm90a\n  reduce(X: f32[B,D,K], op = sum, over = D)\n  >> store(Y: f32[B,K])\n";
  EXPECT_EQ(code_of(columns), code_of(columns));
}

TEST(ReduceAxesEmit, ABadOverIsC706AndBadRowsC703) {
  EXPECT_EQ(error_ids("kernel k : sm90a\n  reduce(X: f32[M,N], op = sum, over = K)\n  >> store(y: f32[M])\n"),
            std::vector<std::string>{"C706"});
  EXPECT_EQ(error_ids("kernel k : sm90a\n  reduce(X: f32[M,N], op = sum, over = N)\n  >> store(y: f32[N])\n"),
            std::vector<std::string>{"C706"});
  EXPECT_EQ(error_ids("kernel k : sm90a\n  reduce(X: f32[M,N], op = sum, over = N)\n    .with_rows(16)\n"
                      "  >> store(y: f32[M])\n"),
            std::vector<std::string>{"C703"});
}

}  // namespace
}  // namespace ucut
