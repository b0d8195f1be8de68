// emit/evt_builder.cpp — the backend-independent walk of the chain. Each stage becomes leaf and compute nodes
// (see facts/cutlass.md §2); intermediate values stay in ElementCompute and the root produces ElementD.
#include "emit/evt_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>
#include <optional>

#include "support/error.h"

namespace ucut {

EvtTree EvtBuilder::run() {
  Node x = leaf(acc_fetch_type(), "{}");
  std::string desc = "acc";
  if (cfg_.a.scaled.value || cfg_.b.scaled.value) {
    x = mul_by_scales(x);
    desc = "scale_a*scale_b*acc";
  }
  for (size_t i = 0; i < cfg_.epilogue.size(); ++i) {
    const EpiOp& op = cfg_.epilogue[i];
    const EpiOpInfo& info = epi_info(op.kind);
    switch (info.category) {
      case EpiCategory::scalar:
        x = compute("cutlass::multiplies", "ElementCompute", {scalar(slot_index(slots_.scalars, i)), x},
                    "{}");
        desc = fmt::format("{}*({})", op.scalar_name, desc);
        break;
      case EpiCategory::source:
        x = compute("cutlass::homogeneous_multiply_add", "ElementCompute",
                    {scalar(slot_index(slots_.scalars, i)), source(op), x}, "{}");
        desc = fmt::format("{} + beta*{}", desc, op.tensor->name.value);
        break;
      case EpiCategory::vector: {
        bool add = op.kind == EpiKind::bias;
        x = compute(add ? "cutlass::plus" : "cutlass::multiplies", "ElementCompute",
                    {x, vector(op, slot_index(slots_.vectors, i))}, "{}");
        desc = fmt::format("{} {} {}[{}]", desc, add ? "+" : "*", info.name, op.axis.value == Axis::col ? "n" : "m");
        break;
      }
      case EpiCategory::activation: {
        auto [fn, args] = activation(op, i);
        x = compute(fn, "ElementCompute", {x}, args);
        desc = fmt::format("{}({})", info.name, desc);
        break;
      }
      case EpiCategory::expr:
        x = expression(*op.expr, x);
        desc = fmt::format("expr({})", op.expr->text);
        break;
      case EpiCategory::aux:
        x = aux_store(op, x, slot_index(slots_.aux, i));
        desc = fmt::format("{} -> {}", desc, op.tensor->name.value);
        break;
      case EpiCategory::reduce:
        x = reduction(op, x, slot_index(slots_.aux, i));
        desc = fmt::format("{} -> {}({})", desc, info.name, op.tensor->name.value);
        break;
      case EpiCategory::cast:
        x = compute("cutlass::epilogue::thread::Identity", std::string(cutlass_type(op.dtype.value)), {x}, "{}");
        desc = fmt::format("{}({})", dtype_name(op.dtype.value), desc);
        break;
      case EpiCategory::store:
        x = store(x);
        desc = fmt::format("{}{} -> {}", op.tensor->scaled.value ? "scale_d*" : "", desc, op.tensor->name.value);
        break;
    }
  }
  tree_.root = x.alias;
  tree_.arguments = x.args;
  tree_.description = desc;
  return tree_;
}

EvtBuilder::Node EvtBuilder::leaf(std::string type, std::string args) {
  Node n;
  n.alias = fmt::format("Evt{}", tree_.aliases.size());
  n.args = std::move(args);
  tree_.aliases.emplace_back(n.alias, std::move(type));
  return n;
}

EvtBuilder::Node EvtBuilder::compute(const std::string& fn, const std::string& out, const std::vector<Node>& children,
                                     std::string own) {
  Node n;
  n.alias = fmt::format("Evt{}", tree_.aliases.size());
  n.is_compute = true;
  n.fn = fn;
  n.out = out;
  n.own_args = std::move(own);
  std::string children_args;
  for (const Node& c : children) {
    n.child_aliases.push_back(c.alias);
    children_args += c.args + ", ";
  }
  n.args = "{" + children_args + n.own_args + "}";
  tree_.aliases.emplace_back(n.alias, compute_type(n));
  return n;
}

EvtBuilder::Node EvtBuilder::wrap(std::string type, const Node& x, std::string own) {
  Node n;
  n.alias = fmt::format("Evt{}", tree_.aliases.size());
  n.args = fmt::format("{{{}, {}}}", x.args, own);
  tree_.aliases.emplace_back(n.alias, std::move(type));
  return n;
}

namespace {

/// 1 / c when dividing by c is multiplying by it exactly in f32: c a power of two whose reciprocal is a normal float
/// (x / c and x * (1 / c) are then the same real number, rounded once).
std::optional<double> exact_reciprocal(double c) {
  int exponent = 0;
  if (!std::isfinite(c) || std::abs(std::frexp(c, &exponent)) != 0.5) return std::nullopt;
  const double r = 1.0 / c;
  if (std::abs(r) < std::numeric_limits<float>::min() || std::abs(r) > std::numeric_limits<float>::max())
    return std::nullopt;
  return r;
}

}  // namespace

/// The postfix program as compute nodes over a stack; every `x` is the incoming subtree again (a visitor tree is a
/// tree, so a value used twice is computed twice: check warns when that repeats loads or stores, W004). A division by
/// a power-of-two constant becomes the exact multiplication by its reciprocal: the IEEE division's slow-path call
/// made an epilogue-heavy kernel 3.7x slower (L2_002's transposed convolution, bench/results/profile_breakdown/l2002/).
EvtBuilder::Node EvtBuilder::expression(const EpiExpr& e, const Node& x) {
  std::vector<Node> stack;
  for (size_t i = 0; i < e.postfix.size(); ++i) {
    const ExprOp& op = e.postfix[i];
    ExprCode code = op.code;
    if (i > 0 && code == ExprCode::div && e.postfix[i - 1].code == ExprCode::constant &&
        exact_reciprocal(e.postfix[i - 1].value))
      code = ExprCode::mul;  // its constant was pushed as the reciprocal
    const ExprOpInfo& info = expr_info(code);
    UC_ASSERT(code != ExprCode::load)
        << "expr `" << e.text << "` reads an operand, which only family kernels have";
    if (code == ExprCode::x) {
      stack.push_back(x);
    } else if (code == ExprCode::constant) {
      std::optional<double> r = i + 1 < e.postfix.size() && e.postfix[i + 1].code == ExprCode::div
                                    ? exact_reciprocal(op.value)
                                    : std::nullopt;
      stack.push_back(leaf(scalar_type(0), fmt::format("{{{{{}}}}}", float_literal(r ? *r : op.value))));
    } else {
      std::vector<Node> args(stack.end() - info.arity, stack.end());
      stack.resize(stack.size() - info.arity);
      stack.push_back(compute(std::string(info.functor), "ElementCompute", args, "{}"));
    }
  }
  return stack.back();
}

EvtBuilder::Node EvtBuilder::scalar(size_t slot_index) {
  return leaf(scalar_type(0), fmt::format("{{{{a->scalars[{}]}}}}", slot_index));
}

EvtBuilder::Node EvtBuilder::mul_by_scales(const Node& x) {
  std::vector<std::string> ptrs;
  if (cfg_.a.scaled.value) ptrs.push_back("a->scale_a");
  if (cfg_.b.scaled.value) ptrs.push_back("a->scale_b");
  std::string values = ptrs.size() == 2 ? "{1.0f, 1.0f}" : "{1.0f}";
  Node s = leaf(scalar_type(static_cast<int>(ptrs.size())), fmt::format("{{{}, {{{}}}}}", values, fmt::join(ptrs, ", ")));
  return compute("cutlass::multiplies", "ElementCompute", {s, x}, "{}");
}

std::string EvtBuilder::float_literal(double v) {
  std::string lit = fmt::format("{:.9g}", v);  // `.9g` round-trips a float
  if (lit.find_first_of(".e") == std::string::npos) lit += ".0";
  return lit + "f";
}

std::string EvtBuilder::reduction_identity(EpiKind kind, std::string_view type) {
  if (reduction_is_max(kind)) return fmt::format("-cutlass::platform::numeric_limits<{}>::infinity()", type);
  return fmt::format("{}(0)", type);
}

std::string EvtBuilder::float_args(const EpiOp& op) {
  if (op.params.empty()) return "{}";
  std::string inner;
  for (double p : op.params) inner += (inner.empty() ? "" : ", ") + float_literal(p);
  return "{" + inner + "}";
}

}  // namespace ucut
