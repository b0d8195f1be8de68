// ir/lower_memop.cpp — lowers a kernel whose operator is of a memory-bound family (ir/memop.h): the header,
// the operator's inputs and scalars (a `reduce`'s `of`, `op`, `weights`, `over` and `acc` too; a `rownorm`'s
// `norm`, `eps` and `over`; a `scan`'s `of`, `op`, `exclusive`, `reverse` and `acc`), and the `>>` chain,
// whose stages lower_epilogue.cpp lowers as it does for GEMMs (their names resolve to the kernel's operands).
// Which stages a family's chain may hold, its output's extents and the targets it emits for are check/'s job
// (memop_rules.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "ir/lower.h"
#include "ir/lower_memop_window.h"
#include "ir/lower_memop_sparse.h"
#include "ir/lower_util.h"
#include "support/error.h"

namespace ucut {

using namespace lowering;

namespace lowering {
/// A library call's keywords and stores, and its usage in a hint (lower_memop_library.cpp).
void lower_library(const KernelAst& k, MemOpConfig& m, DiagEngine& diags);
std::string library_hint(OpKind op);
}  // namespace lowering

namespace {

constexpr const char* kMapInput = "input: bf16[N]";
constexpr const char* kReduceUsage = "reduce(X: f32[N], Y: f32[N], of = X * Y, op = sum, acc: f32)";
constexpr const char* kScanUsage = "scan(input: f32[N], op = sum, exclusive = false, reverse = false, acc: f32)";
constexpr const char* kSparseUsage =
    "sparse(A: f32[rows, cols] csr(values, col_indices, row_offsets), x: f32[cols])";
constexpr const char* kRownormUsage =
    "rownorm(input: f32[N,C], epsilon: f32, norm = layer, eps = epsilon, over = C)";

/// A family's own arguments beside its operands: a `reduce`'s `of = ...`, `op = ...`, `weights = ...`,
/// `over = ...` and `acc: f32` (lower_reduce reads them), a `rownorm`'s `norm = ...`, `eps = ...` and `over = ...`
/// (lower_rownorm), a `scan`'s `of`, `op`, `exclusive`, `reverse` and `acc: f32` (lower_scan).
bool family_argument(const MemOpConfig& m, const Arg& arg) {
  const std::string& key = arg.key.value;
  switch (op_family(m.op.value)) {
    case OpFamily::reduce:
      if (arg.kind == Arg::Kind::keyword) return key == "of" || key == "op" || key == "weights" || key == "over";
      return arg.kind == Arg::Kind::declaration && key == "acc";
    case OpFamily::rownorm:
      return arg.kind == Arg::Kind::keyword && (key == "norm" || key == "eps" || key == "over");
    case OpFamily::scan:
      if (arg.kind == Arg::Kind::keyword)
        return key == "of" || key == "op" || key == "exclusive" || key == "reverse";
      return arg.kind == Arg::Kind::declaration && key == "acc";
    case OpFamily::window:
      return window_argument(arg);
    case OpFamily::library:  // which keywords a call takes is lower_library's (C720)
      return arg.kind == Arg::Kind::keyword;
    case OpFamily::map:
      return arg.kind == Arg::Kind::keyword && key == "rotary";
    default:
      return false;
  }
}

/// What a family's operator takes, for the hint of an argument it does not.
std::string family_usage(OpKind op) {
  switch (op_family(op)) {
    case OpFamily::reduce:
      return fmt::format("`reduce` takes tensors, run-time scalars, `of`, `op`, `weights`, `over` and `acc`: `{}`",
                         kReduceUsage);
    case OpFamily::rownorm:
      return fmt::format("`rownorm` takes tensors, run-time scalars, `norm`, `eps` and `over`: `{}`",
                         kRownormUsage);
    case OpFamily::sparse:
      return fmt::format("`sparse` takes its matrix, with its format, the dense operand and run-time scalars: `{}`",
                         kSparseUsage);
    case OpFamily::scan:
      return fmt::format("`scan` takes tensors, run-time scalars, `of`, `op`, `exclusive`, `reverse` and `acc`: `{}`",
                         kScanUsage);
    case OpFamily::window:
      return fmt::format("`window` takes tensors, run-time scalars, `op`, `edge`, `taps`, `weights`, `size`, "
                         "`stride`, `pad`, `over` and `acc`: `{}`",
                         kWindowUsage);
    case OpFamily::library:
      return library_hint(op);
    default:
      return fmt::format("`map` takes tensors, run-time scalars and `rotary`: `{}, alpha: f32`", kMapInput);
  }
}

/// `alpha: f32`: a run-time scalar, named as its caller names it.
ScalarDecl lower_scalar(const Arg& arg, const std::string& dtype, DiagEngine& diags) {
  return ScalarDecl{arg.key, {expect_dtype(dtype, arg.value->span, diags), arg.value->span}, arg.span};
}

/// `slice(P, i, n)` on the declaration `decl` of input `input`: recorded, and removed from `decl` (a copy),
/// whose other modifiers lower_tensor reads; nullopt when it has none.
std::optional<ColumnSlice> take_slice(Arg& decl, size_t input, DiagEngine& diags) {
  auto& type = std::get<TensorType>(decl.value->node);
  auto it = std::find_if(type.modifiers.begin(), type.modifiers.end(),
                         [](const Call& c) { return c.name.value == "slice"; });
  if (it == type.modifiers.end()) return std::nullopt;
  const std::string usage = fmt::format("{}: {}[B,D] slice(in, 0, 2)", decl.key.value, type.dtype.value);
  const std::string* of = it->args.size() == 3 && it->args[0].kind == Arg::Kind::positional
                              ? as_name(*it->args[0].value)
                              : nullptr;
  if (!of) {
    diags.report(RuleId::L008, it->span,
                 "`slice` takes the caller's tensor, the block's index and the number of blocks",
                 fmt::format("write `{}`: block 0 of 2 of `in`'s last extent", usage));
    throw LowerError{};
  }
  ColumnSlice s;
  s.input = input;
  s.of = {*of, it->args[0].value->span};
  s.blocks = {expect_int(it->args[2], "the number of blocks", 2, 1024, diags), it->args[2].value->span};
  s.block = {expect_int(it->args[1], "the block", 0, s.blocks.value - 1, diags), it->args[1].value->span};
  s.span = it->span;
  auto second = std::find_if(std::next(it), type.modifiers.end(),
                             [](const Call& c) { return c.name.value == "slice"; });
  if (second != type.modifiers.end()) {
    Diagnostic& d =
        diags.report(RuleId::L006, second->span, "`slice` is given twice", "remove one of the two");
    d.notes.push_back(Label{it->span, "first given here"});
    throw LowerError{};
  }
  type.modifiers.erase(it);
  return s;
}

/// `reverse(P)` on the declaration `decl` of input `input`: recorded, and removed from `decl` (a copy), as
/// take_slice does; nullopt when it has none.
std::optional<ReversedView> take_reverse(Arg& decl, size_t input, DiagEngine& diags) {
  auto& type = std::get<TensorType>(decl.value->node);
  auto is_reverse = [](const Call& c) { return c.name.value == "reverse"; };
  auto it = std::find_if(type.modifiers.begin(), type.modifiers.end(), is_reverse);
  if (it == type.modifiers.end()) return std::nullopt;
  const std::string* of = it->args.size() == 1 && it->args[0].kind == Arg::Kind::positional
                              ? as_name(*it->args[0].value)
                              : nullptr;
  if (!of) {
    diags.report(RuleId::L008, it->span, "`reverse` takes the caller's tensor it reads backwards",
                 fmt::format("write `{}: {}[N] reverse(input)`", decl.key.value, type.dtype.value));
    throw LowerError{};
  }
  ReversedView r{input, {*of, it->args[0].value->span}, it->span};
  if (auto second = std::find_if(std::next(it), type.modifiers.end(), is_reverse);
      second != type.modifiers.end()) {
    Diagnostic& d =
        diags.report(RuleId::L006, second->span, "`reverse` is given twice", "remove one of the two");
    d.notes.push_back(Label{it->span, "first given here"});
    throw LowerError{};
  }
  type.modifiers.erase(it);
  return r;
}

/// Every slice of one caller's tensor describes the same tensor: one element type, the same extents and
/// number of blocks (L013).
void check_slices_agree(const MemOpConfig& m, DiagEngine& diags) {
  for (size_t i = 0; i < m.slices.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const ColumnSlice &a = m.slices[j], &b = m.slices[i];
      if (a.of.value != b.of.value) continue;
      const TensorDecl &ta = m.inputs[a.input], &tb = m.inputs[b.input];
      bool same_dims = ta.dims.size() == tb.dims.size();
      for (size_t d = 0; same_dims && d < ta.dims.size(); ++d)
        same_dims = ta.dims[d].symbol == tb.dims[d].symbol && ta.dims[d].size == tb.dims[d].size;
      if (same_dims && ta.dtype.value == tb.dtype.value && a.blocks.value == b.blocks.value) continue;
      Diagnostic& d = diags.report(
          RuleId::L013, b.span,
          fmt::format(
              "`{}` and `{}` are both blocks of `{}`, so they need one element type, the same extents "
              "and the same number of blocks",
              ta.name.value, tb.name.value, a.of.value),
          fmt::format("declare `{}` as `{}` is declared, with its own block index", tb.name.value,
                      ta.name.value));
      d.notes.push_back(Label{ta.span, "the other block"});
      throw LowerError{};
    }
}

/// map(input: T[N], other: T[N], alpha: f32, x: T[B,D] slice(in, 0, 2), ...): tensors and run-time scalars,
/// each named as the caller names it (an MSKB launcher's parameters).
void lower_map_operands(const Call& op, MemOpConfig& m, DiagEngine& diags) {
  bool ok = !op.incomplete;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Arg& arg : op.args) {
    if (arg.incomplete) {  // a syntax error inside it is reported
      ok = false;
      continue;
    }
    if (family_argument(m, arg)) continue;
    ok = attempt([&] {
           if (arg.kind == Arg::Kind::positional) {
             diags.report(RuleId::L009, arg.span, "operator arguments are named",
                          fmt::format("declare the input as `{}`", kMapInput));
             throw LowerError{};
           }
           bool precision = arg.key.value == "acc" || arg.key.value == "compute";
           if (arg.kind == Arg::Kind::keyword || precision) {
             diags.report(
                 RuleId::L007, arg.key.span,
                 precision ? fmt::format("`{}` takes no `{}`: it computes every element in f32",
                                         op_name(m.op.value), arg.key.value)
                           : fmt::format("`{}` takes no argument `{}`", op_name(m.op.value), arg.key.value),
                 precision ? fmt::format("remove `{}`", arg.key.value) : family_usage(m.op.value));
             throw LowerError{};
           }
           const std::string* scalar_type = as_name(*arg.value);
           if (!as_tensor(*arg.value) && !scalar_type) {
             diags.report(RuleId::L009, arg.value->span,
                          fmt::format("`{}` needs a tensor type or a scalar's element type", arg.key.value),
                          fmt::format("declare `{0}: bf16[N]` (a tensor) or `{0}: f32` (a run-time scalar)",
                                      arg.key.value));
             throw LowerError{};
           }
           note_unique(seen, arg.key.value, arg.key.span,
                       fmt::format("`{}` is declared twice", arg.key.value), diags);
           // A map's chain starts at the first input, so only that one may be `x`; a reduce's chain reads the
           // reduced value as `x` and no input, so any input may be `x` (`of` reads it by that name: y = A·x).
           // A sparse kernel's chain reads the product as `x`, so its dense operand may be `x` (y = A·x).
           bool reduce = op_family(m.op.value) == OpFamily::reduce || op_family(m.op.value) == OpFamily::sparse;
           if (arg.key.value == "x" && (!as_tensor(*arg.value) || (!m.inputs.empty() && !reduce))) {
             diags.report(
                 RuleId::L009, arg.key.span,
                 reduce ? "`x` is the chain's value, the reduced one: no scalar is `x`"
                        : "`x` is the chain's value, which starts as the first input: no other operand is `x`",
                 "name this operand otherwise");
             throw LowerError{};
           }
           if (scalar_type) {
             m.scalars.push_back(lower_scalar(arg, *scalar_type, diags));
             return;
           }
           Arg decl{arg.kind, arg.key, clone_expr(*arg.value), arg.span, false};
           std::optional<ColumnSlice> slice = take_slice(decl, m.inputs.size(), diags);
           std::optional<ReversedView> reversed = take_reverse(decl, m.inputs.size(), diags);
           take_sparse_format(decl, m.inputs.size(), m, diags);
           m.inputs.push_back(lower_tensor(decl, diags));
           if (slice) m.slices.push_back(*slice);
           if (reversed) m.reversed.push_back(*reversed);
         }) &&
         ok;
  }
  for (const ColumnSlice& s : m.slices)
    ok = attempt([&] {
           note_unique(seen, s.of.value, s.of.span,
                       fmt::format("`{}` names a sliced tensor and another operand", s.of.value), diags);
           seen.pop_back();  // the slices of one tensor share its name
         }) &&
         ok;
  for (const ReversedView& r : m.reversed)
    ok = attempt([&] {
           note_unique(seen, r.of.value, r.of.span,
                       fmt::format("`{}` names a reversed tensor and another operand", r.of.value), diags);
         }) &&
         ok;
  if (!ok) throw LowerError{};
  if (m.inputs.empty()) {
    diags.report(RuleId::L005, op.span, fmt::format("`{}` has no input tensor", op_name(m.op.value)),
                 fmt::format("add `{}`", kMapInput));
    throw LowerError{};
  }
  check_slices_agree(m, diags);
}

/// The names the chain reads, from the operator's declarations as written (inputs, then scalars: the operand
/// order of MemOpConfig::operand_names), so the chain lowers even when an operand does not.
ChainOperands chain_operands(const Call& op, const MemOpConfig& m) {
  ChainOperands out;
  std::vector<std::string> scalars, extents;
  for (const Arg& arg : op.args) {
    if (arg.kind != Arg::Kind::declaration || !arg.value || family_argument(m, arg)) continue;
    if (const TensorType* t = as_tensor(*arg.value)) {
      out.names.push_back(arg.key.value);
      for (const Dim& d : t->dims)
        if (!d.symbol.empty() && std::find(extents.begin(), extents.end(), d.symbol) == extents.end())
          extents.push_back(d.symbol);
    } else if (as_name(*arg.value)) {
      scalars.push_back(arg.key.value);
    }
  }
  out.inputs = out.names.size();
  out.names.insert(out.names.end(), scalars.begin(), scalars.end());
  if (op_family(m.op.value) == OpFamily::reduce)
    out.names.insert(out.names.end(), extents.begin(), extents.end());
  return out;
}

/// A keyword's value that names one of `known`, looked up by `find`; reports `rule` (the family's) otherwise.
template <class Find>
auto named_choice(RuleId rule, const Arg& arg, const std::vector<std::string_view>& known, Find find,
                  DiagEngine& diags) {
  const std::string* name = as_name(*arg.value);
  if (!name) {
    diags.report(rule, arg.value->span, fmt::format("`{}` takes a name", arg.key.value),
                 fmt::format("write `{} = {}`", arg.key.value, known.front()));
    throw LowerError{};
  }
  auto value = find(*name);
  if (!value)
    unknown_name(rule, fmt::format("`{}` value", arg.key.value), *name, arg.value->span, known, diags);
  return Spanned<std::decay_t<decltype(*value)>>{*value, arg.value->span};
}

/// A reduce's `of`: an expression over the operands, where `x` is the first input, or a later input named `x`
/// (y = A·x's) when there is one.
std::shared_ptr<const EpiExpr> of_expr(const Expr& e, const ChainOperands& operands, DiagEngine& diags) {
  std::shared_ptr<const EpiExpr> of = lower_operand_expr(e, operands, diags);
  const auto inputs_end = operands.names.begin() + static_cast<std::ptrdiff_t>(operands.inputs);
  auto named_x = std::find(operands.names.begin(), inputs_end, "x");
  if (named_x == inputs_end || named_x == operands.names.begin()) return of;
  auto out = std::make_shared<EpiExpr>(*of);
  for (ExprOp& op : out->postfix)
    if (op.code == ExprCode::x) op = {ExprCode::load, double(named_x - operands.names.begin())};
  out->x_uses = 0;
  return out;
}

/// `acc: T` of a `reduce` or a `scan`: an element type (L009 otherwise; check wants f32).
Spanned<DType> lower_acc(const Arg& arg, DiagEngine& diags) {
  const std::string* dtype = as_name(*arg.value);
  if (!dtype) {
    diags.report(RuleId::L009, arg.value->span, "`acc` takes an element type", "write `acc: f32`");
    throw LowerError{};
  }
  return {expect_dtype(*dtype, arg.value->span, diags), arg.value->span};
}

/// `over = N` or `over = (N, K)` of a `reduce` (rule C706) or a `rownorm` (C707): extent symbols, each once
/// (which extents of the first input they name is check's).
std::vector<Spanned<std::string>> lower_over(const Arg& arg, RuleId rule, DiagEngine& diags) {
  std::vector<const Expr*> items;
  if (const auto* t = std::get_if<Tuple>(&arg.value->node))
    for (const ExprPtr& item : t->items) items.push_back(item.get());
  else
    items.push_back(arg.value.get());
  std::vector<Spanned<std::string>> over;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Expr* item : items) {
    const std::string* name = as_name(*item);
    if (!name) {
      diags.report(rule, item->span, "`over` names extent symbols of the first input",
                   "write `over = N`, or `over = (H, W)` for several");
      throw LowerError{};
    }
    std::string message = fmt::format("`over` names `{}` twice", *name);
    if (std::any_of(seen.begin(), seen.end(), [&](const auto& s) { return s.first == *name; })) {
      Diagnostic& d = diags.report(rule, item->span, message, fmt::format("remove one `{}`", *name));
      for (const auto& [n, at] : seen)
        if (n == *name) d.notes.push_back(Label{at, "first named here"});
      throw LowerError{};
    }
    seen.emplace_back(*name, item->span);
    over.push_back({*name, item->span});
  }
  return over;
}

