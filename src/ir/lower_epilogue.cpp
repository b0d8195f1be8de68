// ir/lower_epilogue.cpp — lowers the `>> stage` chain into EpiOp values, one category at a time.
// Which stages exist is ir/epilogues.def's business; this file only reads their arguments.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "ir/lower.h"
#include "ir/lower_util.h"
#include "support/suggest.h"

namespace ucut::lowering {
namespace {

[[noreturn]] void arity(const Call& c, std::string_view usage, DiagEngine& diags) {
  diags.report(RuleId::C401, c.span, fmt::format("`{}` got {} argument{}", c.name.value, c.args.size(),
                                                 c.args.size() == 1 ? "" : "s"),
               fmt::format("write `{}`", usage));
  throw LowerError{};
}

[[noreturn]] void bad_argument(const Arg& a, std::string message, std::string_view usage, DiagEngine& diags) {
  diags.report(RuleId::C402, a.span, std::move(message), fmt::format("write `{}`", usage));
  throw LowerError{};
}

/// scale(alpha) | scale(alpha = 0.5) | scale(0.5) | scale
void lower_scalar(const Call& c, EpiOp& op, int index, DiagEngine& diags) {
  const char* usage = "scale(alpha = 1.0)";
  if (c.args.size() > 1) arity(c, usage, diags);
  op.scalar_name = fmt::format("scale{}", index);
  op.scalar_default = 1.0;
  if (c.args.empty()) {
    op.scalar_name = "alpha";
    return;
  }
  const Arg& a = c.args[0];
  if (a.kind == Arg::Kind::keyword) {
    auto v = as_number(*a.value);
    if (!v) bad_argument(a, "a scalar's default must be a number", usage, diags);
    op.scalar_name = a.key.value;
    op.scalar_default = *v;
  } else if (a.kind == Arg::Kind::positional && as_name(*a.value)) {
    op.scalar_name = *as_name(*a.value);
  } else if (a.kind == Arg::Kind::positional && as_number(*a.value)) {
    op.scalar_default = *as_number(*a.value);
  } else {
    bad_argument(a, "`scale` takes a scalar name or a number", usage, diags);
  }
}

/// residual(C: T[M,N] layout, beta = 1.0)
void lower_source(const Call& c, EpiOp& op, DiagEngine& diags) {
  const char* usage = "residual(C: bf16[M,N] row, beta = 1.0)";
  if (c.args.empty() || c.args.size() > 2) arity(c, usage, diags);
  op.scalar_name = "beta";
  op.scalar_default = 1.0;
  for (const Arg& a : c.args) {
    if (a.kind == Arg::Kind::declaration) {
      if (op.tensor) bad_argument(a, "`residual` reads one source tensor", usage, diags);
      op.tensor = lower_tensor(a, diags);
    } else if (a.kind == Arg::Kind::keyword && a.key.value == "beta") {
      auto v = as_number(*a.value);
      if (!v) bad_argument(a, "`beta` must be a number", usage, diags);
      op.scalar_default = *v;
    } else if (a.kind == Arg::Kind::keyword) {
      unknown_keyword(RuleId::C402, a, "`residual` takes the source tensor and `beta = ...`", {"beta"}, usage, diags);
    } else {
      bad_argument(a, "`residual` takes the source tensor and `beta = ...`", usage, diags);
    }
  }
  if (!op.tensor) arity(c, usage, diags);
}

/// bias(col) | bias(row, f32) | channel_scale(col, dtype = f16)
void lower_vector(const Call& c, EpiOp& op, DiagEngine& diags) {
  std::string usage = fmt::format("{}(col, bf16)", c.name.value);
  if (c.args.empty() || c.args.size() > 2) arity(c, usage, diags);
  const Arg& axis = c.args[0];
  const std::string* an = axis.kind == Arg::Kind::positional ? as_name(*axis.value) : nullptr;
  if (!an || (*an != "row" && *an != "col")) {
    diags.report(RuleId::C404, axis.span,
                 fmt::format("`{}` needs an axis: `col` (one value per output column N) or `row` (one per row M)",
                             c.name.value),
                 fmt::format("write `{}(col)` for a per-output-feature vector", c.name.value));
    throw LowerError{};
  }
  op.axis = {*an == "row" ? Axis::row : Axis::col, axis.span};
  op.dtype.span = Span::implied_at(c.span);  // resolved to the output type once the store is known
  op.dtype.value = DType::f32;
  if (c.args.size() == 2) {
    const Arg& t = c.args[1];
    const std::string* tn = as_name(*t.value);
    bool ok_kind = t.kind == Arg::Kind::positional || (t.kind == Arg::Kind::keyword && t.key.value == "dtype");
    if (!ok_kind || !tn) bad_argument(t, "the second argument is the vector's element type", usage, diags);
    op.dtype = {expect_dtype(*tn, t.value->span, diags), t.value->span};
  }
}

/// The operand index of the run-time scalar `a` names in a family kernel's chain, or nullopt when `a` is no
/// name; a name that is no scalar is reported.
std::optional<int> scalar_operand(const Arg& a, std::string_view usage, const ChainOperands* operands,
                                  DiagEngine& diags) {
  const std::string* name = operands ? as_name(*a.value) : nullptr;
  if (!name) return std::nullopt;
  auto it = std::find(operands->names.begin(), operands->names.end(), *name);
  auto index = static_cast<size_t>(it - operands->names.begin());
  if (it == operands->names.end() || index < operands->inputs) {
    std::vector<std::string_view> scalars(
        operands->names.begin() + static_cast<std::ptrdiff_t>(operands->inputs), operands->names.end());
    bad_argument(a,
                 it == operands->names.end()
                     ? fmt::format("`{}` is no run-time scalar of the kernel", *name)
                     : fmt::format("`{}` is a tensor; a parameter is a number or a run-time scalar", *name),
                 scalars.empty() ? std::string(usage)
                                 : fmt::format("{} (scalars: `{}`)", usage, fmt::join(scalars, "`, `")),
                 diags);
  }
  return static_cast<int>(index);
}

/// relu | leaky_relu(0.1) | clamp(lo = -1, hi = 1) | softplus(beta = 2); in a family kernel's chain a
/// parameter may name a run-time scalar: leaky_relu(alpha)
void lower_activation(const Call& c, EpiOp& op, const ChainOperands* operands, DiagEngine& diags) {
  const EpiOpInfo& info = epi_info(op.kind);
  std::string usage(info.name);
  if (!info.params.empty()) {
    usage += "(";
    for (size_t i = 0; i < info.params.size(); ++i)
      usage += fmt::format("{}{} = {}", i ? ", " : "", info.params[i].name,
                           info.params[i].default_value ? fmt::format("{}", *info.params[i].default_value) : "...");
    usage += ")";
  }
  if (c.args.size() > info.params.size()) arity(c, usage, diags);
  std::vector<std::optional<double>> values(info.params.size());
  std::vector<int> from_operand(info.params.size(), -1);
  bool named = false;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    size_t slot = i;
    if (a.kind == Arg::Kind::keyword) {
      named = true;
      auto it = std::find_if(info.params.begin(), info.params.end(), [&](const EpiParam& p) { return p.name == a.key.value; });
      if (it == info.params.end()) {
        std::vector<std::string_view> names;
        for (const EpiParam& p : info.params) names.push_back(p.name);
        unknown_keyword(RuleId::C402, a, fmt::format("`{}` has no parameter `{}`", info.name, a.key.value), names, usage,
                        diags);
      }
      slot = static_cast<size_t>(it - info.params.begin());
    } else if (a.kind == Arg::Kind::declaration || named) {
      bad_argument(a, "positional parameters come before named ones", usage, diags);
    }
    if (values[slot] || from_operand[slot] >= 0)
      bad_argument(a, fmt::format("parameter `{}` is given twice", info.params[slot].name), usage, diags);
    if (std::optional<int> scalar = scalar_operand(a, usage, operands, diags)) {
      from_operand[slot] = *scalar;
      continue;
    }
    auto v = as_number(*a.value);
    if (!v) bad_argument(a, fmt::format("`{}` parameters are numbers", info.name), usage, diags);
    values[slot] = *v;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i] && from_operand[i] < 0) values[i] = info.params[i].default_value;
    if (!values[i] && from_operand[i] < 0) arity(c, usage, diags);
    op.params.push_back(values[i].value_or(0.0));
  }
  if (std::any_of(from_operand.begin(), from_operand.end(), [](int i) { return i >= 0; }))
    op.param_operands = std::move(from_operand);
}

