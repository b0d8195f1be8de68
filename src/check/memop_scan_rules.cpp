// check/memop_scan_rules.cpp — C708 scan-shape: what a `scan` (ir/memop.h ScanSpec) needs to be emitted: it stores
// one value per element of its first input (the same extents), runs along contiguous rows (a row-major first
// input), keeps its running value in f32, reads its inputs in `of` (and only there: the chain after it sees the
// scanned value and the scalars). An unknown or missing `op`, or a flag other than true or false, is C708 too,
// reported by the lowering (ir/lower_memop.cpp). Golden: tests/golden/check/C708.ucut.
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {

void check_scan(const MemOpConfig& m, DiagEngine& diags) {
  const ScanSpec& s = *m.scan;
  const TensorDecl& in = m.input();
  const TensorDecl& out = m.output();
  if (!same_extents(in, out)) {
    Diagnostic& d = diags.report(
        RuleId::C708, out.span,
        fmt::format("`{}` is [{}], but a `scan` stores one value per element of its first input `{}` [{}]",
                    out.name.value, show_dims(out), in.name.value, show_dims(in)),
        fmt::format("declare `{}: {}[{}]`", out.name.value, dtype_name(out.dtype.value), show_dims(in)));
    d.notes.push_back(Label{in.span, "the first input"});
  }
  if (in.dims.size() >= 2 && in.layout.value != Layout::row)
    diags.report(RuleId::C708, in.layout.span,
                 fmt::format("`{}` is `{}`, but a `scan` runs along rows of the last extent, contiguous in "
                             "memory",
                             in.name.value, layout_name(in.layout.value)),
                 fmt::format("declare `{}` `row` (and the output too)", in.name.value));
  if (s.acc.value != DType::f32)
    diags.report(RuleId::C708, s.acc.span.implied ? m.op.span : s.acc.span,
                 fmt::format("`scan` keeps its running value in f32, not `{}`: a 16-bit running sum stops "
                             "growing once it is a few hundred times its terms",
                             dtype_name(s.acc.value)),
                 "write `acc: f32`");
  if (s.of && !reads_an_input(*s.of, m.inputs.size()))
    diags.report(
        RuleId::C708, s.of_span,
        fmt::format("`of = {}` reads none of the inputs, so every element gives the same value", s.of->text),
        fmt::format("read an input in `of`, e.g. `of = {} * {}`", in.name.value, in.name.value));
  for (const EpiOp& op : m.chain)
    if (op.expr && reads_a_tensor(*op.expr, m.inputs.size()))
      diags.report(RuleId::C708, op.span,
                   fmt::format("`expr({})` follows the scan, which reads the inputs only in `of`", op.expr->text),
                   "read the inputs in `of = ...`; after the scan an `expr` reads `x` (the scanned value) and "
                   "the scalars");
}

}  // namespace ucut::rules
