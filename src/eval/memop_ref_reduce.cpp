// eval/memop_ref_reduce.cpp — the reference of a `reduce` (ir/memop.h ReduceSpec): per element of the kept
// extents (one value for a full reduction), the values `of` the elements along the reduced extents (row-major
// over them; times Simpson's weight by index with `weights = simpson`) combined by `op`, the chain applied to
// the result. Sums are compensated; max and min skip NaN (fmax, as the kernel's fmaxf); argmax and argmin keep
// the first largest or smallest, a NaN counting as both (torch); logsumexp is max + log Σ exp(value - max) in
// double, the max running and the sum rescaled when it grows (a NaN gives NaN, a +inf +inf, only -inf -inf, as
// torch.logsumexp). A full reduction combines chunks of its elements on several threads, in chunk order.
#include <algorithm>
#include <cmath>

#include "eval/memop_ref_call.h"
#include "problem/tolerance.h"
#include "support/parallel_for.h"

namespace ucut::memref {
namespace {

/// Composite Simpson's weight of element i of n: 1, 4, 2, 4, ..., 2, 4, 1 up to the largest index at an even
/// distance from 0, 0 past it (emit/memory/reduce_body.cpp's weight, in double).
double simpson_weight(int64_t i, int64_t n) {
  const int64_t last = ((n - 3) & ~int64_t(1)) + 2;
  if (n < 3 || i > last) return 0.0;
  if (i == 0 || i == last) return 1.0;
  return (i & 1) ? 4.0 : 2.0;
}

/// The values of one output combined so far (over a run of reduced indices).
struct Partial {
  explicit Partial(ReduceOp op)
      : op(op),
        best(op == ReduceOp::max || op == ReduceOp::logsumexp ? -INFINITY
             : op == ReduceOp::min                            ? INFINITY
                                                              : 0.0) {}
  ReduceOp op;
  CompensatedSum sum;
  CompensatedSum magnitude;  // sum, mean: Σ|value|, the scale of an f32 summation's error
  double best;         // max, min, logsumexp: from the identity (-inf, +inf); argmax, argmin: the value at `index`
  int64_t index = -1;  // argmax, argmin: where `best` is; -1 before the first value
  double exps = 0.0;   // logsumexp: Σ exp(value - best)