/// aux_store(Z: T[M,N] layout) | store(D: T[M,N] layout [scaled])
void lower_tensor_stage(const Call& c, EpiOp& op, DiagEngine& diags) {
  std::string usage = fmt::format("{}({}: bf16[M,N] row)", c.name.value, op.kind == EpiKind::store ? "D" : "Z");
  if (c.args.size() != 1) arity(c, usage, diags);
  if (c.args[0].kind != Arg::Kind::declaration) bad_argument(c.args[0], "expected a tensor declaration", usage, diags);
  op.tensor = lower_tensor(c.args[0], diags);
}

/// row_sum(R: f32[M]) | row_max(R: f32[M]) | col_sum(S: f32[N]) | col_max(S: f32[N])
void lower_reduction(const Call& c, EpiOp& op, DiagEngine& diags) {
  bool row = reduction_axis(op.kind) == Axis::row;
  std::string usage = fmt::format("{}({}: f32[{}])", c.name.value, row ? "R" : "S", row ? "M" : "N");
  if (c.args.size() != 1) arity(c, usage, diags);
  if (c.args[0].kind != Arg::Kind::declaration) bad_argument(c.args[0], "expected a vector declaration", usage, diags);
  op.tensor = lower_tensor(c.args[0], diags);
  op.axis = {row ? Axis::row : Axis::col, c.name.span};
}