/// A `reduce`'s `of = expr`, `op = sum|mean|max|min|argmax|argmin|logsumexp`, `weights = none|simpson`, `over = ...`
/// and `acc: f32` (default f32); `op` is required (C705), `of` defaults to the first input, `over` to every extent.
void lower_reduce(const Call& op, const ChainOperands& operands, MemOpConfig& m, DiagEngine& diags) {
  ReduceSpec r;
  r.acc = {DType::f32, Span::implied_at(op.span)};
  r.of_span = Span::implied_at(op.span);
  r.weights.span = Span::implied_at(op.span);
  bool has_op = false, ok = true;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Arg& arg : op.args) {
    if (arg.incomplete || !family_argument(m, arg)) continue;
    ok = attempt([&] {
           note_unique(seen, arg.key.value, arg.key.span, fmt::format("`{}` is given twice", arg.key.value),
                       diags);
           if (arg.key.value == "of") {
             r.of = of_expr(*arg.value, operands, diags);
             r.of_span = arg.value->span;
           } else if (arg.key.value == "op") {
             r.op = named_choice(RuleId::C705, arg, {"sum", "mean", "max", "min", "argmax", "argmin", "logsumexp"},
                                 find_reduce_op, diags);
             has_op = true;
           } else if (arg.key.value == "weights") {
             r.weights = named_choice(RuleId::C705, arg, {"none", "simpson"}, find_reduce_weights, diags);
           } else if (arg.key.value == "over") {
             r.over = lower_over(arg, RuleId::C706, diags);
             r.over_span = arg.value->span;
           } else {  // acc: f32
             r.acc = lower_acc(arg, diags);
           }
         }) &&
         ok;
  }
  if (!ok) throw LowerError{};
  if (!has_op) {
    diags.report(RuleId::C705, op.span, "`reduce` needs `op`: how its values combine",
                 fmt::format("add `op = sum` (or mean, max, min): `{}`", kReduceUsage));
    throw LowerError{};
  }
  m.reduce = std::move(r);
}

