// check/memop_reduce_rules.cpp — C705 reduce-axes: what a full `reduce` (ir/memop.h ReduceSpec) needs to be
// emitted: it stores one value, accumulates in f32 (16-bit data summed in their own type lose the sum within
// a few thousand elements), reads its inputs in `of` (and only there: the chain after the reduction sees the
// one reduced value, the scalars and the sizes), and weighs by index only what it sums. An unknown or missing
// `op` or `weights` is C705 too, reported by the lowering (ir/lower_memop.cpp). C706 reduce-over: a per-axis
// `reduce` (`over = ...`) names extents of its first input, adjacent and in row-major order, unweighted, and
// stores the extents it keeps. Goldens: tests/golden/check/C705.ucut, C706.ucut.
#include <fmt/format.h>

#include "check/check.h"
#include "support/suggest.h"

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

namespace {

/// C706: every `over` symbol is an extent of the first input (did you mean one); the reduced extents are one
/// run of a row-major input, unweighted; the output has the kept extents, in order ([1] when none is kept).
void check_over(const MemOpConfig& m, DiagEngine& diags) {
  const ReduceSpec& r = *m.reduce;
  const TensorDecl& in = m.input();
  std::vector<std::string_view> symbols;
  for (const Extent& e : in.dims)
    if (!e.fixed()) symbols.push_back(e.symbol);
  bool known = true;
  for (const Spanned<std::string>& s : r.over) {
    if (std::find(symbols.begin(), symbols.end(), s.value) != symbols.end()) continue;
    known = false;
    std::optional<std::string> near = did_you_mean(s.value, symbols);
    Diagnostic& d = diags.report(
        RuleId::C706, s.span,
        fmt::format("`{}` is no extent of the first input `{}` [{}]", s.value, in.name.value, show_dims(in)),
        near ? *near : fmt::format("name extents of `{}` in `over`: {}", in.name.value, quoted_list(symbols)));
    if (std::optional<std::string> name = closest_name(s.value, symbols)) {
      d.hint->edit = Edit{s.span, *name};
      d.hint->applicability = Applicability::maybe_incorrect;
    }
    d.notes.push_back(Label{in.span, "the first input"});
  }
  if (!known) return;
  const ReduceAxes axes = reduce_axes(m);
  if (in.dims.size() >= 2 && in.layout.value == Layout::col)
    diags.report(RuleId::C706, in.layout.span.implied ? in.span : in.layout.span,
                 fmt::format("`over` reduces extents of a row-major first input, and `{}` is `col`",
                             in.name.value),
                 fmt::format("declare `{}` `row` with its extents in memory order, slowest first",
                             in.name.value));
  else if (!axes.adjacent())
    diags.report(RuleId::C706, r.over_span,
                 fmt::format("the reduced extents of `{}` are not adjacent: a per-axis `reduce` combines one run "
                             "of extents",
                             in.name.value),
                 "reduce the extents of one run per kernel, or name adjacent ones");
  if (is_arg_op(r.op.value)) {
    const TensorDecl& out = m.output();
    if (out.dtype.value != DType::i32)
      diags.report(RuleId::C706, out.dtype.span,
                   fmt::format("`op = {}` stores an index along `over`, and `{}` is `{}`",
                               reduce_op_name(r.op.value), out.name.value, dtype_name(out.dtype.value)),
                   fmt::format("declare `{}` as i32", out.name.value));
    for (const EpiOp& op : m.chain)
      if (op.kind != EpiKind::store)
        diags.report(RuleId::C706, op.span,
                     fmt::format("`op = {}` stores an index, which no stage after it transforms",
                                 reduce_op_name(r.op.value)),
                     fmt::format("remove `{}`, or reduce by a value (`op = max`)", epi_info(op.kind).name));
  }
  if (r.weights.value != ReduceWeights::none)
    diags.report(RuleId::C706, r.weights.span,
                 fmt::format("`weights = {}` weighs the elements of a full reduction, not of each row",
                             reduce_weights_name(r.weights.value)),
                 "remove `weights`, or `over`");
  const TensorDecl& out = m.output();
  std::vector<const Extent*> kept;
  for (size_t d : axes.kept) kept.push_back(&in.dims[d]);
  bool same = kept.empty() ? out.dims.size() == 1 && out.dims[0].fixed() && out.dims[0].size == 1
                           : out.dims.size() == kept.size();
  for (size_t d = 0; same && !kept.empty() && d < kept.size(); ++d)
    same = out.dims[d].symbol == kept[d]->symbol && out.dims[d].size == kept[d]->size;
  if (same) return;
  std::string expected;
  for (const Extent* e : kept) expected += (expected.empty() ? "" : ",") + show_extent(*e);
  if (expected.empty()) expected = "1";
  Diagnostic& d = diags.report(
      RuleId::C706, out.span,
      fmt::format("`reduce` keeps the extents of `{}` that `over` does not name, so `{}` is [{}]",
                  in.name.value, out.name.value, expected),
      fmt::format("declare `{}: {}[{}]`", out.name.value, dtype_name(out.dtype.value), expected));
  d.notes.push_back(Label{r.over_span, "the reduced extents"});
}

}  // namespace

void check_reduce(const MemOpConfig& m, DiagEngine& diags) {
  const ReduceSpec& r = *m.reduce;
  const TensorDecl& out = m.output();
  if (!r.over.empty()) check_over(m, diags);
  if (is_arg_op(r.op.value) && (r.over.empty() || reduce_axes(m).kept.empty()))
    diags.report(RuleId::C706, r.op.span,
                 fmt::format("`op = {}` is an index along `over`, and this `reduce` keeps no extent",
                             reduce_op_name(r.op.value)),
                 "name the extents to reduce in `over`, e.g. `over = N` of `X: f32[M,N]`, or write `op = max`");
  bool one_value = true;
  for (const Extent& e : out.dims) one_value = one_value && e.fixed() && e.size == 1;
  if (!one_value && r.over.empty())
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
  if (r.weights.value != ReduceWeights::none && r.op.value != ReduceOp::sum && r.op.value != ReduceOp::mean &&
      r.over.empty())
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