/// cast(f16)
void lower_cast(const Call& c, EpiOp& op, DiagEngine& diags) {
  if (c.args.size() != 1) arity(c, "cast(f16)", diags);
  const std::string* n = as_name(*c.args[0].value);
  if (!n || c.args[0].kind != Arg::Kind::positional) bad_argument(c.args[0], "`cast` takes an element type", "cast(f16)", diags);
  op.dtype = {expect_dtype(*n, c.args[0].value->span, diags), c.args[0].value->span};
}

/// A name in an expression: `x`, or an operand of a family kernel (`load(i)`); anything else is reported.
ExprOp expr_name(const Expr& e, const std::string& name, const ChainOperands* operands, DiagEngine& diags) {
  if (name == "x") return {ExprCode::x, 0};
  if (operands) {
    auto it = std::find(operands->names.begin(), operands->names.end(), name);
    if (it != operands->names.end()) return {ExprCode::load, double(it - operands->names.begin())};
  }
  bool is_fn = find_expr_function(name) != nullptr;
  std::vector<std::string_view> known = {"x"};
  if (operands) known.insert(known.end(), operands->names.begin(), operands->names.end());
  std::optional<std::string> near = did_you_mean(name, known);  // `X`: a misspelt `x`
  diags.report(
      RuleId::C413, e.span,
      is_fn ? fmt::format("`{}` is a function: call it with parentheses", name)
      : operands
          ? fmt::format("unknown name `{}`: an expression reads `x` (the chain's value), numbers and the "
                        "kernel's inputs and scalars (`{}`)",
                        name, fmt::join(operands->names, "`, `"))
          : fmt::format("unknown name `{}`: an expression reads `x` (the chain's value) and numbers", name),
      is_fn      ? fmt::format("write `{}(x)`", name)
      : near     ? *near
      : operands ? std::string("use `x`, a number, or declare the name in the operator's arguments")
                 : std::string("use `x`, a number, or a run-time `scale(...)` stage"));
  throw LowerError{};
}

