// eval/memop_ref_call.cpp — see memop_ref_call.h: resolving one call, reading inputs, the chain, rounding.
#include "eval/memop_ref_call.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "ir/epilogue_math.h"

namespace ucut::memref {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// v rounded to nearest even with `mantissa` explicit bits, `min_exp` the smallest normal exponent (subnormals
/// keep its quantum) and `max_finite` the largest finite value (beyond: infinity).
double round_binary(double v, int mantissa, int min_exp, double max_finite) {
  if (!std::isfinite(v) || v == 0) return v;
  int exp = 0;
  std::frexp(v, &exp);  // |v| = f·2^exp, f in [0.5, 1): the leading bit is 2^(exp - 1)
  const double quantum = std::ldexp(1.0, std::max(exp - 1, min_exp) - mantissa);
  const double r = std::nearbyint(v / quantum) * quantum;  // the default rounding mode: to nearest even
  return std::fabs(r) > max_finite ? std::copysign(std::numeric_limits<double>::infinity(), v) : r;
}

/// Input i over its own extents: the caller's tensor (a slice's: its last extent `blocks` times the input's, the
/// block's offset in the base) in the input's layout, or a reversed view's mirror (row-major, last stride -1).
TensorWalk own_walk(const RefCall& call, size_t i, const double* data, int64_t* caller_length) {
  const MemOpConfig& m = *call.m;
  const TensorDecl& in = m.inputs[i];
  std::vector<int64_t> extents = call.extents(in);
  TensorWalk w;
  w.data = data;
  if (m.reversed_of(i)) {
    w.stride = memory_strides(extents, Layout::row);
    if (!extents.empty()) {
      w.stride.back() = -1;
      w.base = extents.back() - 1;
    }
    *caller_length = element_count(extents);
    return w;
  }
  const ColumnSlice* slice = m.slice_of(i);
  std::vector<int64_t> caller = extents;
  if (slice && !caller.empty()) caller.back() *= slice->blocks.value;
  w.stride = memory_strides(caller, in.layout.value);
  if (slice && !caller.empty()) w.base = slice->block.value * extents.back() * w.stride.back();
  *caller_length = element_count(caller);
  return w;
}

/// `own` read over `domain`, aligned on the right: a missing extent, or one of 1 where the domain's is not,
/// repeats (stride 0); any other must equal the domain's there (C704). "" or why not.
std::string broadcast(const TensorDecl& in, const std::vector<int64_t>& extents, const TensorWalk& own,
                      const std::vector<int64_t>& domain, TensorWalk& out) {
  if (extents.size() > domain.size())
    return fmt::format("input `{}` has {} extents, more than the {} it is read over", in.name.value,
                       extents.size(), domain.size());
  out = own;
  out.stride.assign(domain.size(), 0);
  const size_t lead = domain.size() - extents.size();
  for (size_t d = lead; d < domain.size(); ++d) {
    const int64_t n = extents[d - lead];
    if (n == 1 && domain[d] != 1) continue;
    if (n != domain[d])
      return fmt::format("input `{}`'s extent {} is {}, where the kernel's is {} (neither equal nor 1)",
                         in.name.value, d - lead, n, domain[d]);
    out.stride[d] = own.stride[d - lead];
  }
  return "";
}

}  // namespace

std::vector<int64_t> RefCall::extents(const TensorDecl& t) const {
  std::vector<int64_t> out;
  for (const Extent& e : t.dims) out.push_back(size(e));
  return out;
}

void RefCall::operands(const int64_t* coord, std::vector<double>& out) const {
  const size_t inputs = m->inputs.size();
  out.resize(inputs + fixed_operands.size());
  for (size_t i = 0; i < inputs; ++i) out[i] = coord && over_domain[i].data ? over_domain[i].at(coord) : kNaN;
  std::copy(fixed_operands.begin(), fixed_operands.end(), out.begin() + std::ptrdiff_t(inputs));
}

double RefCall::chain(double x, const std::vector<double>& operands) const {
  for (const EpiOp& op : m->chain) {
    switch (epi_info(op.kind).category) {
      case EpiCategory::activation: {
        double p[2] = {0, 0};
        for (size_t k = 0; k < op.params.size() && k < 2; ++k) {
          bool scalar = k < op.param_operands.size() && op.param_operands[k] >= 0;
          p[k] = scalar ? operands[static_cast<size_t>(op.param_operands[k])] : op.params[k];
        }
        x = ref::activation(op.kind, x, p[0], p[1]);
        break;
      }
      case EpiCategory::expr:
        x = ref::expr_eval(op.expr->postfix.data(), int(op.expr->postfix.size()), x, operands.data(),
                           int(operands.size()));
        break;
      case EpiCategory::cast: x = round_to_dtype(x, op.dtype.value); break;
      default: break;  // the store; memop_reference_unsupported refuses every other stage
    }
  }
  return x;
}