/// `KEY = NAME | number`: a run-time scalar the kernel declares, or a literal (`rule` otherwise; `example` a
/// literal for the hint, `scalar` a scalar's declaration).
ScalarOrNumber lower_scalar_or_number(const Arg& arg, const MemOpConfig& m, RuleId rule, std::string_view example,
                                      std::string_view scalar, DiagEngine& diags) {
  ScalarOrNumber out;
  out.span = arg.value->span;
  if (std::optional<double> v = as_number(*arg.value)) {
    out.value = *v;
    return out;
  }
  const std::string& key = arg.key.value;
  const std::string* name = as_name(*arg.value);
  bool declared = name && std::any_of(m.scalars.begin(), m.scalars.end(),
                                      [&](const ScalarDecl& s) { return s.name.value == *name; });
  if (!declared) {
    const std::string scalar_name(scalar.substr(0, scalar.find(':')));
    diags.report(rule, arg.value->span,
                 name ? fmt::format("`{} = {}` names no run-time scalar of the kernel", key, *name)
                      : fmt::format("`{}` takes a run-time scalar's name or a number", key),
                 name ? fmt::format("declare `{}: f32` among the operands, or write a number: `{} = {}`", *name, key,
                                    example)
                      : fmt::format("write `{} = {}`, or declare `{}` and write `{} = {}`", key, example, scalar, key,
                                    scalar_name));
    throw LowerError{};
  }
  out.scalar = *name;
  return out;
}

