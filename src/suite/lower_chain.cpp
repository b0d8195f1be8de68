// suite/lower_chain.cpp — see lower_chain.h. Stages are built as the syntax tree the chain's text would parse
// to (dsl/ast_build.h). An op's value as an expression of the value before it (`formula`) serves both an op
// that is an `expr` stage of its own (of x) and a fold (of the saved value's expression).
#include "suite/lower_chain.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "dsl/ast_build.h"
#include "ir/expr.h"

namespace ucut::suite {
namespace {

/// Built syntax has no text to point into: every node sits at the start of the (empty) lowering source.
const Span kBuilt{};

ExprPtr x() { return name_expr("x", kBuilt); }
ExprPtr num(double v) { return number_expr(v, kBuilt); }
ExprPtr copy(const ExprPtr& e) { return clone_expr(*e); }
ExprPtr bin(char op, ExprPtr a, ExprPtr b) { return binary_expr(op, std::move(a), std::move(b)); }
std::vector<ExprPtr> args(ExprPtr a) {
  std::vector<ExprPtr> v;
  v.push_back(std::move(a));
  return v;
}
std::vector<ExprPtr> args(ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> v = args(std::move(a));
  v.push_back(std::move(b));
  return v;
}
ExprPtr fn(const char* name, std::vector<ExprPtr> a) {
  return call_expr(call_of(name, std::move(a), kBuilt));
}
ExprPtr max_of(ExprPtr a, ExprPtr b) { return fn("max", args(std::move(a), std::move(b))); }
ExprPtr min_of(ExprPtr a, ExprPtr b) { return fn("min", args(std::move(a), std::move(b))); }
/// The operator of an arithmetic op with a tensor operand: `+ - * /` for add, sub, mul, div; 0 for any other.
char arithmetic_symbol(OpKind k) {
  return k == OpKind::add ? '+' : k == OpKind::sub ? '-' : k == OpKind::mul ? '*' : k == OpKind::div ? '/' : 0;
}

/// `expr(e)`: an elementwise formula of the chain's value x.
Call expr(ExprPtr e) { return call_of("expr", args(std::move(e)), kBuilt); }
Call stage(const char* name) { return bare_call(name, kBuilt); }
Call stage(const char* name, std::vector<ExprPtr> a) { return call_of(name, std::move(a), kBuilt); }
Call col_vector(const char* name) { return stage(name, args(name_expr("col", kBuilt))); }

/// max(v, 0) + min(0, alpha (e^v - 1)): ELU, and inside SELU.
ExprPtr elu(ExprPtr v, double alpha) {
  ExprPtr again = copy(v);
  return bin('+', max_of(std::move(v), num(0)),
             min_of(num(0), bin('*', num(alpha), bin('-', fn("exp", args(std::move(again))), num(1)))));
}

/// The value of op `op` (an elementwise op with a scalar operand or none) applied to `v`, in `expr`'s
/// functions (ir/expr_functions.def), each the formula of the reference (ir/epilogue_math.h) and PyTorch;
/// nullopt when none is exact (a softplus of other than PyTorch's default beta 1 and threshold 20) or the op is
/// not elementwise.
std::optional<ExprPtr> formula(const Op& op, ExprPtr v) {
  double s = op.number_or("scalar", 0);
  switch (op.kind) {
    case OpKind::add:
      return bin('+', std::move(v), num(s));
    case OpKind::sub:
      return bin('-', std::move(v), num(s));
    case OpKind::mul:
      return bin('*', std::move(v), num(s));
    case OpKind::div:
      return bin('/', std::move(v), num(s));
    case OpKind::minimum:
      return min_of(std::move(v), num(s));
    case OpKind::maximum:
      return max_of(std::move(v), num(s));
    case OpKind::clamp: {
      const Attr *lo = op.get("min"), *hi = op.get("max");
      if (lo) v = max_of(std::move(v), num(*lo->number));
      return hi ? min_of(std::move(v), num(*hi->number)) : std::move(v);
    }
    case OpKind::hardtanh:
      return min_of(max_of(std::move(v), num(op.number_or("min_val", -1))), num(op.number_or("max_val", 1)));
    case OpKind::relu:
    case OpKind::sigmoid:
    case OpKind::tanh:
    case OpKind::silu:
    case OpKind::exp:
    case OpKind::mish:
      return fn(op_name(op.kind), args(std::move(v)));
    case OpKind::softplus:
      if (op.number_or("beta", 1) != 1 || op.number_or("threshold", 20) != 20) return std::nullopt;
      return fn("softplus", args(std::move(v)));
    case OpKind::gelu: {
      const Attr* a = op.get("approximate");
      return fn(a && a->text && *a->text == "tanh" ? "gelu_tanh" : "gelu", args(std::move(v)));
    }
    case OpKind::hardswish: {  // v * min(max(v + 3, 0), 6) / 6
      ExprPtr relu6 = min_of(max_of(bin('+', copy(v), num(3)), num(0)), num(6));
      return bin('/', bin('*', std::move(v), std::move(relu6)), num(6));
    }
    case OpKind::hardsigmoid:
      return min_of(max_of(bin('+', bin('/', std::move(v), num(6)), num(0.5)), num(0)), num(1));
    case OpKind::leaky_relu: {  // max(v, 0) + slope * min(v, 0): v for v > 0, slope * v below, as PyTorch
      ExprPtr below = bin('*', num(op.number_or("negative_slope", 0.01)), min_of(copy(v), num(0)));
      return bin('+', max_of(std::move(v), num(0)), std::move(below));
    }
    case OpKind::elu:
      return elu(std::move(v), op.number_or("alpha", 1));
    case OpKind::selu:  // PyTorch's fixed scale and alpha
      return bin('*', num(1.0507009873554805), elu(std::move(v), 1.6732632423543772));
    default:
      return std::nullopt;
  }
}

/// Why `formula` has nothing for `op`.
std::string no_formula(const Op& op) {
  OpForm f = op_form(op.kind);
  bool elementwise =
      f == OpForm::unary || f == OpForm::binary || f == OpForm::clamp || f == OpForm::scalar_bound;
  if (op.kind == OpKind::softplus)
    return "`softplus` with other than PyTorch's beta 1 and threshold 20 has no exact form in `expr(...)`'s functions";
  if (elementwise && op.kind != OpKind::triu && op.kind != OpKind::tril)
    return fmt::format("`{}` has no exact form in `expr(...)`'s functions", op_name(op.kind));
  return fmt::format("`{}` is not elementwise", op_name(op.kind));
}

/// The stage of its own that computes `op` (an activation with its parameters, `scale`, a two-sided `clamp`),
/// or nullopt when an `expr(...)` does.
std::optional<Call> named_stage(const Op& op) {
  switch (op.kind) {
    case OpKind::relu:
    case OpKind::sigmoid:
    case OpKind::tanh:
    case OpKind::silu:
    case OpKind::mish:
    case OpKind::hardswish:
      return stage(op_name(op.kind));
    case OpKind::gelu: {
      const Attr* a = op.get("approximate");
      return stage(a && a->text && *a->text == "tanh" ? "gelu_tanh" : "gelu");
    }
    case OpKind::leaky_relu:
      return stage("leaky_relu", args(num(op.number_or("negative_slope", 0.01))));
    case OpKind::hardtanh:
      return stage("hardtanh", args(num(op.number_or("min_val", -1)), num(op.number_or("max_val", 1))));
    case OpKind::softplus:
      return stage("softplus", args(num(op.number_or("beta", 1)), num(op.number_or("threshold", 20))));
    case OpKind::clamp: {
      const Attr *lo = op.get("min"), *hi = op.get("max");
      if (lo && hi) return stage("clamp", args(num(*lo->number), num(*hi->number)));
      return std::nullopt;
    }
    case OpKind::mul:
      return stage("scale", args(num(op.number_or("scalar", 0))));
    default:
      return std::nullopt;
  }
}

/// A value PyTorch broadcasts along one output dim only: its extents are 1 except at `dim` (counted in the
/// output's rank, aligned from the right), where it equals `extent`.
bool per_dim_vector(const Shape& p, const Shape& out, size_t dim, int64_t extent) {
  if (p.size() > out.size()) return false;
  size_t shift = out.size() - p.size();
  bool hit = false;
  for (size_t i = 0; i < p.size(); ++i) {
    if (i + shift == dim) {
      if (p[i] != extent) return false;
      hit = true;
    } else if (p[i] != 1) {
      return false;
    }
  }
  return hit;
}

/// Ops first+1..last fold into one `expr` whose x is the value after op `first`: op `last` reads that value
/// back as `name` (indices into Problem::ops).
struct Fold {
  size_t first, last;
  std::string name;
};

/// Every span from a save to a later read of it, overlapping spans merged (an `expr` has one x), in chain
/// order.
std::vector<Fold> folds(const Problem& p) {
  std::map<std::string, size_t> saved_at;
  std::vector<Fold> spans;
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const Attr* other = p.ops[i].get("other");
    if (other && other->text)
      if (auto it = saved_at.find(*other->text); it != saved_at.end())
        spans.push_back({it->second, i, *other->text});
    if (p.ops[i].save) saved_at[*p.ops[i].save] = i;
  }
  std::stable_sort(spans.begin(), spans.end(),
                   [](const Fold& a, const Fold& b) { return a.first < b.first; });
  std::vector<Fold> merged;
  for (Fold& f : spans) {
    if (merged.empty() || f.first >= merged.back().last) {
      merged.push_back(std::move(f));
    } else if (f.last > merged.back().last) {
      merged.back().last = f.last;
      merged.back().name = std::move(f.name);
    }
  }
  return merged;
}

/// The postfix steps and the deepest stack of `e`'s program, counted as ir/lower_epilogue.cpp counts them.
struct ProgramSize {
  size_t steps = 0;
  int depth = 0, deepest = 0;

