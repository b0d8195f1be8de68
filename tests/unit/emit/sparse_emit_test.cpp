// tests/unit/emit/sparse_emit_test.cpp — emit/memory/sparse.cpp: the format picks the kernels of
// memop_sparse.inc (csr and ell by rows on cub::WarpReduce, coo and csc by an atomic scatter), the run
// function takes A's arrays, the dense operand, the output, the scalars and the extents the format needs, the
// chain lands in the Body's `finish`, and the knobs (lanes per row, block, vector) and the scatter's direct
// sums reach the launch. tests/golden/emit/memory/sparse_*.cu pin two whole files.
#include <gtest/gtest.h>

#include <string>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;

std::string sparse_spec(const std::string& matrix, const std::string& dense, const std::string& out,
                        const std::string& rest = "") {
  return "kernel k : sm90a\n  sparse(A: f32[rows, cols] " + matrix + ", " + dense + ")\n" + rest +
         "  >> store(" + out + ")\n";
}

TEST(SparseEmit, CsrRunsByRowsWithTheCallersArrays) {
  std::string code =
      code_of(sparse_spec("csr(values, col_indices, row_offsets)", "x: f32[cols]", "y: f32[rows]"));
  EXPECT_TRUE(contains(code,
                       "int run_sparse(const ElementIn0* t_values, const ElementIn1* t_col_indices, const "
                       "ElementIn2* t_row_offsets, const ElementIn3* t_x, ElementOut* t_y, int64_t n_rows, "
                       "cudaStream_t stream, char* err, size_t err_len)"))
      << code;
  EXPECT_TRUE(contains(code, "using ElementIn1 = int32_t;"));
  EXPECT_TRUE(contains(code, "using Args = ucut_sparse_args<ElementIn0, ElementIn3>;"));
  // COLS is never read by csr: 0, and K is 1 for an SpMV.
  EXPECT_TRUE(
      contains(code, "const Args args{t_values, t_col_indices, t_row_offsets, t_x, n_rows, 0, 0, 1};"))
      << code;
  EXPECT_TRUE(
      contains(code, "ucut_sparse_launch<ElementOut, ucut_sparse_csr, kVector, kThreads, kLanes, kDirect>"));
  EXPECT_TRUE(contains(code, "constexpr int kLanes = 0;  // lanes per row: picked at run time"));
  EXPECT_TRUE(contains(code, "cub::WarpReduce<float, Lanes>"));
  EXPECT_FALSE(contains(code, "cusparse"));
}

TEST(SparseEmit, EachFormatPassesItsExtents) {
  std::string csc =
      code_of(sparse_spec("csc(values, row_indices, col_offsets)", "X: f32[cols, K]", "Y: f32[rows, K]"));
  EXPECT_TRUE(
      contains(csc, "const Args args{t_values, t_row_indices, t_col_offsets, t_X, n_rows, n_cols, 0, n_K};"))
      << csc;
  EXPECT_TRUE(contains(csc, "ucut_sparse_csc,"));
  std::string ell = code_of(sparse_spec("ell(values, col_ids, width)", "x: f32[cols]", "y: f32[rows]"));
  EXPECT_TRUE(contains(ell, "const Args args{t_values, t_col_ids, nullptr, t_x, n_rows, 0, n_width, 1};"))
      << ell;
  std::string coo = code_of(sparse_spec("coo(values, r, c, nnz)", "x: f32[cols]", "y: f32[rows]"));
  EXPECT_TRUE(contains(coo, "const Args args{t_values, t_r, t_c, t_x, n_rows, 0, n_nnz, 1};")) << coo;
  EXPECT_TRUE(
      contains(coo, "constexpr bool kDirect = true;  // the scatter sums into the f32 output itself"));
}

TEST(SparseEmit, TheChainAndScalarsAreTheBodys) {
  std::string code = code_of(
      "kernel k : sm90a\n  sparse(A: bf16[rows, cols] coo(values, ri, ci, nnz), x: bf16[cols], alpha: f32)\n"
      "  >> expr(x * alpha)\n  >> store(y: bf16[rows])\n");
  EXPECT_TRUE(contains(code, "float s_alpha;"));
  EXPECT_TRUE(contains(code, "x = cutlass::multiplies<float>{}(x, s_alpha);")) << code;
  EXPECT_TRUE(contains(code, "body.s_alpha = s_alpha;"));
  // A bf16 output (and a chain): the scatter sums into f32 workspace, then the chain writes the output.
  EXPECT_TRUE(contains(code, "constexpr bool kDirect = false;"));
}

TEST(SparseEmit, KnobsReachTheLaunch) {
  std::string rows =
      code_of(sparse_spec("csr(values, col_indices, row_offsets)", "x: f32[cols]", "y: f32[rows]",
                          "  .with_rows(4)\n  .with_block(512)\n"));
  EXPECT_TRUE(contains(rows, "constexpr int kLanes = 4;  // lanes per row")) << rows;
  EXPECT_TRUE(contains(rows, "constexpr int kThreads = 512;"));
  std::string spmm =
      code_of(sparse_spec("csr(values, col_indices, row_offsets)", "X: f32[cols, K]", "Y: f32[rows, K]",
                          "  .with_vector(2)\n"));
  EXPECT_TRUE(contains(spmm, "constexpr int kVector = 2;  // elements of X's and Y's rows")) << spmm;
}

}  // namespace
}  // namespace ucut