/// A map's `rotary = NAME | number` (C725): the base of its rotation.
void lower_rotary(const Call& op, MemOpConfig& m, DiagEngine& diags) {
  for (const Arg& arg : op.args)
    if (!arg.incomplete && family_argument(m, arg)) {
      if (m.rotary) {
        diags.report(RuleId::C725, arg.key.span, "`rotary` is given twice", "remove one of the two");
        throw LowerError{};
      }
      m.rotary = lower_scalar_or_number(arg, m, RuleId::C725, "10000", "base: f32", diags);
    }
}

/// A `rownorm`'s `norm = softmax|log_softmax|layer|rms|l1|l2`, `eps = NAME | number` and `over = SYM |
/// (SYM, ...)`; `norm` and `over` are required (C707), whether the norm takes `eps` is check's.
void lower_rownorm(const Call& op, MemOpConfig& m, DiagEngine& diags) {
  NormSpec n;
  bool has_norm = false, has_over = false, ok = true;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Arg& arg : op.args) {
    if (arg.incomplete || !family_argument(m, arg)) continue;
    ok = attempt([&] {
           note_unique(seen, arg.key.value, arg.key.span, fmt::format("`{}` is given twice", arg.key.value),
                       diags);
           if (arg.key.value == "norm") {
             n.norm = named_choice(RuleId::C707, arg, norm_kind_names(), find_norm_kind, diags);
             has_norm = true;
           } else if (arg.key.value == "eps") {
             n.eps = lower_scalar_or_number(arg, m, RuleId::C707, "1e-5", "epsilon: f32", diags);
           } else {
             n.over = lower_over(arg, RuleId::C707, diags);
             n.over_span = arg.value->span;
             has_over = true;
           }
         }) &&
         ok;
  }
  if (!ok) throw LowerError{};
  if (!has_norm || !has_over) {
    diags.report(RuleId::C707, op.span,
                 !has_norm ? "`rownorm` needs `norm`: how it normalizes"
                           : "`rownorm` needs `over`: the extents it normalizes along",
                 fmt::format("add `{}` (norms: softmax, log_softmax, layer, rms, l1, l2): `{}`",
                             !has_norm ? "norm = softmax" : "over = C", kRownormUsage));
    throw LowerError{};
  }
  m.norm = std::move(n);
}

