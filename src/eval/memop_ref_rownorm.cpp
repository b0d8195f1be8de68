// eval/memop_ref_rownorm.cpp — the reference of a `rownorm` (ir/memop.h NormSpec): the first input normalized
// along its extents `over`, with statistics in double per index of the others (two passes: the statistics, then
// each element), the chain applied to each normalized element (reading the inputs there, the first one before
// normalization, and the scalars), stored at the element's place in the output (the first input's extents).
#include <cmath>

#include "eval/memop_ref_call.h"
#include "support/parallel_for.h"

namespace ucut::memref {
namespace {

/// What a norm needs of its elements' values.
struct Stats {
  double max = -INFINITY;        // softmax, log_softmax
  CompensatedSum sum, sum_sq;    // Σx, Σx² (layer's squared deviations in its second pass), Σ|x| (l1)
  CompensatedSum exp_sum;        // Σ exp(x − max)
};

/// The normalized value of x given the statistics of its `count` elements.
double normalize(NormKind norm, double x, const Stats& s, int64_t count, double eps) {
  const double n = double(count);
  switch (norm) {
    case NormKind::softmax: return std::exp(x - s.max) / s.exp_sum.value();
    case NormKind::log_softmax: return x - s.max - std::log(s.exp_sum.value());
    case NormKind::layer: return (x - s.sum.value() / n) / std::sqrt(s.sum_sq.value() / n + eps);
    case NormKind::rms: return x / std::sqrt(s.sum_sq.value() / n + eps);
    case NormKind::l1: return x / s.sum.value();
    case NormKind::l2: return x / std::sqrt(s.sum_sq.value());
  }
  return x;
}

}  // namespace

std::string rownorm_reference(const RefCall& call, std::vector<std::vector<double>>& outputs) {
  const MemOpConfig& m = *call.m;
  const NormSpec& spec = *m.norm;
  const NormKind norm = spec.norm.value;
  std::vector<size_t> over_dims, other_dims;
  std::vector<bool> normalized(call.domain.size(), false);
  for (const Spanned<std::string>& sym : spec.over) {
    size_t d = 0;
    while (d < m.input().dims.size() && m.input().dims[d].symbol != sym.value) ++d;
    if (d == m.input().dims.size()) return "`over` names `" + sym.value + "`, no extent of the first input";
    normalized[d] = true;
  }
  std::vector<int64_t> over_extents, other_extents;
  for (size_t d = 0; d < call.domain.size(); ++d) {
    (normalized[d] ? over_dims : other_dims).push_back(d);
    (normalized[d] ? over_extents : other_extents).push_back(call.domain[d]);
  }
  double eps = 0;
  if (spec.eps) {
    eps = spec.eps->value;
    for (size_t s = 0; s < m.scalars.size(); ++s)
      if (m.scalars[s].name.value == spec.eps->scalar) eps = call.scalars[s];
  }
  const int64_t count = element_count(over_extents);
  const std::vector<int64_t> out_stride = memory_strides(call.domain, m.output().layout.value);
  std::vector<double>& y = outputs.emplace_back(size_t(element_count(call.domain)));
  parallel_for(element_count(other_extents), [&](int64_t begin, int64_t end) {
    std::vector<int64_t> coord(call.domain.size()), at(other_dims.size()), inner(over_dims.size());
    std::vector<double> operands;
    // Visits the group's elements, row-major over `over`, with `coord` set to each.
    auto each = [&](auto&& visit) {
      for (int64_t i = 0; i < count; ++i) {
        coordinates(i, over_extents, Layout::row, inner.data());
        for (size_t k = 0; k < over_dims.size(); ++k) coord[over_dims[k]] = inner[k];
        visit(call.own[0].at(coord.data()));
      }
    };
    for (int64_t g = begin; g < end; ++g) {
      coordinates(g, other_extents, Layout::row, at.data());
      for (size_t k = 0; k < other_dims.size(); ++k) coord[other_dims[k]] = at[k];
      Stats s;
      each([&](double x) {
        s.max = std::fmax(s.max, x);
        s.sum.add(norm == NormKind::l1 ? std::fabs(x) : x);
        if (norm != NormKind::layer) s.sum_sq.add(x * x);
      });
      if (norm == NormKind::softmax || norm == NormKind::log_softmax)
        each([&](double x) { s.exp_sum.add(std::exp(x - s.max)); });
      if (norm == NormKind::layer) {
        const double mean = s.sum.value() / double(count);
        each([&](double x) { s.sum_sq.add((x - mean) * (x - mean)); });
      }
      for (int64_t i = 0; i < count; ++i) {
        coordinates(i, over_extents, Layout::row, inner.data());
        for (size_t k = 0; k < over_dims.size(); ++k) coord[over_dims[k]] = inner[k];
        call.operands(coord.data(), operands);
        int64_t k = 0;
        for (size_t d = 0; d < coord.size(); ++d) k += coord[d] * out_stride[d];
        y[size_t(k)] = call.chain(normalize(norm, operands[0], s, count, eps), operands);
      }
    }
  });
  return "";
}

}  // namespace ucut::memref
