// check/memop_library_rules.cpp — what a library call (ir/memop_library.h: sort, topk, fft, attention) needs to
// be emitted: the operands of its own count and extents (C721; an attention's Q [.., M, D], K [.., N, D],
// V [.., N, E] and Y [.., M, E], row-major, D and E whole 16-byte vectors), a topk's `k` the extent of its
// outputs (C722), f32 or bf16 values of one type and i32 indices (C723), and nothing beside the call (C724: no chain stage,
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

/// C721 for an attention: Q [.., M, D], K [.., N, D], V [.., N, E] stored as Y [.., M, E], each of rank 2 to 4
/// with Q's leading extents, row-major; D and E, where they are numbers, hold whole 16-byte vectors (the kernel
/// loads Q, K and V in them).
bool check_attention_shape(const MemOpConfig& m, DiagEngine& diags) {
  const LibrarySpec& l = *m.library;
  bool ok = true;
  auto report = [&](Span at, std::string why, std::string fix) -> Diagnostic& {
    ok = false;
    return diags.report(RuleId::C721, at, std::move(why), std::move(fix));
  };
  const std::string usage = fmt::format("write `{}`", library_usage(OpKind::attention));
  if (m.inputs.size() != 3) {
    report(m.op.span, fmt::format("`attention` reads 3 input tensors (Q, K, V), not {}", m.inputs.size()), usage);
    return false;
  }
  if (l.outputs.size() != 1) {
    report(m.chain.front().span, fmt::format("`attention` stores 1 tensor, not {}", l.outputs.size()), usage);
    return false;
  }
  const TensorDecl &q = m.inputs[0], &k = m.inputs[1], &v = m.inputs[2], &y = l.outputs[0];
  for (const TensorDecl* t : {&q, &k, &v, &y}) {
    if (t->dims.size() < 2 || t->dims.size() > 4)
      report(t->span,
             fmt::format("`{}` is [{}]; an attention's tensors are [rows, features] with up to two leading "
                         "extents (batch, heads)",
                         t->name.value, show_dims(*t)),
             usage);
    else if (t->layout.value != Layout::row)
      report(t->layout.span, fmt::format("`{}` is `{}`; the attention kernel reads and writes row-major tensors",
                                         t->name.value, layout_name(t->layout.value)),
             fmt::format("declare `{}` row-major (drop `{}`)", t->name.value, layout_name(t->layout.value)));
  }
  if (!ok) return false;
  const size_t r = q.dims.size();
  for (const TensorDecl* t : {&k, &v, &y})
    if (t->dims.size() != r)
      report(t->span, fmt::format("`{}` is [{}], of rank {}, but `{}` is [{}], of rank {}", t->name.value,
                                  show_dims(*t), t->dims.size(), q.name.value, show_dims(q), r),
             fmt::format("give `{}` the leading extents of `{}`", t->name.value, q.name.value));
  if (!ok) return false;
  // Each (tensor, dimension) must equal the named dimension of another tensor.
  struct Same {
    const TensorDecl* t;
    size_t dim;
    const TensorDecl* like;
    size_t like_dim;
    const char* role;
  };
  std::vector<Same> rules = {{&k, r - 1, &q, r - 1, "the scores' reduction D"},
                             {&v, r - 2, &k, r - 2, "the keys N"},
                             {&y, r - 2, &q, r - 2, "the queries M"},
                             {&y, r - 1, &v, r - 1, "the values' features E"}};
  for (size_t d = 0; d + 2 < r; ++d)
    for (const TensorDecl* t : {&k, &v, &y}) rules.push_back({t, d, &q, d, "a leading extent"});
  for (const Same& s : rules) {
    const Extent &a = s.t->dims[s.dim], &b = s.like->dims[s.like_dim];
    if (same_extent(a, b)) continue;
    Diagnostic& d = report(a.span,
                           fmt::format("`{}`'s extent `{}` is {}, which `{}` declares as `{}`", s.t->name.value,
                                       show_extent(a), s.role, s.like->name.value, show_extent(b)),
                           fmt::format("write `{}` there", show_extent(b)));
    d.notes.push_back(Label{b.span, std::string(s.role)});
  }
  if (!ok) return false;
  const int vector = 16 / (dtype_bits(q.dtype.value) / 8);
  for (const Extent* e : {&q.dims[r - 1], &v.dims[r - 1]})
    if (e->fixed() && e->size % vector != 0)
      report(e->span,
             fmt::format("a row of {} {} values is not whole 16-byte vectors; the attention kernel loads Q, K and "
                         "V in them",
                         e->size, dtype_name(q.dtype.value)),
             fmt::format("pad the features to a multiple of {}", vector));
  return ok;
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
  if (!(m.op.value == OpKind::attention ? check_attention_shape(m, diags) : check_shape(m, diags))) return;
  if (m.op.value == OpKind::topk) check_k(m, diags);
  check_dtypes(m, diags);
  check_names(m, diags);
}

}  // namespace ucut::rules
