// check/memop_reduce_rules.cpp — C705 reduce-axes: what a full `reduce` (ir/memop.h ReduceSpec) needs to be
// emitted: it stores one value, accumulates in f32 (16-bit data summed in their own type lose the sum within
// a few thousand elements), reads its inputs in `of` (and only there: the chain after the reduction sees the
// one reduced value, the scalars and the sizes), and weighs by index only what it sums. An unknown or missing
// `op` or `weights` is C705 too, reported by the lowering (ir/lower_memop.cpp). Golden:
// tests/golden/check/C705.ucut.
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {

/// Whether `e` reads one of the kernel's input tensors (operands [0, inputs)); `x` is the first.
bool reads_an_input(const EpiExpr& e, size_t inputs) {
  for (const ExprOp& op : e.postfix)
    if (op.code == ExprCode::x || (op.code == ExprCode::load && static_cast<size_t>(op.value) < inputs))
      return true;
  return false;
}

bool reads_a_tensor(const EpiExpr& e, size_t inputs) {
  for (const ExprOp& op : e.postfix)
    if (op.code == ExprCode::load && static_cast<size_t>(op.value) < inputs) return true;
  return false;
}

void check_reduce(const MemOpConfig& m, DiagEngine& diags) {
  const ReduceSpec& r = *m.reduce;
  const TensorDecl& out = m.output();
  bool one_value = true;
  for (const Extent& e : out.dims) one_value = one_value && e.fixed() && e.size == 1;
  if (!one_value)
    diags.report(RuleId::C705, out.span,
                 fmt::format("`{}` has {} extent{}, but a full `reduce` stores one value", out.name.value,
                             out.dims.size(), out.dims.size() == 1 ? "" : "s"),
                 fmt::format("declare `{}: {}[1]`", out.name.value, dtype_name(out.dtype.value)));
  if (r.acc.value != DType::f32)
    diags.report(RuleId::C705, r.acc.span.implied ? m.op.span : r.acc.span,
                 fmt::format("`reduce` accumulates in f32, not `{}`: a 16-bit sum stops growing once it is "
                             "a few hundred times its terms",
                             dtype_name(r.acc.value)),
                 "write `acc: f32`");
  if (r.of && !reads_an_input(*r.of, m.inputs.size()))
    diags.report(
        RuleId::C705, r.of_span,
        fmt::format("`of = {}` reads none of the inputs, so every element gives the same value", r.of->text),
        fmt::format("read an input in `of`, e.g. `of = {} * {}`", m.input().name.value,
                    m.input().name.value));
  if (r.weights.value != ReduceWeights::none && r.op.value != ReduceOp::sum && r.op.value != ReduceOp::mean)
    diags.report(RuleId::C705, r.weights.span,
                 fmt::format("`weights = {}` weighs the values of a sum; `op = {}` does not add them",
                             reduce_weights_name(r.weights.value), reduce_op_name(r.op.value)),
                 "write `op = sum`, or remove `weights`");
  for (const EpiOp& op : m.chain)
    if (op.expr && reads_a_tensor(*op.expr, m.inputs.size()))
      diags.report(RuleId::C705, op.span,
                   fmt::format("`expr({})` follows the reduction, where the inputs have no element to read",
                               op.expr->text),
                   "read the inputs in `of = ...`; after the reduction an `expr` reads `x` (the reduced "
                   "value), the scalars and the sizes");
}

}  // namespace ucut::rules
