// ir/memop_sparse.h — the `sparse` family's part of the memory-bound IR (ir/memop.h): y = A·x or Y = A·X, A a
// sparse matrix [ROWS, COLS] the caller passes as the arrays of one storage format (csr, coo, csc, ell), x
// dense [COLS] or X dense row-major [COLS, K]; products accumulate in f32 and the `>>` chain applies to each
// output element. Lowered by lower_memop_sparse.cpp, checked by check/memop_sparse_rules.cpp (C715–C719),
// emitted by emit/memory/sparse.cpp.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.h"

namespace ucut {

struct MemOpConfig;
struct CallerTensor;

/// How the caller stores A (each array's role in SparseFormatInfo::arrays):
///   csr — values[nnz], col_indices[nnz], row_offsets[ROWS + 1]: row r holds entries row_offsets[r] .. [r +
///   1]; coo — values[nnz], row_indices[nnz], col_indices[nnz], and the count nnz; entries in any order,
///   repeats add; csc — values[nnz], row_indices[nnz], col_offsets[COLS + 1]: column c holds entries
///   col_offsets[c] .. [c + 1]; ell — values[ROWS·W], col_ids[ROWS·W], and the width W: row r's slots r·W ..
///   r·W + W − 1, row-major, its
///         entries first, then padding (column −1, whose value is never read).
enum class SparseFormat { csr, coo, csc, ell };

/// One format's spelling and the arguments its call takes: the caller's arrays in order, then (coo, ell) the
/// extent symbol of a count the caller passes.
struct SparseFormatInfo {
  SparseFormat format;
  std::string_view name;
  std::vector<std::string_view> arrays;  // the roles, as MSKB names the arrays
  std::string_view count;                // "nnz" (coo), "max_nnz_per_row" (ell); "" for none
};

const SparseFormatInfo& sparse_format_info(SparseFormat f);
std::optional<SparseFormat> find_sparse_format(std::string_view name);
/// The spellings of every format, in table order (for did-you-mean and fix hints).
std::vector<std::string_view> sparse_format_names();

/// `A: f32[ROWS, COLS] csr(values, col_indices, row_offsets)`: input `matrix` of the kernel is stored in
/// `format` in the caller's arrays (named as the caller names them, in the format's order, values first: of
/// A's element type; the index arrays of `index`, i32 by default, `index = i32` to say so).
struct SparseSpec {
  size_t matrix = 0;  // index into MemOpConfig::inputs: A; the other tensor input is x (or X)
  Spanned<SparseFormat> format;
  std::vector<Spanned<std::string>> arrays;
  Spanned<std::string> count;  // the count's extent symbol (coo, ell); empty otherwise
  Spanned<DType> index;
  Span span;  // the format call
};

/// The dense operand x (or X): the first tensor input that is not A; inputs.size() when A is the only one (C717).
size_t sparse_dense_input(const MemOpConfig& m);
/// Whether the kernel multiplies a matrix X [COLS, K] (SpMM) rather than a vector x [COLS] (SpMV, or no dense operand).
bool sparse_is_spmm(const MemOpConfig& m);
/// The tensors the caller passes: A's arrays (values of A's type, then the index arrays), then x (when there is one).
std::vector<CallerTensor> sparse_caller_inputs(const MemOpConfig& m);
/// The extent symbols a sparse kernel is run with, each once: the output's (ROWS; K), A's COLS for csc (whose
/// columns it walks), the format's count (coo's nnz, ell's width). csr, coo and ell need not know COLS.
std::vector<std::string> sparse_extent_symbols(const MemOpConfig& m);
/// {"format", "arrays", "index"} and, with one, "count": what canonical_memop records of the family.
nlohmann::json canonical_sparse(const MemOpConfig& m);
/// The family's lines of `ucutlass emit --stage=ir`.
std::string dump_sparse_ir(const SourceFile& src, const MemOpConfig& m);

}  // namespace ucut