/// Appends the postfix program of `e` to `out`.
void expr_postfix(const Expr& e, std::vector<ExprOp>& out, const ChainOperands* operands, DiagEngine& diags) {
  const char* usage = "expr(x * sigmoid(x))";
  if (const auto* n = std::get_if<NumberLit>(&e.node)) {
    out.push_back({ExprCode::constant, n->value});
  } else if (const auto* r = std::get_if<NameRef>(&e.node)) {
    out.push_back(expr_name(e, r->name, operands, diags));
  } else if (const auto* c = std::get_if<Call>(&e.node)) {
    const ExprOpInfo* fn = find_expr_function(c->name.value);
    if (!fn) unknown_name(RuleId::C413, "expression function", c->name.value, c->name.span, expr_function_names(), diags);
    if (static_cast<int>(c->args.size()) != fn->arity) {
      diags.report(RuleId::C401, c->span,
                   fmt::format("`{}` takes {} argument{}, got {}", fn->spelling, fn->arity, fn->arity == 1 ? "" : "s",
                               c->args.size()),
                   fn->arity == 1 ? fmt::format("write `{}(x)`", fn->spelling) : fmt::format("write `{}(x, 0)`", fn->spelling));
      throw LowerError{};
    }
    for (const Arg& a : c->args) {
      if (a.kind != Arg::Kind::positional) bad_argument(a, "expression function arguments are positional", usage, diags);
      expr_postfix(*a.value, out, operands, diags);
    }
    out.push_back({fn->code, 0});
  } else if (const auto* u = std::get_if<Unary>(&e.node)) {
    expr_postfix(*u->operand, out, operands, diags);
    if (u->op == '-') out.push_back({ExprCode::neg, 0});
  } else if (const auto* b = std::get_if<Binary>(&e.node)) {
    expr_postfix(*b->lhs, out, operands, diags);
    expr_postfix(*b->rhs, out, operands, diags);
    ExprCode code = b->op == '+' ? ExprCode::add : b->op == '-' ? ExprCode::sub : b->op == '*' ? ExprCode::mul : ExprCode::div;
    out.push_back({code, 0});
  } else {
    diags.report(RuleId::C402, e.span, "an expression holds numbers, `x`, operators and function calls",
                 fmt::format("write `{}`", usage));
    throw LowerError{};
  }
}

/// The postfix program of `e`, within the visitor tree's limits (C414); its text names the operands.
std::shared_ptr<EpiExpr> lower_expr_program(const Expr& e, const ChainOperands* operands, DiagEngine& diags) {
  auto out = std::make_shared<EpiExpr>();
  expr_postfix(e, out->postfix, operands, diags);
  for (const ExprOp& o : out->postfix) out->x_uses += o.code == ExprCode::x;
  int depth = 0, max_depth = 0;
  for (const ExprOp& o : out->postfix) {
    int arity = expr_info(o.code).arity;
    depth += 1 - arity;
    max_depth = std::max(max_depth, depth);
  }
  if (out->postfix.size() > kMaxExprOps || max_depth > kMaxExprDepth) {
    diags.report(
        RuleId::C414, e.span,
        fmt::format("the expression has {} operations nesting {} deep; at most {} operations nesting {} "
                    "deep fit in one visitor tree",
                    out->postfix.size(), max_depth, kMaxExprOps, kMaxExprDepth),
        "split it over several `expr(...)` stages");
    throw LowerError{};
  }
  out->text = operands ? expr_text(out->postfix, operands->names) : expr_text(out->postfix);
  return out;
}

