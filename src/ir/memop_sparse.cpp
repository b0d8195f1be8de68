// ir/memop_sparse.cpp — see memop_sparse.h: the sparse formats' table, and the family's operands, canonical
// fields and IR dump.
#include <fmt/format.h>

#include <algorithm>

#include "ir/canonical.h"
#include "ir/memop.h"
#include "support/error.h"

namespace ucut {

namespace {
const std::vector<SparseFormatInfo>& formats() {
  static const std::vector<SparseFormatInfo> table = {
      {SparseFormat::csr, "csr", {"values", "col_indices", "row_offsets"}, ""},
      {SparseFormat::coo, "coo", {"values", "row_indices", "col_indices"}, "nnz"},
      {SparseFormat::csc, "csc", {"values", "row_indices", "col_offsets"}, ""},
      {SparseFormat::ell, "ell", {"values", "col_ids"}, "max_nnz_per_row"},
  };
  return table;
}
}  // namespace

const SparseFormatInfo& sparse_format_info(SparseFormat f) {
  for (const SparseFormatInfo& info : formats())
    if (info.format == f) return info;
  UC_UNREACHABLE() << "SparseFormat " << static_cast<int>(f);
}

std::optional<SparseFormat> find_sparse_format(std::string_view name) {
  for (const SparseFormatInfo& info : formats())
    if (info.name == name) return info.format;
  return std::nullopt;
}

std::vector<std::string_view> sparse_format_names() {
  std::vector<std::string_view> out;
  for (const SparseFormatInfo& info : formats()) out.push_back(info.name);
  return out;
}

size_t sparse_dense_input(const MemOpConfig& m) {
  UC_ASSERT(m.sparse) << "sparse_dense_input of a `" << op_name(m.op.value) << "`";
  return m.sparse->matrix == 0 ? 1 : 0;
}

bool sparse_is_spmm(const MemOpConfig& m) {
  const size_t d = sparse_dense_input(m);
  return d < m.inputs.size() && m.inputs[d].dims.size() == 2;
}

std::vector<CallerTensor> sparse_caller_inputs(const MemOpConfig& m) {
  const SparseSpec& s = *m.sparse;
  const TensorDecl& a = m.inputs[s.matrix];
  std::vector<CallerTensor> out;
  for (size_t k = 0; k < s.arrays.size(); ++k)
    out.push_back({s.arrays[k].value, k == 0 ? a.dtype : s.index, s.arrays[k].span});
  if (const size_t d = sparse_dense_input(m); d < m.inputs.size())
    out.push_back({m.inputs[d].name.value, m.inputs[d].dtype, m.inputs[d].span});
  return out;
}

std::vector<std::string> sparse_extent_symbols(const MemOpConfig& m) {
  std::vector<std::string> out;
  auto add = [&](const Extent& e) {
    if (!e.fixed() && std::find(out.begin(), out.end(), e.symbol) == out.end()) out.push_back(e.symbol);
  };
  for (const Extent& e : m.output().dims) add(e);
  const SparseSpec& s = *m.sparse;
  if (s.format.value == SparseFormat::csc && m.inputs[s.matrix].dims.size() == 2)
    add(m.inputs[s.matrix].dims[1]);
  if (!s.count.value.empty() && std::find(out.begin(), out.end(), s.count.value) == out.end())
    out.push_back(s.count.value);
  return out;
}

nlohmann::json canonical_sparse(const MemOpConfig& m) {
  const SparseSpec& s = *m.sparse;
  nlohmann::json arrays = nlohmann::json::array();
  for (const Spanned<std::string>& a : s.arrays) arrays.push_back(a.value);
  nlohmann::json j = {{"matrix", s.matrix},
                      {"format", sparse_format_info(s.format.value).name},
                      {"arrays", arrays},
                      {"index", dtype_name(s.index.value)}};
  if (!s.count.value.empty()) j["count"] = s.count.value;
  return j;
}

std::string dump_sparse_ir(const SourceFile& src, const MemOpConfig& m) {
  const SparseSpec& s = *m.sparse;
  std::string arrays;
  for (const Spanned<std::string>& a : s.arrays) arrays += (arrays.empty() ? "" : ", ") + a.value;
  std::string o = fmt::format("  sparse {} {} ({}) {}\n", m.inputs[s.matrix].name.value,
                              sparse_format_info(s.format.value).name, arrays, span_text(src, s.span));
  if (!s.count.value.empty())
    o += fmt::format("    count {} {}\n", s.count.value, span_text(src, s.count.span));
  o += fmt::format("    index {} {}\n", dtype_name(s.index.value), span_text(src, s.index.span));
  return o;
}

}  // namespace ucut
