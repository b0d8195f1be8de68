// tests/unit/ir/memop_sparse_test.cpp — ir/lower_memop_sparse.cpp and ir/memop_sparse.h: a `sparse` kernel
// lowers its matrix's format call (the caller's arrays, the count of coo and ell, the index type, implied
// i32) off A's type, passes its arrays and dense operand as the caller's tensors, runs with the extents its
// format needs, and records every field in its hash and IR dump. Its check rules (C715–C719) are the goldens'
// (tests/golden/check/).
#include <gtest/gtest.h>

#include <string>

#include "compiler/pipeline.h"
#include "ir/memop.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("sparse.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop && !c.config) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

std::string sparse_spec(const std::string& matrix, const std::string& dense, const std::string& out,
                        const std::string& extra = "") {
  return "kernel k : sm90a\n  sparse(A: f32[rows, cols] " + matrix + ", " + dense + extra + ")\n  >> store(" +
         out + ")\n";
}

TEST(MemOpSparse, CsrLowersItsArraysAndDefaults) {
  MemOpConfig m =
      lowered(sparse_spec("csr(values, col_indices, row_offsets)", "x: f32[cols]", "y: f32[rows]"));
  EXPECT_EQ(m.op.value, OpKind::sparse);
  EXPECT_TRUE(memory_family(op_family(OpKind::sparse)));
  ASSERT_TRUE(m.sparse);
  EXPECT_EQ(m.sparse->format.value, SparseFormat::csr);
  EXPECT_EQ(m.sparse->matrix, 0u);
  ASSERT_EQ(m.sparse->arrays.size(), 3u);
  EXPECT_EQ(m.sparse->arrays[1].value, "col_indices");
  EXPECT_TRUE(m.sparse->count.value.empty());
  EXPECT_EQ(m.sparse->index.value, DType::i32);
  EXPECT_TRUE(m.sparse->index.span.implied);
  EXPECT_EQ(sparse_dense_input(m), 1u);
  EXPECT_FALSE(sparse_is_spmm(m));
  EXPECT_EQ(m.tune.rows.value, kMemAutoRows);
  // The caller passes the arrays and x, not A; csr's kernel never reads COLS.
  std::vector<CallerTensor> callers = m.caller_inputs();
  ASSERT_EQ(callers.size(), 4u);
  EXPECT_EQ(callers[0].name, "values");
  EXPECT_EQ(callers[0].dtype.value, DType::f32);
  EXPECT_EQ(callers[2].name, "row_offsets");
  EXPECT_EQ(callers[2].dtype.value, DType::i32);
  EXPECT_EQ(callers[3].name, "x");
  EXPECT_EQ(m.extent_symbols(), (std::vector<std::string>{"rows"}));
}

TEST(MemOpSparse, EachFormatRunsWithItsExtents) {
  MemOpConfig coo = lowered(
      sparse_spec("coo(values, row_indices, col_indices, nnz)", "X: bf16[cols, K]", "Y: bf16[rows, K]"));
  EXPECT_EQ(coo.sparse->format.value, SparseFormat::coo);
  EXPECT_EQ(coo.sparse->count.value, "nnz");
  EXPECT_TRUE(sparse_is_spmm(coo));
  EXPECT_EQ(coo.extent_symbols(), (std::vector<std::string>{"rows", "K", "nnz"}));
  MemOpConfig csc =
      lowered(sparse_spec("csc(values, row_indices, col_offsets)", "x: f32[cols]", "y: f32[rows]"));
  EXPECT_EQ(csc.extent_symbols(), (std::vector<std::string>{"rows", "cols"}));
  MemOpConfig ell = lowered(
      sparse_spec("ell(values, col_ids, max_nnz_per_row, index = i32)", "x: f32[cols]", "y: f32[rows]"));
  EXPECT_EQ(ell.sparse->arrays.size(), 2u);
  EXPECT_FALSE(ell.sparse->index.span.implied);
  EXPECT_EQ(ell.extent_symbols(), (std::vector<std::string>{"rows", "max_nnz_per_row"}));
  EXPECT_EQ(ell.caller_inputs().size(), 3u);
}

TEST(MemOpSparse, FormatTable) {
  EXPECT_EQ(find_sparse_format("ell"), SparseFormat::ell);
  EXPECT_FALSE(find_sparse_format("bsr"));
  EXPECT_EQ(sparse_format_names(), (std::vector<std::string_view>{"csr", "coo", "csc", "ell"}));
  EXPECT_EQ(sparse_format_info(SparseFormat::coo).count, "nnz");
}

TEST(MemOpSparse, FormatAndArraysAreSemantic) {
  const std::string csr =
      sparse_spec("csr(values, col_indices, row_offsets)", "x: f32[cols]", "y: f32[rows]");
  const std::string renamed =
      sparse_spec("csr(vals, col_indices, row_offsets)", "x: f32[cols]", "y: f32[rows]");
  const std::string csc =
      sparse_spec("csc(values, col_indices, row_offsets)", "x: f32[cols]", "y: f32[rows]");
  const std::string lanes = "kernel k : sm90a\n  sparse(A: f32[rows, cols] csr(values, col_indices, row_offsets), "
                            "x: f32[cols])\n  .with_rows(8)\n  >> store(y: f32[rows])\n";
  EXPECT_NE(memop_hash(lowered(csr)), memop_hash(lowered(renamed)));
  EXPECT_NE(memop_hash(lowered(csr)), memop_hash(lowered(csc)));
  EXPECT_NE(memop_hash(lowered(csr)), memop_hash(lowered(lanes)));
  EXPECT_EQ(canonical_memop(lowered(csr))["sparse"]["format"], "csr");
}

TEST(MemOpSparse, DumpShowsTheFormatWithItsPlace) {
  const std::string text =
      sparse_spec("coo(values, row_indices, col_indices, nnz)", "x: f32[cols]", "y: f32[rows]");
  SourceFile src("sparse.ucut", text);
  const std::string ir = dump_memop_ir(src, lowered(text));
  EXPECT_NE(ir.find("  sparse A coo (values, row_indices, col_indices) @2:"), std::string::npos) << ir;
  EXPECT_NE(ir.find("    count nnz @2:"), std::string::npos) << ir;
  EXPECT_NE(ir.find("    index i32 (default @2:"), std::string::npos) << ir;
}

}  // namespace
}  // namespace ucut
