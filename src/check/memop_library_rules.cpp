// check/memop_library_rules.cpp — what a library call (ir/memop_library.h: sort, topk, fft) needs to be
// emitted: the operands of its own count and extents (C721), a topk's `k` the extent of its outputs (C722),
// f32 or bf16 values of one type and i32 indices (C723), and nothing beside the call (C724: no chain stage,
// scalar, view or launch knob). Its keywords are C720, reported by the lowering (ir/lower_memop_library.cpp),
// as are stages other than the store (C724). The target is C701's (memop_rules.cpp). Goldens:
// tests/golden/check/C720.ucut ... C724.ucut.
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {
namespace {

/// C724: a run-time scalar, a view or a launch knob.
void check_extras(const MemOpConfig& m, DiagEngine& diags) {
  const std::string_view op = op_name(m.op.value);
  for (const ScalarDecl& s : m.scalars)
    diags.report(
        RuleId::C724, s.span,
        fmt::format("`{}` is a library call with no run-time scalar, but `{}` is one", op, s.name.value),
        fmt::format("remove `{}`", s.name.value));
  for (const ColumnSlice& s : m.slices)
    diags.report(RuleId::C724, s.span, fmt::format("`{}` reads whole tensors, not a column block", op),
                 "remove `slice(...)` and pass the tensor itself");
  for (const ReversedView& r : m.reversed)
    diags.report(RuleId::C724, r.span, fmt::format("`{}` reads whole tensors, not a reversed view", op),
                 "remove `reverse(...)` and pass the tensor itself");
  for (const Span& knob :
       {m.tune.vector.span, m.tune.block.span, m.tune.items.span, m.tune.grid.span, m.tune.rows.span})
    if (!knob.implied)
      diags.report(RuleId::C724, knob,
                   fmt::format("`{}` hands its work to {}, which picks its own launch", op, library_name(m)),
                   "remove the `.with_*` call");
}

/// C721: a tensor of the wrong rank or extents, or the wrong number of them.
bool check_shape(const MemOpConfig& m, DiagEngine& diags) {
  const OpKind op = m.op.value;
  const LibrarySpec& l = *m.library;
  const size_t want_inputs = op == OpKind::fft ? 2 : 1;
  const size_t want_outputs = op == OpKind::sort ? 1 : 2;
  bool ok = true;
  auto report = [&](Span at, std::string why) {
    diags.report(RuleId::C721, at, std::move(why), fmt::format("write `{}`", library_usage(op)));
    ok = false;
  };
  if (m.inputs.size() != want_inputs)
    report(m.op.span, fmt::format("`{}` reads {} input tensor{}, not {}", op_name(op), want_inputs,
                                  want_inputs == 1 ? "" : "s", m.inputs.size()));
  if (l.outputs.size() != want_outputs)
    report(m.chain.front().span, fmt::format("`{}` stores {} tensor{}, not {}", op_name(op), want_outputs,
                                             want_outputs == 1 ? "" : "s", l.outputs.size()));
  std::vector<const TensorDecl*> tensors;
  for (const TensorDecl& t : m.inputs) tensors.push_back(&t);
  if (!l.in_place)
    for (const TensorDecl& t : l.outputs) tensors.push_back(&t);
  for (const TensorDecl* t : tensors)
    if (t->dims.size() != 1)
      report(t->span, fmt::format("`{}` is [{}]; `{}` works on vectors, one extent each", t->name.value,
                                  show_dims(*t), op_name(op)));
  if (!ok) return false;
  // Every tensor but a topk's outputs has the first input's extent.
  const TensorDecl& in = m.input();
  for (const TensorDecl* t : tensors)
    if (op != OpKind::topk || t == &in)
      if (!same_extents(*t, in)) {
        Diagnostic& d = diags.report(
            RuleId::C721, t->span,
            fmt::format("`{}` is [{}], but `{}` keeps the extent of its first input `{}` [{}]", t->name.value,
                        show_dims(*t), op_name(op), in.name.value, show_dims(in)),
            fmt::format("declare `{}: {}[{}]`", t->name.value, dtype_name(t->dtype.value), show_dims(in)));
        d.notes.push_back(Label{in.span, "the first input"});
        ok = false;
      }
  return ok;
}

/// C722: a topk's outputs are [k], and k is not the input's extent.
void check_k(const MemOpConfig& m, DiagEngine& diags) {
  const LibrarySpec& l = *m.library;
  const TensorDecl& in = m.input();
  if (in.dims.front().symbol == l.k.value) {
    diags.report(RuleId::C722, l.k.span,
                 fmt::format("`k = {}` names the extent of the input `{}`, so it keeps every value (a sort)",
                             l.k.value, in.name.value),
                 "name the outputs' own extent: `k = k` with `top_k_values: f32[k]`");
    return;
  }
  for (const TensorDecl& t : l.outputs)
    if (t.dims.front().symbol != l.k.value)
      diags.report(RuleId::C722, t.dims.front().span,
                   fmt::format("`{}` is [{}], but `topk` stores `k = {}` values", t.name.value, show_dims(t),
                               l.k.value),
                   fmt::format("declare `{}: {}[{}]`", t.name.value, dtype_name(t.dtype.value), l.k.value));
}

/// C723: the values (inputs, and every output but a topk's indices) are f32 or bf16, all of one type; a
/// topk's indices are i32. Types C701 refuses are its own.
void check_dtypes(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl& in = m.input();
  const DType want = in.dtype.value;
  if (want == DType::f16 || want == DType::i32)  // C701 reads these in other families
    diags.report(RuleId::C723, in.dtype.span,
                 fmt::format("`{}` is `{}`; `{}` calls {} on f32 or bf16 values", in.name.value,
                             dtype_name(want), op_name(m.op.value), library_name(m)),
                 fmt::format("declare `{}` as f32 or bf16", in.name.value));
  std::vector<const TensorDecl*> values;
  for (size_t i = 1; i < m.inputs.size(); ++i) values.push_back(&m.inputs[i]);
  const LibrarySpec& l = *m.library;
  for (size_t o = 0; o < l.outputs.size() && !l.in_place; ++o) {
    const TensorDecl& t = l.outputs[o];
    if (m.op.value == OpKind::topk && o == 1) {
      if (t.dtype.value != DType::i32)
        diags.report(RuleId::C723, t.dtype.span,
                     fmt::format("`{}` holds the indices of the values kept, so it is i32, not `{}`",
                                 t.name.value, dtype_name(t.dtype.value)),
                     fmt::format("declare `{}: i32[{}]`", t.name.value, show_dims(t)));
      continue;
    }
    values.push_back(&t);
  }
  for (const TensorDecl* t : values)
    if (t->dtype.value != want)
      diags.report(RuleId::C723, t->dtype.span,
                   fmt::format("`{}` is `{}` but `{}` is `{}`: a library call keeps its values' type",
                               t->name.value, dtype_name(t->dtype.value), in.name.value, dtype_name(want)),
                   fmt::format("declare `{}` as `{}`", t->name.value, dtype_name(want)));
}

/// C411: the outputs' names are their own (a sort's store may name its input: it sorts in place).
void check_names(const MemOpConfig& m, DiagEngine& diags) {
  std::vector<std::pair<std::string, Span>> names;
  if (m.op.value != OpKind::sort)
    for (const TensorDecl& t : m.inputs) names.emplace_back(t.name.value, t.name.span);
  for (const TensorDecl& t : m.library->outputs) {
    for (const auto& [name, first] : names) {
      if (name != t.name.value) continue;
      Diagnostic& d =
          diags.report(RuleId::C411, t.name.span, fmt::format("tensor name `{}` is already used", name),
                       "give each tensor its own name");
      d.notes.push_back(Label{first, "first used here"});
      break;
    }
    names.emplace_back(t.name.value, t.name.span);
  }
}

}  // namespace

void check_library(const MemOpConfig& m, DiagEngine& diags) {
  check_extras(m, diags);
  if (!check_shape(m, diags)) return;
  if (m.op.value == OpKind::topk) check_k(m, diags);
  check_dtypes(m, diags);
  check_names(m, diags);
}

}  // namespace ucut::rules