double RefCall::of(const EpiExpr* expr, const std::vector<double>& operands) const {
  if (!expr) return operands[0];
  return ref::expr_eval(expr->postfix.data(), int(expr->postfix.size()), operands[0], operands.data(),
                        int(operands.size()));
}

std::string resolve_call(const MemOpConfig& m, const MemOpHostArgs& args, RefCall& out) {
  out.m = &m;
  const std::vector<std::string> symbols = m.extent_symbols();
  const std::vector<CallerTensor> callers = m.caller_inputs();
  if (args.inputs.size() != callers.size() || args.scalars.size() != m.scalars.size() ||
      args.extents.size() != symbols.size())
    return fmt::format("`{}` takes {} tensors, {} scalars and {} extents; the call passes {}, {} and {}",
                       m.name.value, callers.size(), m.scalars.size(), symbols.size(), args.inputs.size(),
                       args.scalars.size(), args.extents.size());
  for (size_t k = 0; k < symbols.size(); ++k) {
    if (args.extents[k] < 0) return fmt::format("extent `{}` is negative ({})", symbols[k], args.extents[k]);
    out.sizes[symbols[k]] = args.extents[k];
  }
  for (const TensorDecl& t : m.inputs)
    for (const Extent& e : t.dims)
      if (!e.fixed() && !out.sizes.count(e.symbol))
        return fmt::format("input `{}`'s extent `{}` has no value", t.name.value, e.symbol);
  for (size_t s = 0; s < m.scalars.size(); ++s)  // the kernel reads each in f32, converted from its own type
    out.scalars.push_back(round_to_dtype(round_to_dtype(args.scalars[s], DType::f32), m.scalars[s].dtype.value));
  out.fixed_operands = out.scalars;
  const std::vector<std::string> names = m.operand_names();
  for (size_t k = m.inputs.size() + m.scalars.size(); k < names.size(); ++k)
    out.fixed_operands.push_back(double(out.sizes.at(names[k])));
  out.domain = out.extents(m.domain());
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const std::string& name = m.caller_name(i);
    auto caller = std::find_if(callers.begin(), callers.end(), [&](const CallerTensor& t) { return t.name == name; });
    const size_t c = size_t(caller - callers.begin());
    int64_t length = 0;
    out.own.push_back(own_walk(out, i, args.inputs[c].data(), &length));
    if (int64_t(args.inputs[c].size()) < length)
      return fmt::format("tensor `{}` holds {} elements; its extents need {}", name, args.inputs[c].size(), length);
    TensorWalk over;
    const bool weights = m.window && m.window->weights == i;  // read by tap, not over the domain
    std::string e = weights ? "" : broadcast(m.inputs[i], out.extents(m.inputs[i]), out.own.back(), out.domain, over);
    if (!e.empty()) return e;
    out.over_domain.push_back(over);
  }
  return "";
}

std::vector<int64_t> memory_strides(const std::vector<int64_t>& extents, Layout layout) {
  std::vector<int64_t> stride(extents.size(), 0);
  std::vector<size_t> order = memory_order(extents.size(), layout);
  int64_t running = 1;
  for (size_t k = order.size(); k-- > 0;) {
    stride[order[k]] = running;
    running *= extents[order[k]];
  }
  return stride;
}

void coordinates(int64_t k, const std::vector<int64_t>& extents, Layout layout, int64_t* coord) {
  const size_t rank = extents.size();
  const bool swap = rank >= 2 && layout == Layout::col;  // memory_order's: the last two extents swapped
  for (size_t j = rank; j-- > 0;) {
    const size_t d = swap && j >= rank - 2 ? 2 * rank - 3 - j : j;
    const int64_t n = extents[d];
    coord[d] = n > 0 ? k % n : 0;
    k = n > 0 ? k / n : 0;
  }
}

int64_t element_count(const std::vector<int64_t>& extents) {
  int64_t n = 1;
  for (int64_t e : extents) n *= e;
  return n;
}

double round_to_dtype(double v, DType t) {
  switch (t) {
    case DType::f32: return static_cast<double>(static_cast<float>(v));
    case DType::bf16: return round_binary(v, 7, -126, 0x1.fep127);
    case DType::f16: return round_binary(v, 10, -14, 65504.0);
    default: return v;  // f64; an index (i32) is whole already; memop_reference_unsupported refuses the others
  }
}

}  // namespace ucut::memref
