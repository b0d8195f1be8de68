// eval/memop_ref_call.h — what the family references (eval/memop_ref_*.cpp) share: one call of a family kernel
// resolved against its MemOpConfig (extents by symbol, scalars as the kernel reads them, each input as strides
// over the index space it is read in, its `slice`, `reverse` and broadcast applied), the `>>` chain and `of`
// evaluated with ir/epilogue_math.h, and rounding to a declared type. Internal to eval/memop_reference.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eval/memop_reference.h"

namespace ucut::memref {

/// How to read a tensor at logical coordinates of an index space: memory index = base + Σ coord[d]·stride[d].
struct TensorWalk {
  const double* data = nullptr;
  int64_t base = 0;
  std::vector<int64_t> stride;  // per dimension of the index space; 0 where the tensor repeats
  double at(const int64_t* coord) const {
    int64_t k = base;
    for (size_t d = 0; d < stride.size(); ++d) k += coord[d] * stride[d];
    return data[k];
  }
};

/// One call of `m`, resolved (resolve_call).
struct RefCall {
  const MemOpConfig* m = nullptr;
  std::map<std::string, int64_t> sizes;  // every extent symbol and run-time int, by name
  std::vector<double> scalars;           // rounded as the kernel reads them
  std::vector<double> fixed_operands;    // the operands no element changes: the scalars, then a reduce's sizes
  std::vector<int64_t> domain;           // the extents of m->domain(), logical order
  /// Per input, over its own extents (a slice's block, a reversed view's mirror); `over_domain` over `domain`,
  /// broadcast (no data for a window's weights, which are read by tap).
  std::vector<TensorWalk> own, over_domain;

  int64_t size(const Extent& e) const { return e.fixed() ? e.size : sizes.at(e.symbol); }
  std::vector<int64_t> extents(const TensorDecl& t) const;
  /// Fills `out` with the operands the chain and `of` read, in MemOpConfig::operand_names order: the inputs at
  /// `coord` of the domain (NaN where `coord` is null: a chain after a reduction reads no input), the scalars, a
  /// reduce's sizes.
  void operands(const int64_t* coord, std::vector<double>& out) const;
  /// The `>>` chain applied to x (activations, expr, cast; the store converts later).
  double chain(double x, const std::vector<double>& operands) const;
  /// An `of = expr` at one element, whose `x` is the first input there; the first input itself without one.
  double of(const EpiExpr* expr, const std::vector<double>& operands) const;
};

/// Fills `out` from `args`; an error ("" on success) for arguments that do not fit `m`.
std::string resolve_call(const MemOpConfig& m, const MemOpHostArgs& args, RefCall& out);

/// The memory strides of a tensor of logical `extents` in `layout`, per logical dimension.
std::vector<int64_t> memory_strides(const std::vector<int64_t>& extents, Layout layout);
/// The logical coordinates of memory index k of a tensor of logical `extents` in `layout`.
void coordinates(int64_t k, const std::vector<int64_t>& extents, Layout layout, int64_t* coord);
int64_t element_count(const std::vector<int64_t>& extents);

/// v as a `t` holds it: rounded to nearest even (f32, bf16, f16; overflow to inf), an index as is.
double round_to_dtype(double v, DType t);

/// Neumaier's compensated sum: a long f32 kernel sum is compared with it, not with a drifting double one.
struct CompensatedSum {
  double sum = 0, carry = 0;
  void add(double v) {
    double t = sum + v;
    carry += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  void add(const CompensatedSum& o) {
    add(o.sum);
    carry += o.carry;
  }
  double value() const { return sum + carry; }
};

/// The larger change of `chain` at r when r moves by ±e: an f32 computation's own error e at r (a long sum's, a
/// rotation's angle) as the output holds it.
template <class Chain>
double chained_error(const Chain& chain, double r, double e) {
  if (e == 0.0 || !std::isfinite(r)) return 0.0;
  const double y = chain(r);
  return std::max(std::fabs(chain(r + e) - y), std::fabs(chain(r - e) - y));
}

/// The family references: each sizes and fills the outputs of `call` (MemOpConfig::outputs order, memory
/// order), or returns why it cannot. map_reference also sizes and fills `bounds` (MemOpReference::bounds) for a
/// rotary map.
std::string map_reference(const RefCall& call, std::vector<std::vector<double>>& outputs,
                          std::vector<std::vector<double>>& bounds);
/// reduce_reference also sizes and fills `bounds` (MemOpReference::bounds) for a sum, mean or logsumexp.
std::string reduce_reference(const RefCall& call, std::vector<std::vector<double>>& outputs,
                             std::vector<std::vector<double>>& bounds);
std::string rownorm_reference(const RefCall& call, std::vector<std::vector<double>>& outputs);
std::string scan_reference(const RefCall& call, std::vector<std::vector<double>>& outputs);
std::string window_reference(const RefCall& call, std::vector<std::vector<double>>& outputs);

}  // namespace ucut::memref