  void add(const Expr& e) {
    if (const auto* c = std::get_if<Call>(&e.node)) {
      for (const Arg& a : c->args) add(*a.value);
      step(1 - static_cast<int>(c->args.size()));
    } else if (const auto* u = std::get_if<Unary>(&e.node)) {
      add(*u->operand);
      step(0);
    } else if (const auto* b = std::get_if<Binary>(&e.node)) {
      add(*b->lhs);
      add(*b->rhs);
      step(-1);
    } else {  // x or a number
      step(1);
    }
  }
  void step(int pushes) {
    ++steps;
    depth += pushes;
    deepest = std::max(deepest, depth);
  }
};

class ChainWriter {
 public:
  ChainWriter(const Problem& p, const ChainContext& ctx) : p_(p), ctx_(ctx) {}

  std::variant<Chain, std::string> write() {
    if (ctx_.layer_bias) push(col_vector("bias"), {StageSource::Kind::layer_bias, 0});
    std::vector<Fold> spans = folds(p_);
    const size_t end = std::min(ctx_.end, p_.ops.size());
    // A read-back past the stage's end: refused, unless the saved value is the stage's output itself (saved by its
    // last op), which the next stage reads as its x and folds there.
    // A read-back past the stage's end is refused, unless the saved value is the stage's output itself (saved by its
    // last op), which the next stage reads as its x and folds from its first op; one read here of a value saved
    // before the stage (not its x) is refused too.
    for (const Fold& f : spans)
      if ((f.first + 1 >= ctx_.begin && f.first + 1 < end && f.last >= end) ||
          (f.first + 1 < ctx_.begin && f.last >= ctx_.begin && f.last < end))
        return fmt::format("{}: `{}` reads back `{}`, saved after op {} in an earlier stage of the pipeline",
                           where(f.last), op_name(p_.ops[f.last].kind), f.name, f.first + 1);
    auto fold = std::find_if(spans.begin(), spans.end(), [&](const Fold& f) { return f.first + 1 >= ctx_.begin; });
    for (size_t i = ctx_.begin; i < end; ++i) {
      std::optional<std::string> why;
      if (fold != spans.end() && fold->first + 1 == i) {
        why = folded(*fold);
        i = fold++->last;
      } else if (ctx_.skip.count(i)) {
        continue;
      } else {
        why = own_stage(i);
      }
      if (why) return *why;
    }
    return std::move(chain_);
  }