/// A `scan`'s `of = expr`, `op = sum|prod|max|min`, `exclusive = true|false`, `reverse = true|false` and
/// `acc: f32` (default f32); `op` is required (C708), `of` defaults to the first input.
void lower_scan(const Call& op, const ChainOperands& operands, MemOpConfig& m, DiagEngine& diags) {
  ScanSpec s;
  s.acc = {DType::f32, Span::implied_at(op.span)};
  s.of_span = Span::implied_at(op.span);
  s.exclusive.span = s.reverse.span = Span::implied_at(op.span);
  bool has_op = false, ok = true;
  std::vector<std::pair<std::string, Span>> seen;
  for (const Arg& arg : op.args) {
    if (arg.incomplete || !family_argument(m, arg)) continue;
    ok = attempt([&] {
           note_unique(seen, arg.key.value, arg.key.span, fmt::format("`{}` is given twice", arg.key.value),
                       diags);
           if (arg.key.value == "of") {
             s.of = lower_operand_expr(*arg.value, operands, diags);
             s.of_span = arg.value->span;
           } else if (arg.key.value == "op") {
             s.op = named_choice(RuleId::C708, arg, {"sum", "prod", "max", "min"}, find_scan_op, diags);
             has_op = true;
           } else if (arg.key.value == "exclusive" || arg.key.value == "reverse") {
             (arg.key.value == "exclusive" ? s.exclusive : s.reverse) =
                 named_choice(RuleId::C708, arg, {"true", "false"}, lowering::find_flag, diags);
           } else {  // acc: f32
             s.acc = lower_acc(arg, diags);
           }
         }) &&
         ok;
  }
  if (!ok) throw LowerError{};
  if (!has_op) {
    diags.report(RuleId::C708, op.span, "`scan` needs `op`: how its running value combines",
                 fmt::format("add `op = sum` (or prod, max, min): `{}`", kScanUsage));
    throw LowerError{};
  }
  m.scan = std::move(s);
}

