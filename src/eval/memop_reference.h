// eval/memop_reference.h — the harness's independent CPU reference of a memory-bound family kernel (ir/memop.h):
// every output of one call computed in double from the MemOpConfig alone, never from emitted code. Covers `map`
// (broadcast inputs, `slice` column blocks, `reverse` views, transposes, rotations), `reduce` (full and per-axis;
// sum, mean, max, min, argmax, argmin, logsumexp; Simpson weights; the sizes as operands), `rownorm` (softmax,
// log_softmax, layer, rms, l1, l2 over any `over`), `scan` (sum, prod, max, min; exclusive, reverse) and `window` (star
// stencils; boxes with `valid` or `clip` edges, sizes, strides, pads, weights; sum or max). `of =` and the `>>`
// chain are evaluated with the formulas of ir/epilogue_math.h (ir/epilogues.def), as the GEMM reference does.
// Not covered (an error says so): library calls (`sort`, `topk`, `fft`, `attention`) and `sparse` kernels; MSKB's task
// references verify those.
//
// Precision: values, statistics and accumulations in double (sums compensated); each output rounded once, at
// the end, to its declared type (bf16, f16, f32; i32 for an arg index), as the kernel's store rounds, and a
// `cast(T)` stage rounds where it stands. Scalars are read as the kernel reads them: rounded to f32 (and to
// their declared 16-bit type). Inputs are taken as given: the caller passes values of each input's type.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/memop.h"

namespace ucut {

/// One call's host arguments, in the order of the kernel's ucut_memop_api (emit/memory/memop_api.cpp).
struct MemOpHostArgs {
  /// The caller's tensors (MemOpConfig::caller_inputs order: a slice's or a reversed view's tensor, not the
  /// view), each in memory order of its declared extents and layout (a slice's tensor: its last extent `blocks`
  /// times the input's).
  std::vector<std::span<const double>> inputs;
  std::vector<double> scalars;   // MemOpConfig::scalars order
  std::vector<int64_t> extents;  // MemOpConfig::extent_symbols order
};

/// Whether memop_reference rounds each output to its declared type (what the kernel stores) or leaves it in
/// double (to compare with another FP64 reference).
enum class OutputRounding { declared_type, none };

struct MemOpReference {
  /// MemOpConfig::outputs order, each in memory order of its extents and layout (a transposing map's output:
  /// row-major [N, M]).
  std::vector<std::vector<double>> outputs;
  /// Per output, per element: how far an f32 kernel's own summation may honestly stray from the exact value —
  /// a sum's or mean's accumulation_eps(count)·Σ|x_j| (a logsumexp's accumulation_eps(count), the error of the
  /// log of its sum), carried through the `>>` chain after it (the larger change of the chain's value at r ± that).
  /// A rotary map's: what its f32 angle may miss by (eval/memop_ref_map.cpp), carried through the chain likewise.
  /// Empty for an output computed without either (other maps, max/min/arg reductions, windows; rownorm and scan
  /// are checked on the tolerance alone).
  std::vector<std::vector<double>> bounds;
  std::string error;  // why nothing was computed; empty on success
  bool ok() const { return error.empty(); }
};

/// Why memop_reference cannot compute `m` (a library call, a sparse kernel, a stage a family chain never
/// holds), or "" when it can.
std::string memop_reference_unsupported(const MemOpConfig& m);

/// Every output of `m` for `args`, on the CPU's hardware threads; an error (never a crash) for a kernel it does
/// not cover or arguments that do not fit the spec (a count, a missing extent, a tensor too short).
MemOpReference memop_reference(const MemOpConfig& m, const MemOpHostArgs& args,
                               OutputRounding rounding = OutputRounding::declared_type);

}  // namespace ucut