 private:
  void push(Call c, StageSource source) {
    chain_.stages.push_back(std::move(c));
    chain_.sources.push_back(source);
  }

  /// The index of the problem's input `name`; the input count when there is none.
  size_t input_index(const std::string& name) const {
    size_t in = 0;
    while (in < p_.inputs.size() && p_.inputs[in].name != name) ++in;
    return in;
  }

  std::string where(size_t i) const { return fmt::format("op {} ({})", i + 1, op_name(p_.ops[i].kind)); }

  /// Op `i` as a stage of its own, or why it has none.
  std::optional<std::string> own_stage(size_t i) {
    const Op& op = p_.ops[i];
    if (ctx_.family && (op.get("other") || op.get("param"))) return operand(i);
    if (const Attr* other = op.get("other")) return residual(i, *other->text);
    if (const Attr* param = op.get("param")) return vector(i, *param->ints);
    // A family chain has no `scale` stage (C713): its multiplications are `expr`s.
    if (auto named = named_stage(op); named && !(ctx_.family && op.kind == OpKind::mul)) {
      push(std::move(*named), {});
      return std::nullopt;
    }
    if (auto e = formula(op, x())) {
      push(expr(std::move(*e)), {});
      return std::nullopt;
    }
    return fmt::format("{}: `{}` is not an elementwise epilogue stage", where(i), op_name(op.kind));
  }