/// The one argument of `.with_NAME(value)`, positional; reports L008 or L009 otherwise.
const Arg& one_argument(const Call& c, std::string_view usage, DiagEngine& diags) {
  if (c.args.size() != 1) {
    diags.report(RuleId::L008, c.span, fmt::format("`.{}` takes one argument", c.name.value),
                 fmt::format("write `.{}`", usage));
    throw LowerError{};
  }
  if (c.args[0].kind != Arg::Kind::positional) {
    diags.report(RuleId::L009, c.args[0].span,
                 fmt::format("`.{}`'s argument is a value, not named", c.name.value),
                 fmt::format("write `.{}`", usage));
    throw LowerError{};
  }
  return c.args[0];
}

/// An integer knob, spanned at its argument (where a check fix-it edits it). Its range is check's (C702,
/// C703): lowering takes any positive count.
Spanned<int> count_knob(const Call& c, std::string_view what, std::string_view usage, DiagEngine& diags) {
  const Arg& a = one_argument(c, usage, diags);
  return {expect_int(a, what, 1, 1 << 20, diags), a.value->span};
}

using MemConfigFn = void (*)(const Call&, MemOpConfig&, DiagEngine&);
using MemConfigTable = std::vector<std::pair<std::string_view, MemConfigFn>>;

