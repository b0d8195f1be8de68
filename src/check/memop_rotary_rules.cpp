// check/memop_rotary_rules.cpp — C725: what a rotary map (`map(..., rotary = base)`, ir/memop.h) needs. Its kernel
// reads each element's pair partner beside it in the same vector (elements 2p and 2p + 1 of a row) and the
// element's row from its flat index, so the first input is the kernel's domain itself: dense, row-major, of the
// output's extents (no slice, reverse, broadcast or transposing store), of rank 2 or more with an even last extent;
// vectors hold whole pairs (an even element count); the base is positive. Golden: tests/golden/check/C725.ucut.
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {

void check_rotary(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl& in = m.input();
  const TensorDecl& out = m.output();
  const Span at = m.rotary->span;
  auto report = [&](Span where, std::string why, std::string fix) {
    Diagnostic& d = diags.report(RuleId::C725, where, std::move(why), std::move(fix));
    if (where.begin != at.begin) d.notes.push_back(Label{at, "the rotation"});
  };
  if (in.dims.size() < 2)
    report(in.span,
           fmt::format("`{}` is [{}]; a rotation turns pairs along the last extent by the row's position along the "
                       "one before it",
                       in.name.value, show_dims(in)),
           fmt::format("declare `{}` with a position extent: `{}: {}[M, D]`", in.name.value, in.name.value,
                       dtype_name(in.dtype.value)));
  else if (in.layout.value != Layout::row || out.layout.value != Layout::row)
    report(in.layout.value != Layout::row ? in.layout.span : out.layout.span,
           "a rotation reads and writes row-major tensors: each pair lies side by side in a row",
           "drop `col`");
  else if (!same_extents(in, out))
    report(out.span,
           fmt::format("`{}` is [{}] but the rotated `{}` is [{}]: a rotation keeps its input's extents",
                       out.name.value, show_dims(out), in.name.value, show_dims(in)),
           fmt::format("declare `{}: {}[{}]`", out.name.value, dtype_name(out.dtype.value), show_dims(in)));
  else if (m.slice_of(0) || m.reversed_of(0))
    report(in.span, fmt::format("`{}` is a view; a rotation reads the caller's tensor itself", in.name.value),
           "pass the tensor itself (drop `slice(...)` or `reverse(...)`)");
  else if (const Extent& d = in.dims.back(); d.fixed() && d.size % 2 != 0)
    report(d.span, fmt::format("the rows of `{}` hold {} values; a rotation turns them in pairs", in.name.value, d.size),
           "give the rows an even number of values");
  if (m.tune.vector.value % 2 != 0)
    report(m.tune.vector.span,
           fmt::format("vectors of {} element{} split the pairs a rotation turns together", m.tune.vector.value,
                       m.tune.vector.value == 1 ? "" : "s"),
           "use an even vector width: `.with_vector(2)` or more");
  if (m.rotary->scalar.empty() && !(m.rotary->value > 0))
    report(at, fmt::format("`rotary = {}`: the base of the angles is a positive number", m.rotary->value),
           "write `rotary = 10000`");
}

}  // namespace ucut::rules
