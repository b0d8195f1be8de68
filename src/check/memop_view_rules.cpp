// check/memop_view_rules.cpp — C709 layout-view: what a family kernel's reversed inputs (ir/memop.h ReversedView,
// `r: f32[N] reverse(input)`) and a transposing map (MemOpConfig::transposes: the output in the other layout) need
// to be emitted. A reversed input is a whole row-major tensor of the kernel's extents (no broadcast, no slice: it
// reads each row backwards), of a map or a scan (a full reduce's order is none; a rownorm has no reversed reader);
// a transposing map's output has its first input's extents, and every input of two extents or more its first
// input's layout (the kernel reads them in tiles of that layout). Golden: tests/golden/check/C709.ucut.
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {
namespace {

void check_reversed(const MemOpConfig& m, const ReversedView& r, DiagEngine& diags) {
  const TensorDecl& in = m.inputs[r.input];
  const TensorDecl& domain = m.domain();
  if (m.reduce) {
    diags.report(RuleId::C709, r.span,
                 fmt::format("a full `reduce` combines every element of `{}` in one value, whatever their order",
                             r.of.value),
                 fmt::format("declare `{}: {}[...]` itself", r.of.value, dtype_name(in.dtype.value)));
  } else if (m.norm) {
    diags.report(RuleId::C709, r.span, "a `rownorm` reads no reversed input (its kernel has no reversed reader)",
                 fmt::format("reverse `{}` in a `map` of its own first", r.of.value));
  } else if (m.slice_of(r.input)) {
    diags.report(RuleId::C709, r.span,
                 fmt::format("`{}` is both a slice and a reversed view; a reversed input reads a whole tensor",
                             in.name.value),
                 "remove `slice(...)` or `reverse(...)`");
  } else if (!same_extents(in, domain)) {
    Diagnostic& d = diags.report(
        RuleId::C709, r.span,
        fmt::format("`{}` is [{}] and reads `{}` backwards along the rows of `{}` [{}]: a reversed input has "
                    "those extents",
                    in.name.value, show_dims(in), r.of.value, domain.name.value, show_dims(domain)),
        fmt::format("declare `{}: {}[{}] reverse({})`", in.name.value, dtype_name(in.dtype.value),
                    show_dims(domain), r.of.value));
    d.notes.push_back(Label{domain.span, "the extents it reverses along"});
  } else if (in.dims.size() >= 2 && (in.layout.value != Layout::row || domain.layout.value != Layout::row)) {
    const TensorDecl& col = in.layout.value != Layout::row ? in : domain;
    diags.report(RuleId::C709, col.layout.span.implied ? col.span : col.layout.span,
                 fmt::format("`{}` is `{}`; `reverse` reads rows of the last extent, contiguous in memory",
                             col.name.value, layout_name(col.layout.value)),
                 fmt::format("declare `{}` `row`", col.name.value));
  }
}

void check_transpose(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl& first = m.input();
  const TensorDecl& out = m.output();
  if (!same_extents(first, out)) {
    Diagnostic& d = diags.report(
        RuleId::C709, out.span,
        fmt::format("`{}` [{}] is `{}` and `{}` [{}] is `{}`: a map that changes the layout transposes, so the "
                    "output has the input's extents",
                    out.name.value, show_dims(out), layout_name(out.layout.value), first.name.value,
                    show_dims(first), layout_name(first.layout.value)),
        fmt::format("declare `{}: {}[{}] {}` (Bᵀ of A [M,N] row-major is B [M,N] `col`)", out.name.value,
                    dtype_name(out.dtype.value), show_dims(first), layout_name(out.layout.value)));
    d.notes.push_back(Label{first.span, "the first input"});
  }
  for (const TensorDecl& in : m.inputs) {
    if (in.dims.size() < 2 || in.layout.value == first.layout.value) continue;
    Diagnostic& d = diags.report(
        RuleId::C709, in.layout.span.implied ? in.span : in.layout.span,
        fmt::format("`{}` is `{}` but the first input `{}` is `{}`: a transposing map reads its inputs in tiles "
                    "of one layout",
                    in.name.value, layout_name(in.layout.value), first.name.value,
                    layout_name(first.layout.value)),
        fmt::format("declare `{}` `{}`", in.name.value, layout_name(first.layout.value)));
    d.notes.push_back(Label{first.span, "the first input"});
  }
}

}  // namespace

void check_views(const MemOpConfig& m, DiagEngine& diags) {
  for (const ReversedView& r : m.reversed) check_reversed(m, r, diags);
  if (m.transposes()) check_transpose(m, diags);
}

}  // namespace ucut::rules