/// The `.with_*` calls of a family kernel: its launch (ir/memop.h MemTunables); `.with_rows` is a rownorm's
/// and a per-axis reduce's (check refuses it elsewhere).
const MemConfigTable& config_table() {
  static const MemConfigTable table = {
      {"with_vector",
       [](const Call& c, MemOpConfig& m, DiagEngine& d) {
         m.tune.vector = count_knob(c, "the vector width", "with_vector(8)", d);
       }},
      {"with_block",
       [](const Call& c, MemOpConfig& m, DiagEngine& d) {
         m.tune.block = count_knob(c, "the threads per block", "with_block(256)", d);
       }},
      {"with_items",
       [](const Call& c, MemOpConfig& m, DiagEngine& d) {
         m.tune.items = count_knob(c, "the vectors per thread", "with_items(4)", d);
       }},
      {"with_grid",
       [](const Call& c, MemOpConfig& m, DiagEngine& d) {
         const Arg& a = one_argument(c, "with_grid(persistent)", d);
         const std::string* name = as_name(*a.value);
         if (!name) {
           d.report(RuleId::L009, a.value->span, "`.with_grid` takes a grid policy",
                    "write `.with_grid(persistent)` or `.with_grid(auto)`");
           throw LowerError{};
         }
         if (*name != "persistent" && *name != "auto")
           unknown_name(RuleId::L011, "grid policy", *name, a.value->span, {"persistent", "auto"}, d);
         m.tune.grid = {*name == "persistent" ? GridPolicy::persistent : GridPolicy::cover, a.value->span};
       }},
      {"with_rows",
       [](const Call& c, MemOpConfig& m, DiagEngine& d) {
         const Arg& a = one_argument(c, "with_rows(4)", d);
         if (const std::string* name = as_name(*a.value)) {
           if (*name != "auto") unknown_name(RuleId::L011, "rows per block", *name, a.value->span, {"auto"}, d);
           m.tune.rows = {kMemAutoRows, a.value->span};
           return;
         }
         m.tune.rows = count_knob(c, "the rows per block", "with_rows(4)", d);
       }},
  };
  return table;
}