  /// Op `i` of a family stage reading a parameter or an input: `expr(x ∘ p<i+1>)` or `expr(x ∘ in_<name>)`.
  std::optional<std::string> operand(size_t i) {
    const Op& op = p_.ops[i];
    StageSource source{StageSource::Kind::param, i};
    if (const Attr* other = op.get("other")) {
      const size_t in = input_index(*other->text);
      if (in == p_.inputs.size())
        return fmt::format("{}: `{}` reads `{}`, which is not an input", where(i), op_name(op.kind), *other->text);
      source = {StageSource::Kind::input, in};
    }
    const char sym = arithmetic_symbol(op.kind);
    if (!sym) return fmt::format("{}: `{}` of a tensor: a family stage adds, subtracts, multiplies or divides by one",
                                 where(i), op_name(op.kind));
    push(expr(bin(sym, x(), name_expr(operand_name(source, p_), kBuilt))), source);
    return std::nullopt;
  }

  /// Op `i` with a per-channel parameter of shape `shape`: `bias(col)`, its negation for `sub`,
  /// `channel_scale(col)`.
  std::optional<std::string> vector(size_t i, const Shape& shape) {
    const Op& op = p_.ops[i];
    bool per_channel = per_dim_vector(shape, ctx_.out, ctx_.channel_dim, ctx_.out[ctx_.channel_dim]);
    if (per_channel && op.kind == OpKind::add) {
      push(col_vector("bias"), {StageSource::Kind::param, i});
      return std::nullopt;
    }
    if (per_channel && op.kind == OpKind::sub) {
      push(col_vector("bias"), {StageSource::Kind::negated_param, i});
      chain_.notes.push_back(
          fmt::format("Op {} subtracts a parameter c of shape [{}]: its `bias(col)` vector is v = -c (x - c "
                      "= x + v exactly).",
                      i + 1, fmt::join(shape, ", ")));
      return std::nullopt;
    }
    if (per_channel && op.kind == OpKind::mul) {
      push(col_vector("channel_scale"), {StageSource::Kind::param, i});
      return std::nullopt;
    }
    return fmt::format(
        "{}: `{}` with a parameter of shape [{}]: epilogues add, subtract or multiply per-channel vectors "
        "only",
        where(i), op_name(op.kind), fmt::join(shape, ", "));
  }

  /// Op `i` reading input `name` (no save of that name precedes it): the residual C when it adds the input.
  std::optional<std::string> residual(size_t i, const std::string& name) {
    const Op& op = p_.ops[i];
    const size_t in = input_index(name);
    if (in == p_.inputs.size())
      return fmt::format("{}: `{}` reads `{}`, which is not an input", where(i), op_name(op.kind), name);
    const Shape& shape = p_.inputs[in].shape;
    std::string reads = fmt::format("{}: `{}` of input `{}`", where(i), op_name(op.kind), name);
    if (op.kind != OpKind::add)
      return reads + ": an epilogue reads a tensor of the output's shape only to add it (`residual`)";
    if (shape != ctx_.out)
      return fmt::format(
          "{} of shape [{}] to a value of shape [{}]: `residual` adds a tensor of the output's shape", reads,
          fmt::join(shape, ", "), fmt::join(ctx_.out, ", "));
    if (std::find(ctx_.main_inputs.begin(), ctx_.main_inputs.end(), in) != ctx_.main_inputs.end())
      return fmt::format(
          "{}, which `{}` also reads: the harness draws the residual C apart from the main op's operands",
          reads, op_name(p_.ops.front().kind));
    if (chain_.residual_input)
      return fmt::format("{}: a kernel adds one residual tensor C, and it is already input `{}`", reads,
                         p_.inputs[*chain_.residual_input].name);
    TensorType c;
    c.dtype = {ctx_.c_dtype, kBuilt};
    for (size_t at = 0; at <= ctx_.c_extents.size();) {
      size_t comma = std::min(ctx_.c_extents.find(',', at), ctx_.c_extents.size());
      c.dims.push_back(Dim{std::string(ctx_.c_extents.substr(at, comma - at)), 0, kBuilt});
      at = comma + 1;
    }
    if (!ctx_.c_layout.empty()) c.modifiers.push_back(bare_call(std::string(ctx_.c_layout), kBuilt));
    Call stage_call = call_of("residual", {}, kBuilt);
    stage_call.args.push_back(declaration_arg("C", tensor_expr(std::move(c), kBuilt), kBuilt));
    push(std::move(stage_call), {StageSource::Kind::input, in});
    chain_.residual_input = in;
    chain_.notes.push_back(
        fmt::format("Op {} adds input `{}`: it is the residual C, laid out like the output.", i + 1, name));
    return std::nullopt;
  }

