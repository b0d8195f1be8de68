// check/memop_sparse_rules.cpp — what a `sparse` kernel (ir/memop_sparse.h) needs to be emitted: its operands
// are the matrix A [ROWS, COLS] and one dense x [COLS] or row-major X [COLS, K] (C717); it stores [ROWS] or
// row-major [ROWS, K] (C718); its launch knobs are those its kernels take, and its chain reads the product
// and the scalars, no tensor (C719). A format's spelling and arguments (C715) and the index type (C716) are
// the lowering's (ir/lower_memop_sparse.cpp). Goldens: tests/golden/check/C715.ucut ... C719.ucut.
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {
namespace {

/// Where the kernel's `slice(...)` and `reverse(...)` views are written.
std::vector<Span> views(const MemOpConfig& m) {
  std::vector<Span> out;
  for (const ColumnSlice& s : m.slices) out.push_back(s.span);
  for (const ReversedView& r : m.reversed) out.push_back(r.span);
  return out;
}

/// C717: two tensors, no views, A of two extents and x [COLS] or X [COLS, K] row-major; false when they are not.
bool check_operands(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl& a = m.inputs[m.sparse->matrix];
  const std::string usage =
      fmt::format("`x: {}[{}]` (SpMV) or `X: {}[{}, K]` (SpMM)", dtype_name(a.dtype.value),
                  a.dims.size() == 2 ? show_extent(a.dims[1]) : "cols", dtype_name(a.dtype.value),
                  a.dims.size() == 2 ? show_extent(a.dims[1]) : "cols");
  bool ok = true;
  if (a.dims.size() != 2) {
    diags.report(RuleId::C717, a.span,
                 fmt::format("the sparse matrix `{}` is [{}]; a matrix has two extents, [ROWS, COLS]",
                             a.name.value, show_dims(a)),
                 fmt::format("declare `{}: {}[rows, cols] ...`", a.name.value, dtype_name(a.dtype.value)));
    ok = false;
  }
  if (m.inputs.size() != 2) {
    diags.report(RuleId::C717, m.inputs.size() < 2 ? m.op.span : m.inputs[2].span,
                 fmt::format("a `sparse` kernel multiplies `{}` by one dense tensor; it has {}", a.name.value,
                             m.inputs.size() - 1),
                 m.inputs.size() < 2
                     ? fmt::format("add the dense operand: {}", usage)
                     : std::string("remove the other tensors (the chain reads run-time scalars)"));
    return false;
  }
  for (const Span& view : views(m)) {
    diags.report(RuleId::C717, view,
                 "a `sparse` kernel reads its operands whole: no `slice(...)` or `reverse(...)` view",
                 "declare the tensor the caller passes, without the view");
    ok = false;
  }
  if (!ok) return false;
  const TensorDecl& x = m.inputs[sparse_dense_input(m)];
  if (x.dims.empty() || x.dims.size() > 2) {
    diags.report(RuleId::C717, x.span,
                 fmt::format("`{}` is [{}]; the dense operand is a vector [COLS] or a matrix [COLS, K]",
                             x.name.value, show_dims(x)),
                 fmt::format("declare {}", usage));
    return false;
  }
  if (!same_extent(x.dims[0], a.dims[1])) {
    Diagnostic& d = diags.report(
        RuleId::C717, x.dims[0].span,
        fmt::format(
            "`{}`'s first extent `{}` is not `{}`'s columns `{}`: A·{} pairs each column with a row of {}",
            x.name.value, show_extent(x.dims[0]), a.name.value, show_extent(a.dims[1]), x.name.value, x.name.value),
        fmt::format("write `{}` for `{}`'s first extent", show_extent(a.dims[1]), x.name.value));
    d.notes.push_back(Label{a.dims[1].span, "the matrix's columns"});
    ok = false;
  }
  if (x.dims.size() == 2 && x.layout.value != Layout::row) {
    diags.report(RuleId::C717, x.layout.span,
                 fmt::format("`{}` is `{}`; a `sparse` kernel reads X row-major, a row per column of A",
                             x.name.value, layout_name(x.layout.value)),
                 fmt::format("declare `{}` `row` (the default)", x.name.value));
    ok = false;
  }
  return ok;
}

/// C718: y [ROWS] for x [COLS], Y [ROWS, K] row-major for X [COLS, K].
void check_output(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl& a = m.inputs[m.sparse->matrix];
  const TensorDecl& x = m.inputs[sparse_dense_input(m)];
  const TensorDecl& out = m.output();
  const bool spmm = x.dims.size() == 2;
  const std::string want = spmm ? fmt::format("{}, {}", show_extent(a.dims[0]), show_extent(x.dims[1])) : show_extent(a.dims[0]);
  bool same = out.dims.size() == x.dims.size() && same_extent(out.dims[0], a.dims[0]) &&
              (!spmm || same_extent(out.dims[1], x.dims[1]));
  if (!same) {
    Diagnostic& d = diags.report(
        RuleId::C718, out.span,
        fmt::format("`{}` is [{}], but A·{} is [{}]: one {} per row of `{}`", out.name.value, show_dims(out),
                    x.name.value, want, spmm ? "row of K values" : "value", a.name.value),
        fmt::format("declare `{}: {}[{}]`", out.name.value, dtype_name(out.dtype.value), want));
    d.notes.push_back(Label{a.span, "the matrix"});
  }
  if (out.dims.size() == 2 && out.layout.value != Layout::row)
    diags.report(RuleId::C718, out.layout.span,
                 fmt::format("`{}` is `{}`; a `sparse` kernel stores Y row-major", out.name.value,
                             layout_name(out.layout.value)),
                 fmt::format("declare `{}` `row` (the default)", out.name.value));
}

/// C719: lanes per row (csr, ell SpMV) a power of two up to a warp; vectors only for SpMM's rows of X; no
/// `.with_items` or
/// `.with_grid`; a chain that reads no tensor.
void check_launch_and_chain(const MemOpConfig& m, DiagEngine& diags) {
  const MemTunables& t = m.tune;
  const int r = t.rows.value;
  if (r != kMemAutoRows && (r > 32 || (r & (r - 1)) != 0)) {
    int fixed = 1;
    while (fixed * 2 <= std::min(r, 32)) fixed *= 2;
    Diagnostic& d = diags.report(
        RuleId::C719, t.rows.span,
        fmt::format("{} lanes per row; a row's lanes are a power of two up to a warp (1, 2, 4, 8, 16, 32)",
                    r),
        fmt::format("write `{}`, or `auto` (picked at run time from the entries per row)", fixed));
    d.hint->edit = Edit{t.rows.span, std::to_string(fixed)};
    d.hint->applicability = Applicability::machine_applicable;
  }
  auto refuse = [&](const Span& at, std::string_view knob, std::string why) {
    if (at.implied) return;
    diags.report(RuleId::C719, at, fmt::format("`.{}` {}", knob, why), fmt::format("remove `.{}`", knob));
  };
  const bool by_rows =
      m.sparse->format.value == SparseFormat::csr || m.sparse->format.value == SparseFormat::ell;
  if (sparse_is_spmm(m) || !by_rows)
    refuse(t.rows.span, "with_rows",
           "sets the lanes per row of a csr or ell SpMV; an SpMM runs a warp per row (K across its lanes), "
           "and coo "
           "and csc scatter their entries");
  if (!sparse_is_spmm(m))
    refuse(t.vector.span, "with_vector",
           "sets the vector of X's and Y's rows in SpMM; an SpMV reads x one element at a time");
  refuse(t.items.span, "with_items",
         "sets a map's vectors per thread; a `sparse` kernel walks rows of entries");
  refuse(t.grid.span, "with_grid", "sets a map's grid; a `sparse` kernel launches a lane group per row");
  for (const EpiOp& op : m.chain)
    if (op.expr && reads_a_tensor(*op.expr, m.inputs.size()))
      diags.report(
          RuleId::C719, op.span,
          fmt::format("`expr({})` reads a tensor; after the product the chain reads `x` (one element of "
                      "A·x) and the run-time scalars",
                      op.expr->text),
          "read run-time scalars only, e.g. `alpha: f32` and `expr(x * alpha)`");
}

}  // namespace

bool check_sparse(const MemOpConfig& m, DiagEngine& diags) {
  if (!check_operands(m, diags)) return false;
  check_output(m, diags);
  check_launch_and_chain(m, diags);
  return true;
}

}  // namespace ucut::rules