/// The `.with_*` calls (lower_util.h lower_config_calls): L010 for one a family kernel does not take.
bool lower_configs(const KernelAst& k, MemOpConfig& m, DiagEngine& diags) {
  return lower_config_calls(k, m, config_table(),
                            fmt::format("configuration call of `{}`", op_name(m.op.value)), diags);
}

/// The knobs no `.with_*` call set: today's launch (ir/memop.h), spanned implied at the header.
void fill_defaults(MemOpConfig& m) {
  Span implied = Span::implied_at(m.header);
  auto unset = [](Span s) { return s.begin == 0 && s.end == 0 && !s.implied; };
  if (unset(m.tune.vector.span)) m.tune.vector = {memop_default_vector(m), implied};
  if (unset(m.tune.block.span)) m.tune.block = {kMemDefaultBlock, implied};
  if (unset(m.tune.items.span)) m.tune.items = {kMemDefaultItems, implied};
  if (unset(m.tune.grid.span)) m.tune.grid = {GridPolicy::persistent, implied};
  if (unset(m.tune.rows.span)) m.tune.rows = {memop_default_rows(m), implied};
}

}  // namespace

std::optional<MemOpConfig> lower_memop(const SourceFile& src, const KernelAst& k, DiagEngine& diags) {
  (void)src;
  std::optional<OpKind> op = find_op(k.op.name.value);
  UC_ASSERT(op && memory_family(op_family(*op))) << "lower_memop on operator `" << k.op.name.value << "`";
  MemOpConfig m;
  m.name = k.name;
  m.header = k.span;
  m.op = {*op, k.op.name.span};
  // The header, the operator, the configuration calls and the chain on their own: one run reports every
  // error.
  bool arch_ok = !k.arch.value.empty() && attempt([&] { m.arch = lower_arch(k.arch, diags); });
  bool op_ok = attempt([&] { lower_map_operands(k.op, m, diags); });
  op_ok = op_ok && attempt([&] { require_sparse_format(k.op, m, diags); });
  bool configs_ok = lower_configs(k, m, diags);
  const ChainOperands operands = chain_operands(k.op, m);
  if (m.op.value == OpKind::reduce) op_ok = attempt([&] { lower_reduce(k.op, operands, m, diags); }) && op_ok;
  if (m.op.value == OpKind::rownorm) op_ok = op_ok && attempt([&] { lower_rownorm(k.op, m, diags); });
  if (m.op.value == OpKind::scan) op_ok = attempt([&] { lower_scan(k.op, operands, m, diags); }) && op_ok;
  if (m.op.value == OpKind::window) op_ok = op_ok && attempt([&] { lower_window(k.op, m, diags); });
  if (m.op.value == OpKind::map) op_ok = op_ok && attempt([&] { lower_rotary(k.op, m, diags); });
  const char* store = m.op.value == OpKind::reduce    ? "store(output: f32[1])"
                      : m.op.value == OpKind::rownorm ? "store(output: f32[N,C])"
                                                      : "store(output: bf16[N])";
  bool chain_ok = op_family(m.op.value) == OpFamily::library
                      ? op_ok && attempt([&] { lower_library(k, m, diags); })
                      : attempt([&] { m.chain = lower_chain(k, store, diags, &operands); });
  if (!arch_ok || !op_ok || !configs_ok || !chain_ok || k.incomplete) return std::nullopt;
  UC_ASSERT(operands.names == m.operand_names()) << "the chain's operands are not the lowered ones";
  fill_defaults(m);
  return m;
}

}  // namespace ucut