/// expr(x * sigmoid(x) + 0.5); in a family kernel's chain also its operands by name: expr(x * value)
void lower_expr(const Call& c, EpiOp& op, const ChainOperands* operands, DiagEngine& diags) {
  const char* usage = "expr(x * sigmoid(x))";
  if (c.args.size() != 1) arity(c, usage, diags);
  const Arg& a = c.args[0];
  if (a.kind != Arg::Kind::positional) bad_argument(a, "`expr` takes one expression in `x`", usage, diags);
  std::shared_ptr<EpiExpr> e = lower_expr_program(*a.value, operands, diags);
  if (e->x_uses == 0) {
    diags.report(RuleId::C413, a.span, "the expression never reads `x`: it would drop everything before it",
                 "use `x`, e.g. `expr(x * 0.5)`");
    throw LowerError{};
  }
  op.expr = std::move(e);
}

/// A reduction's vector is [M] (row_*) or [N] (col_*) in the operands' symbols, with L first when batched.
void check_reduction_shape(const KernelConfig& cfg, const EpiOp& op, DiagEngine& diags) {
  const TensorDecl& t = *op.tensor;
  if (cfg.conv()) return;  // check reports reductions on convolutions (C421) with the reason
  size_t rank = cfg.matrix_rank();
  bool row = op.axis.value == Axis::row;
  std::vector<const Extent*> want;
  if (rank == 3) want.push_back(&cfg.a.dims[0]);
  want.push_back(row ? &cfg.a.dims[rank - 2] : &cfg.b.dims[rank - 1]);
  auto show = [](const Extent& e) { return e.fixed() ? std::to_string(e.size) : e.symbol; };
  std::string expected;
  for (const Extent* e : want) expected += (expected.empty() ? "" : ", ") + show(*e);
  bool ok = t.dims.size() == want.size();
  for (size_t i = 0; ok && i < want.size(); ++i) ok = t.dims[i].symbol == want[i]->symbol && t.dims[i].size == want[i]->size;
  if (!ok) {
    diags.report(RuleId::C405, t.span,
                 fmt::format("`{}` holds one value per {}: declare it [{}]", t.name.value, row ? "row m" : "column n",
                             expected),
                 fmt::format("write `{}: {}[{}]`", t.name.value, dtype_name(t.dtype.value), expected));
    throw LowerError{};
  }
}

/// The output must be [M, N] (or [L, M, N]) in the operands' symbols; a convolution's [N, ..., K].
void check_output_shape(const KernelConfig& cfg, TensorDecl& t, DiagEngine& diags) {
  if (cfg.conv()) return check_conv_output(cfg, t, diags);
  check_matrix_layout(cfg, t, diags);
  size_t rank = cfg.matrix_rank();
  std::vector<const Extent*> want;
  if (rank == 3) want.push_back(&cfg.a.dims[0]);
  want.push_back(&cfg.a.dims[rank - 2]);
  want.push_back(&cfg.b.dims[rank - 1]);
  auto show = [](const Extent& e) { return e.fixed() ? std::to_string(e.size) : e.symbol; };
  std::string expected;
  for (const Extent* e : want) expected += (expected.empty() ? "" : ", ") + show(*e);
  bool ok = t.dims.size() == rank;
  for (size_t i = 0; ok && i < rank; ++i) ok = t.dims[i].symbol == want[i]->symbol && t.dims[i].size == want[i]->size;
  if (!ok) {
    diags.report(RuleId::C405, t.span, fmt::format("`{}` must be declared [{}]", t.name.value, expected),
                 fmt::format("write `{}: {}[{}]`", t.name.value, dtype_name(t.dtype.value), expected));
    throw LowerError{};
  }
}

