// ir/lower_memop_sparse.cpp — see lower_memop_sparse.h: the `sparse` family's format call
// (`csr(values, col_indices, row_offsets)`, `coo(values, row_indices, col_indices, nnz)`, `csc(values,
// row_indices, col_offsets)`, `ell(values, col_ids, max_nnz_per_row)`, each with an optional `index = i32`)
// and the rule that a `sparse` operator's matrix has one. What the operands' extents must be is check's
// (memop_sparse_rules.cpp).
#include "ir/lower_memop_sparse.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/lower_util.h"

namespace ucut {

using namespace lowering;

namespace {

/// `csr(values, col_indices, row_offsets)`: how the format `f` is written, with MSKB's names.
std::string format_usage(SparseFormat f) {
  const SparseFormatInfo& info = sparse_format_info(f);
  std::string args;
  for (std::string_view a : info.arrays) args += (args.empty() ? "" : ", ") + std::string(a);
  if (!info.count.empty()) args += ", " + std::string(info.count);
  return fmt::format("{}({})", info.name, args);
}

bool is_format_call(const Call& c) { return find_sparse_format(c.name.value) || c.args.size() >= 2; }

/// `index = i32`: the index arrays' element type; anything but i32 is C716 (MSKB passes `const int*`).
Spanned<DType> lower_index(const Arg& arg, DiagEngine& diags) {
  const std::string* name = as_name(*arg.value);
  if (!name) {
    diags.report(RuleId::C716, arg.value->span, "`index` takes the index arrays' element type",
                 "write `index = i32`");
    throw LowerError{};
  }
  DType t = expect_dtype(*name, arg.value->span, diags);
  if (t != DType::i32) {
    Diagnostic& d = diags.report(
        RuleId::C716, arg.value->span,
        fmt::format("the index arrays are `{}`; a `sparse` kernel reads i32 indices (`const int*`)", *name),
        "write `index = i32`, or leave `index` out (i32 is the default)");
    d.hint->edit = Edit{arg.value->span, "i32"};
    d.hint->applicability = Applicability::machine_applicable;
    throw LowerError{};
  }
  return {t, arg.value->span};
}

/// The format call `c` as a SparseSpec of input `input`.
SparseSpec lower_format(const Call& c, size_t input, DiagEngine& diags) {
  std::optional<SparseFormat> f = find_sparse_format(c.name.value);
  if (!f)
    unknown_name(RuleId::C715, "sparse format", c.name.value, c.name.span, sparse_format_names(), diags);
  const SparseFormatInfo& info = sparse_format_info(*f);
  SparseSpec s;
  s.matrix = input;
  s.format = {*f, c.name.span};
  s.span = c.span;
  s.index = {DType::i32, Span::implied_at(c.span)};
  std::vector<const Arg*> names;
  for (const Arg& a : c.args) {
    if (a.kind == Arg::Kind::keyword && a.key.value == "index") {
      s.index = lower_index(a, diags);
      continue;
    }
    if (a.kind != Arg::Kind::positional || !as_name(*a.value)) {
      diags.report(RuleId::C715, a.span,
                   fmt::format("`{}` takes the names of the caller's arrays{} (and `index = i32`)", info.name,
                               info.count.empty() ? "" : " and of its count"),
                   fmt::format("write `{}`", format_usage(*f)));
      throw LowerError{};
    }
    names.push_back(&a);
  }
  const size_t want = info.arrays.size() + (info.count.empty() ? 0 : 1);
  if (names.size() != want) {
    diags.report(RuleId::C715, c.span,
                 fmt::format("`{}` takes {} names, not {}: {}", info.name, want, names.size(),
                             info.count.empty() ? "its arrays" : "its arrays, then the extent of its count"),
                 fmt::format("write `{}`, each named as the caller names it", format_usage(*f)));
    throw LowerError{};
  }
  std::vector<std::pair<std::string, Span>> seen;
  for (size_t k = 0; k < names.size(); ++k) {
    Spanned<std::string> name{*as_name(*names[k]->value), names[k]->value->span};
    note_unique(seen, name.value, name.span,
                fmt::format("`{}` names two of the format's arguments", name.value), diags);
    if (k < info.arrays.size())
      s.arrays.push_back(name);
    else
      s.count = name;
  }
  return s;
}

}  // namespace

void take_sparse_format(Arg& decl, size_t input, MemOpConfig& m, DiagEngine& diags) {
  if (m.op.value != OpKind::sparse) return;
  auto& type = std::get<TensorType>(decl.value->node);
  auto it = std::find_if(type.modifiers.begin(), type.modifiers.end(), is_format_call);
  if (it == type.modifiers.end()) return;
  const Span first = m.sparse ? m.sparse->span : Span{};
  if (m.sparse || std::find_if(std::next(it), type.modifiers.end(), is_format_call) != type.modifiers.end()) {
    const Call& second = m.sparse ? *it : *std::find_if(std::next(it), type.modifiers.end(), is_format_call);
    Diagnostic& d = diags.report(RuleId::C715, second.span,
                                 "a `sparse` kernel multiplies one sparse matrix, and it has one format",
                                 "declare the other operand dense (no format), or keep one format");
    d.notes.push_back(Label{m.sparse ? first : it->span, "the format given first"});
    throw LowerError{};
  }
  m.sparse = lower_format(*it, input, diags);
  type.modifiers.erase(it);
}

void require_sparse_format(const Call& op, const MemOpConfig& m, DiagEngine& diags) {
  if (m.op.value != OpKind::sparse || m.sparse) return;
  diags.report(RuleId::C715, op.span, "`sparse` needs a sparse matrix: an input declared with its format",
               "add the format to the matrix's declaration: `A: f32[rows, cols] csr(values, col_indices, "
               "row_offsets)` (formats: csr, coo, csc, ell)");
  throw LowerError{};
}

}  // namespace ucut
