// eval/memop_ref_map.cpp — the reference of a `map` (ir/memop.h): per element of the output, the chain applied to
// the first input there, reading every input (broadcast) and scalar. A transposing map's output has the first
// input's extents in the other layout, so its element at logical [i, j] is the input's at [i, j] too. A rotary
// map's first input is turned in pairs first (RoPE), the angle in double; its bound is what the kernel's f32 angle
// may honestly miss by.
#include <cmath>

#include "eval/memop_ref_call.h"
#include "support/parallel_for.h"

namespace ucut::memref {
namespace {

/// The rotation of a rotary map at `coord` (row-major [.., R, D]): the first input there turned with its pair
/// partner, and the kernel's own error bound. The kernel computes in f32 the exponent e = −col/D·log2(base)
/// (a few ulps), 2^e (its relative error grows by ln 2·|e| ulps), the angle = position·2^e and its sine and
/// cosine (a couple of ulps each): |Δangle| ≤ u·angle·(3·|e| + 3), and the turned value moves by at most
/// (|x| + |partner|)·(|Δangle| + 4u), u = 2^−24.
struct Turned {
  double value, bound;
};
Turned turn(const RefCall& call, std::vector<int64_t>& coord, std::vector<double>& operands, double base) {
  const size_t r = coord.size();
  const int64_t cols = call.domain[r - 1], col = coord[r - 1], even = col & ~int64_t(1);
  call.operands(coord.data(), operands);
  const double x = operands[0];
  coord[r - 1] = col ^ 1;
  call.operands(coord.data(), operands);
  const double partner = operands[0];
  coord[r - 1] = col;
  const double exponent = -double(even) / double(cols) * std::log2(base);
  const double angle = double(coord[r - 2]) * std::exp2(exponent);
  const double c = std::cos(angle), s = std::sin(angle);
  const double value = col == even ? x * c - partner * s : partner * s + x * c;
  const double u = std::ldexp(1.0, -24);
  const double bound = (std::fabs(x) + std::fabs(partner)) * (u * angle * (3 * std::fabs(exponent) + 3) + 4 * u);
  return {value, bound};
}

}  // namespace

std::string map_reference(const RefCall& call, std::vector<std::vector<double>>& outputs,
                          std::vector<std::vector<double>>& bounds) {
  const MemOpConfig& m = *call.m;
  const TensorDecl& out = m.output();
  const std::vector<int64_t> extents = call.domain;  // the output's, or a transpose's first input's
  std::vector<double>& y = outputs.emplace_back(size_t(element_count(extents)));
  double base = 0;
  if (m.rotary) {
    if (extents.size() < 2 || extents.back() % 2 != 0) return "a rotation turns pairs: the rows need an even length";
    const ScalarOrNumber& b = *m.rotary;
    if (b.scalar.empty()) {
      base = b.value;
    } else {
      for (size_t s = 0; s < m.scalars.size(); ++s)
        if (m.scalars[s].name.value == b.scalar) base = call.scalars[s];
    }
    if (!(base > 0)) return "the rotation's base is not positive";
  }
  std::vector<double>* bound = m.rotary ? &bounds.emplace_back(y.size()) : nullptr;
  parallel_for(int64_t(y.size()), [&](int64_t begin, int64_t end) {
    std::vector<int64_t> coord(extents.size());
    std::vector<double> operands;
    for (int64_t k = begin; k < end; ++k) {
      coordinates(k, extents, out.layout.value, coord.data());
      if (!m.rotary) {
        call.operands(coord.data(), operands);
        y[size_t(k)] = call.chain(operands[0], operands);
        continue;
      }
      const Turned t = turn(call, coord, operands, base);
      call.operands(coord.data(), operands);  // the other inputs at the element
      y[size_t(k)] = call.chain(t.value, operands);
      (*bound)[size_t(k)] = chained_error([&](double v) { return call.chain(v, operands); }, t.value, t.bound);
    }
  });
  return "";
}

}  // namespace ucut::memref