/// One `>> stage`, appended to `chain`.
void lower_stage(const Call& c, std::vector<EpiOp>& chain, int& scalar_index, const ChainOperands* operands,
                 DiagEngine& diags) {
  auto kind = find_epilogue(c.name.value);
  if (!kind) unknown_name(RuleId::L012, "epilogue stage", c.name.value, c.name.span, epilogue_spellings(), diags);
  EpiOp op;
  op.kind = *kind;
  op.span = c.span;
  switch (epi_info(*kind).category) {
    case EpiCategory::scalar: lower_scalar(c, op, scalar_index++, diags); break;
    case EpiCategory::source: lower_source(c, op, diags); break;
    case EpiCategory::vector: lower_vector(c, op, diags); break;
    case EpiCategory::activation: lower_activation(c, op, operands, diags); break;
    case EpiCategory::expr: lower_expr(c, op, operands, diags); break;
    case EpiCategory::aux:
    case EpiCategory::store: lower_tensor_stage(c, op, diags); break;
    case EpiCategory::reduce: lower_reduction(c, op, diags); break;
    case EpiCategory::cast: lower_cast(c, op, diags); break;
  }
  chain.push_back(std::move(op));
}

}  // namespace

std::shared_ptr<const EpiExpr> lower_operand_expr(const Expr& e, const ChainOperands& operands,
                                                  DiagEngine& diags) {
  return lower_expr_program(e, &operands, diags);
}

std::vector<EpiOp> lower_chain(const KernelAst& k, std::string_view store_usage, DiagEngine& diags,
                               const ChainOperands* operands) {
  // Each stage on its own, so every stage's errors are reported; the checks of the chain as a whole need
  // every stage (and none lost to a syntax error).
  std::vector<EpiOp> chain;
  int scalar_index = 0;
  const Call* store = nullptr;
  bool ok = !k.incomplete;
  for (const Call& c : k.stages) {
    if (store) {
      Diagnostic& d = diags.report(RuleId::C403, c.span, fmt::format("`{}` follows `store`", c.name.value),
                                   "move it before `store(...)`; the store is always the last stage");
      d.notes.push_back(Label{store->span, "the chain ends here"});
      throw LowerError{};
    }
    if (find_epilogue(c.name.value) == EpiKind::store) store = &c;
    ok = !c.incomplete && attempt([&] { lower_stage(c, chain, scalar_index, operands, diags); }) && ok;
  }
  if (!ok) throw LowerError{};
  if (!store) {
    Span where = k.stages.empty() ? k.op.span : k.stages.back().span;
    Diagnostic& d = diags.report(RuleId::L014, where, "the kernel never stores its result",
                                 fmt::format("end the chain with `>> {}`", store_usage));
    Span end{where.end, where.end, false};
    d.hint->edit = Edit{end, fmt::format(" >> {}", store_usage)};
    d.hint->applicability = Applicability::has_placeholders;
    throw LowerError{};
  }
  return chain;
}

void lower_epilogue(const KernelAst& k, KernelConfig& cfg, DiagEngine& diags, bool operands_ok) {
  // The shapes of the chain's tensors need the operands.
  cfg.epilogue = lower_chain(k, "store(D: bf16[M,N] row)", diags);
  if (!operands_ok) throw LowerError{};
  // Names of epilogue tensors must be distinct from each other and from A and B.
  std::vector<std::pair<std::string, Span>> names = {{cfg.a.name.value, cfg.a.name.span},
                                                     {cfg.b.name.value, cfg.b.name.span}};
  for (EpiOp& op : cfg.epilogue) {
    if (!op.tensor) continue;
    TensorDecl* t = &*op.tensor;
    if (is_reduction(op.kind))
      check_reduction_shape(cfg, op, diags);
    else
      check_output_shape(cfg, *t, diags);
    for (const auto& [n, first] : names) {
      if (n != t->name.value) continue;
      Diagnostic& d = diags.report(RuleId::C411, t->name.span, fmt::format("tensor name `{}` is already used", n),
                                   "give each tensor its own name");
      d.notes.push_back(Label{first, "first used here"});
      throw LowerError{};
    }
    names.emplace_back(t->name.value, t->name.span);
  }
  for (EpiOp& op : cfg.epilogue)
    if (epi_info(op.kind).category == EpiCategory::vector && op.dtype.span.implied) op.dtype.value = cfg.output().dtype.value;
}

}  // namespace ucut::lowering