  bool summed() const { return op == ReduceOp::sum || op == ReduceOp::mean; }
  /// logsumexp: adds values whose largest is `max` and whose Σ exp(value - max) is `s`.
  void add_exps(double max, double s) {
    if (std::isnan(best) || std::isnan(max)) {
      best = NAN;
    } else if (max == -INFINITY) {
      return;  // exp(-inf) = 0
    } else if (best == INFINITY || max == INFINITY) {  // +inf absorbs any finite value
      best = INFINITY;
      exps = 1.0;
    } else if (max > best) {
      exps = exps * std::exp(best - max) + s;
      best = max;
    } else {
      exps += s * std::exp(max - best);
    }
  }
  void add(double v, int64_t i) {
    if (op == ReduceOp::logsumexp) {
      add_exps(v, 1.0);
    } else if (summed()) {
      sum.add(v);
      magnitude.add(std::fabs(v));
    } else if (op == ReduceOp::max || op == ReduceOp::min) {
      best = op == ReduceOp::max ? std::fmax(best, v) : std::fmin(best, v);
    } else if (index < 0 ||
               (!std::isnan(best) && (std::isnan(v) || (op == ReduceOp::argmax ? v > best : v < best)))) {
      best = v;  // the first largest (smallest) stays: a later one must beat it, and nothing beats a NaN
      index = i;
    }
  }
  /// Adds `later`, which covers indices after this one's.
  void add(const Partial& later) {
    if (summed()) {
      sum.add(later.sum);
      magnitude.add(later.magnitude);
    } else if (op == ReduceOp::logsumexp)
      add_exps(later.best, later.exps);
    else if (is_arg_op(op) && later.index < 0)
      return;
    else
      add(later.best, later.index);
  }
  double result(int64_t count) const {
    if (op == ReduceOp::sum) return sum.value();
    if (op == ReduceOp::mean) return sum.value() / double(count);
    if (op == ReduceOp::logsumexp) return best + std::log(exps);  // -inf when nothing but -inf: log 0
    return is_arg_op(op) ? double(index) : best;
  }
  /// How far an f32 kernel's result may stray from result(): a sum's accumulation_eps(count)·Σ|value| (a mean's
  /// divided by count), a logsumexp's accumulation_eps(count) (the log of a sum of positive terms); 0 otherwise.
  double summation_error(int64_t count) const {
    if (op == ReduceOp::sum) return accumulation_eps(count) * magnitude.value();
    if (op == ReduceOp::mean) return accumulation_eps(count) * magnitude.value() / double(count);
    if (op == ReduceOp::logsumexp) return accumulation_eps(count);
    return 0.0;
  }
};

}  // namespace

std::string reduce_reference(const RefCall& call, std::vector<std::vector<double>>& outputs,
                             std::vector<std::vector<double>>& bounds) {
  const MemOpConfig& m = *call.m;
  const ReduceSpec& r = *m.reduce;
  const ReduceAxes axes = reduce_axes(m);
  std::vector<int64_t> kept, reduced;
  for (size_t d : axes.kept) kept.push_back(call.domain[d]);
  for (size_t d : axes.reduced) reduced.push_back(call.domain[d]);
  const int64_t count = element_count(reduced);
  const bool simpson = r.weights.value == ReduceWeights::simpson;
  // Combines reduced indices [begin, end) of the output whose kept coordinates `coord` holds.
  auto combine = [&](std::vector<int64_t>& coord, int64_t begin, int64_t end, std::vector<double>& operands) {
    Partial p{r.op.value};
    std::vector<int64_t> inner(reduced.size());
    for (int64_t i = begin; i < end; ++i) {
      coordinates(i, reduced, Layout::row, inner.data());
      for (size_t k = 0; k < axes.reduced.size(); ++k) coord[axes.reduced[k]] = inner[k];
      call.operands(coord.data(), operands);
      double v = call.of(r.of.get(), operands);
      p.add(simpson ? v * simpson_weight(i, count) : v, i);
    }
    return p;
  };
  const int64_t outs = element_count(kept);
  std::vector<double>& y = outputs.emplace_back(size_t(outs));
  const bool bounded = r.op.value == ReduceOp::sum || r.op.value == ReduceOp::mean || r.op.value == ReduceOp::logsumexp;
  std::vector<double>& bound = bounds.emplace_back(bounded ? size_t(outs) : 0);
  // Output k: the chain of p's result, and its summation error through the chain.
  auto finish = [&](const Partial& p, std::vector<double>& operands, int64_t k) {
    call.operands(nullptr, operands);
    const double result = p.result(count);
    if (bounded)
      bound[size_t(k)] = chained_error([&](double x) { return call.chain(x, operands); }, result,
                                       p.summation_error(count));
    y[size_t(k)] = call.chain(result, operands);
  };
  if (axes.kept.empty()) {  // one value: chunks of the elements on the threads, combined in order
    const int64_t chunk = 1 << 16, chunks = (count + chunk - 1) / chunk;
    std::vector<Partial> partials(size_t(chunks), Partial{r.op.value});
    parallel_for(chunks, [&](int64_t begin, int64_t end) {
      std::vector<int64_t> coord(call.domain.size());
      std::vector<double> operands;
      for (int64_t c = begin; c < end; ++c)
        partials[size_t(c)] = combine(coord, c * chunk, std::min(count, (c + 1) * chunk), operands);
    });
    Partial all{r.op.value};
    for (const Partial& p : partials) all.add(p);
    std::vector<double> operands;
    finish(all, operands, 0);
    return "";
  }
  const Layout layout = m.output().layout.value;
  parallel_for(outs, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> coord(call.domain.size()), at(kept.size());
    std::vector<double> operands;
    for (int64_t k = begin; k < end; ++k) {
      coordinates(k, kept, layout, at.data());
      for (size_t j = 0; j < axes.kept.size(); ++j) coord[axes.kept[j]] = at[j];
      finish(combine(coord, 0, count, operands), operands, k);
    }
  });
  return "";
}

}  // namespace ucut::memref