  /// Ops f.first+1..f.last as one `expr(...)` of the value saved after op f.first, or why they do not fold. In a
  /// family stage (a map after a GEMM or convolution, suite/lower_pipeline.cpp) the fold may read one tensor, a
  /// parameter or an input, by its operand name; an epilogue's computes from x and numbers only.
  std::optional<std::string> folded(const Fold& f) {
    std::map<std::string, ExprPtr> saved;
    saved[*p_.ops[f.first].save] = x();
    ExprPtr v = x();
    std::optional<StageSource> tensor;  // the one tensor a family stage's fold reads
    std::string span = fmt::format(
        "`{}` (saved after op {}) and op {}, which reads it back: ops {}-{} fold into one "
        "`expr(...)`",
        f.name, f.first + 1, f.last + 1, f.first + 2, f.last + 1);
    auto operand_of = [&](size_t j, StageSource source) -> std::optional<std::string> {
      const Op& op = p_.ops[j];
      const char sym = arithmetic_symbol(op.kind);
      if (!sym)
        return fmt::format("{}: `{}` of a tensor: a fold adds, subtracts, multiplies or divides by one, but it lies "
                           "between {}",
                           where(j), op_name(op.kind), span);
      if (tensor && !(tensor->kind == source.kind && tensor->index == source.index))
        return fmt::format("{}: `{}` reads a second tensor, but it lies between {}, which reads at most one",
                           where(j), op_name(op.kind), span);
      tensor = source;
      v = bin(sym, std::move(v), name_expr(operand_name(source, p_), kBuilt));
      return std::nullopt;
    };
    for (size_t j = f.first + 1; j <= f.last; ++j) {
      if (ctx_.skip.count(j)) continue;  // a view (suite/lower_pipeline.cpp): the value is unchanged
      const Op& op = p_.ops[j];
      std::string name = op_name(op.kind);
      if (const Attr* other = op.get("other")) {
        auto it = saved.find(*other->text);
        if (it == saved.end()) {
          const size_t in = input_index(*other->text);
          if (!ctx_.family || in == p_.inputs.size())
            return fmt::format(
                "{}: `{}` reads input `{}`, but it lies between {}, which computes from x and numbers "
                "only",
                where(j), name, *other->text, span);
          if (auto why = operand_of(j, {StageSource::Kind::input, in})) return why;
        } else {
          const char sym = arithmetic_symbol(op.kind);
          if (!sym)
            return fmt::format("{}: `{}` of `{}`: a fold adds, subtracts, multiplies or divides by a saved value",
                               where(j), name, *other->text);
          v = bin(sym, std::move(v), copy(it->second));
        }
      } else if (const Attr* param = op.get("param")) {
        if (!ctx_.family)
          return fmt::format(
              "{}: `{}` reads a parameter of shape [{}], but it lies between {}, which computes from x "
              "and numbers only",
              where(j), name, fmt::join(*param->ints, ", "), span);
        if (auto why = operand_of(j, {StageSource::Kind::param, j})) return why;
      } else if (auto e = formula(op, std::move(v))) {
        v = std::move(*e);
      } else {
        return fmt::format("{}: {}, but it lies between {}", where(j), no_formula(op), span);
      }
      if (op.save) saved[*op.save] = copy(v);
    }
    ProgramSize size;
    size.add(*v);
    if (size.steps > kMaxExprOps || size.deepest > kMaxExprDepth)
      return fmt::format(
          "{}: ops {}-{} fold into one `expr(...)` (op {} reads back `{}`, saved after op {}), and it "
          "would hold {} operations nesting {} deep; at most {} operations nesting {} deep fit in one",
          where(f.last), f.first + 2, f.last + 1, f.last + 1, f.name, f.first + 1, size.steps, size.deepest,
          kMaxExprOps, kMaxExprDepth);
    push(expr(std::move(v)), tensor.value_or(StageSource{}));
    return std::nullopt;
  }

  const Problem& p_;
  const ChainContext& ctx_;
  Chain chain_;
};

}  // namespace

std::string operand_name(const StageSource& source, const Problem& p) {
  return source.kind == StageSource::Kind::input ? "in_" + p.inputs[source.index].name
                                                 : fmt::format("p{}", source.index + 1);
}

std::variant<Chain, std::string> lower_chain(const Problem& p, const ChainContext& ctx) {
  return ChainWriter(p, ctx).write();
}

}  // namespace ucut::suite
