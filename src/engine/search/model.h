// engine/search/model.h — the proposer's performance model: relative kernel time from the config and the problem's
// GEMM extents, so moves can be ranked before anything is built. Deliberately simple; only ratios are used.
//
//   time ∝ 1 / (padding · wave · mainloop · overlap · math)
//   padding   the useful share of the multiply-adds the tiles execute: M, N and K rounded up to whole tiles, K per
//             contiguous run (an implicit-GEMM convolution walks one filter tap's channels at a time, so C = 8 under
//             tile K 32 runs four times the MACs it needs)
//   wave      output tiles (rounded up to whole clusters) over the SMs: units / (ceil(units / SMs) · SMs); split-K s
//             makes tiles·s units and pays 2% per split for the partial-sum reduction; stream-K spreads the K
//             iterations over every SM (units = tiles · K/tile K) and pays 7% for its fix-up, and is never worse than
//             the data-parallel schedule it falls back to
//   mainloop  by bottleneck class:
//     compute            SM90: (I / I_128x256)^0.3 with I = tm·tn/(tm+tn), the tile's FLOPs per byte of operand
//                        load; × 0.90 without a cluster (no TMA multicast); × 0.97 pingpong on tile M ≥ 128
//                        (facts/h200.md: 128x256 cooperative 2x1 0.99 of cuBLAS, 128x128 pingpong 2x1 0.94,
//                        128x128 1x1 0.73).
//                        2.x: the same reuse term on the warp tile, against the largest warp tile within the
//                        register budget (32x64 for 3xTF32, 64x64 otherwise); × register pressure
//                        (budget / accumulators per thread)^0.6 above the budget of 64 accumulators per thread for
//                        3xTF32 (its big and small operand halves take the rest) and 128 otherwise; × (K-tile bytes
//                        / 128)^0.05 below 128 bytes. Measured on the H200 (bench/results/search): 3xTF32 64x64 warp
//                        tiles run at 0.59-0.65 of the speed of 32x64 ones, 32x32 at 0.90, K 16 at 0.97.
//     memory_bandwidth   operand traffic ∝ 1/(tn·cn) + 1/(tm·cm) (multicast shares A across cn CTAs, B across cm),
//                        as a square root; + 3% per swizzle doubling when the grid spans several waves
//     memory_latency     bytes in flight per SM: min(1, resident CTAs·(stages − 1)·K-tile bytes / 384)^0.5 (three
//                        128-byte stages of K ahead hide DRAM latency)
//     unknown            the geometric mean of the three
//   overlap   whether a tile's epilogue hides under mainloop work: its stores weigh e = tm·tn / ((tm+tn)·tk) K
//             iterations (output bytes against one stage's operand bytes); with one CTA per SM (shared memory) and
//             a non-pingpong schedule the K loop's k iterations and the epilogue run back to back, max(k, e)/(k + e);
//             with two or more resident CTAs, or pingpong, 1. Negligible for long K loops, large for short ones
//             (bench/results/smoke/conv_tiles: a 3x3 convolution over 8 channels, K = 72, ran 10% faster at 2
//             stages than at auto; a 1x1 one over 64 channels on 64x64 tiles 2.3x faster)
//   math      tf32x3 runs three TF32 products per multiply-add: 1/3 (compute and unknown classes). f32 operands
//             converted to 16 bits (`from`) pay a conversion pass over A and B before every run, c of the measured
//             kernel's time (Context::conversion_share: 6 bytes per element at DRAM bandwidth; 0.05 when unknown):
//             compute-bound the products then run at twice TF32's rate, 1/(0.5 + c) (L1_001: c = 0.11 predicts
//             1.64x, measured 1.64x); any other class gains nothing from the faster products and pays the pass,
//             1/(1 + c) (bench/results/optimize_1e-2_half: bf16 lost on matvec, large-K and batched shapes).
//             One operand converted in the mainloop (`from(f32, mainloop)`) leaves the pass over the other one
//             (c times its share of A's and B's elements) and slows the products by 1 + 0.52·128/(tile N), 4x
//             that on the cooperative kernel (the mixed-input mainloop converts a tile per K step)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "problem/problem.h"
#include "ir/kernel_config.h"
#include "sol/bottleneck.h"

namespace ucut::search {

/// One GEMM (or implicit GEMM) of the problem: m × n × k, `count` times (a batch). `k_run` is the part of K the
/// mainloop walks contiguously before it rounds up to the next tile: a convolution's channels per filter tap (fprop:
/// C/G, dgrad: K/G), all of K otherwise (0 means k).
struct GemmExtent {
  int64_t m = 0, n = 0, k = 0, count = 1, k_run = 0;
};

/// The channels a K step of a convolution kernel covers when `pad` copies X: C with `fold` filter dimensions
/// unrolled into it (the innermost first), rounded up to `per16` elements (16 bytes).
int64_t copied_channels(const ConvShape& c, int fold, int per16);

/// The GEMMs of the problem's costliest shape (a grouped shape's problems; a convolution's implicit GEMM); empty
/// without a problem. With `kernel`, a convolution's GEMM is the one that kernel runs: over its padded (and folded)
/// copy of X, or for a transposed convolution on sm90a its output phases' (transposed_phases.h) as one GEMM.
std::vector<GemmExtent> workload(const Problem* problem, const KernelConfig* kernel = nullptr);

/// Output tiles of `cfg` over the workload (clusters rounded up), and the wave efficiency on `sm_count` SMs.
int64_t output_tiles(const KernelConfig& cfg, const std::vector<GemmExtent>& work);
double wave_efficiency(const KernelConfig& cfg, const std::vector<GemmExtent>& work, int sm_count);

/// The useful share of the multiply-adds `cfg`'s tiles execute over the workload (1 when every extent is a multiple
/// of its tile; 1 without a workload).
double padding_efficiency(const KernelConfig& cfg, const std::vector<GemmExtent>& work);

/// A 2.x kernel's register pressure: 1 while its warp tile's accumulators fit the math's budget (64 per thread for
/// 3xTF32, 128 otherwise), below 1 above it; 1 on SM90 (its accumulators live in the warpgroup's registers by design).
double register_efficiency(const KernelConfig& cfg);

/// The mainloop stages the kernel runs: the spec's count, or what `auto` gets from the shared-memory model.
int effective_stages(const KernelConfig& cfg);

/// CTAs of `cfg` one SM holds by shared memory (at least 1).
int resident_ctas(const KernelConfig& cfg);

/// The memory_latency mainloop term (see above).
double latency_efficiency(const KernelConfig& cfg);

/// K-loop iterations of one output tile over the workload (the longest), a convolution's per-tap runs rounded up.
int64_t k_iterations(const KernelConfig& cfg, const std::vector<GemmExtent>& work);

/// A tile's epilogue stores in K iterations' worth of traffic: tm·tn / ((tm+tn)·tk).
double epilogue_iterations(const KernelConfig& cfg);

/// The share of a tile's time not spent waiting on its own epilogue (see `overlap` above); 1 without a workload.
double overlap_efficiency(const KernelConfig& cfg, const std::vector<GemmExtent>& work);

/// Relative time (arbitrary units) of `cfg` on the workload for a bottleneck class; `conversion_share` is the
/// conversion pass of f32 operands to 16 bits over the measured kernel's time (0: unknown, see `math` above).
double model_time(const KernelConfig& cfg, const std::vector<GemmExtent>& work, sol::Bottleneck bottleneck,
                  int sm_count, double conversion_share = 0);

}  // namespace ucut::search
