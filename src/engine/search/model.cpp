// engine/search/model.cpp — the formulas of model.h.
#include "engine/search/model.h"

#include <algorithm>
#include <cmath>

#include "check/smem_model.h"
#include "problem/conv_abi.h"

namespace ucut::search {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

double fill(int64_t units, int sm_count) {
  if (units <= 0) return 1;
  return double(units) / double(ceil_div(units, sm_count) * sm_count);
}

double intensity(double tm, double tn) { return tm * tn / (tm + tn); }

/// The time of sm90a's mixed-input mainloop (one operand converted in registers) over a 16-bit one's. Each K step
/// converts the converted operand's tile once for tile N products per element, so the cost falls with tile N (the
/// other operand's extent, in the kernel's frame): 1 + 0.52·128/N. On the H200, a 1024 x 8192 x 8192 GEMM with f32
/// B ran 0.240 ms on the pingpong kernel with a 64 x 256 tile and 0.289 ms with 128 x 128, against about 0.19 ms
/// for bf16 A and B; the cooperative kernel, whose two consumer warpgroups split the converted tile, took 1.8x the
/// pingpong one's time there and 7.6x on that shape with a residual and an aux store (bench/results/smoke/
/// mainloop_conversion/): modelled at 4x.
double mixed_input_slowdown(const KernelConfig& cfg) {
  double s = 1 + 0.52 * 128.0 / cfg.tile.value[1];
  return is_cooperative(cfg.kernel_schedule.value) ? 4 * s : s;
}

/// The share of the conversion pass (A's and B's elements) left when one operand converts in the mainloop: the
/// other one's elements.
double copied_share(const KernelConfig& cfg, const std::vector<GemmExtent>& work) {
  double a = 0, b = 0;
  for (const GemmExtent& e : work) {
    a += double(e.m) * e.k * e.count;
    b += double(e.k) * e.n * e.count;
  }
  if (a + b <= 0) return 0.5;
  return cfg.a.converts_in_mainloop.value ? b / (a + b) : a / (a + b);
}

/// The accumulators per thread a 2.x warp tile fits in registers: 3xTF32 also holds the big and small halves of every
/// operand fragment, so half of what other math keeps.
double accumulator_budget(const KernelConfig& cfg) { return cfg.math.value == MathMode::tf32x3 ? 64 : 128; }

/// A 2.x kernel's mainloop: the warp tile's operand reuse against the largest warp tile that fits the register
/// budget (32x64 for 3xTF32, 64x64 otherwise), register pressure, and the K tile (fewer MMAs per barrier at K 16).
double compute_efficiency_2x(const KernelConfig& cfg) {
  auto [wm, wn, wk] = cfg.warp.value;
  if (wm <= 0 || wn <= 0) return 1;
  double budget = accumulator_budget(cfg);
  double reference = budget <= 64 ? intensity(32, 64) : intensity(64, 64);
  double e = std::pow(std::min(1.0, intensity(wm, wn) / reference), 0.3);
  e *= register_efficiency(cfg);
  double k_bytes = cfg.tile.value[2] * dtype_bits(cfg.a.dtype.value) / 8.0;
  return e * std::pow(std::min(1.0, k_bytes / 128.0), 0.05);
}

double compute_efficiency(const KernelConfig& cfg) {
  if (cfg.backend() == BackendKind::sm80) return compute_efficiency_2x(cfg);
  auto [tm, tn, tk] = cfg.tile.value;
  double e = std::pow(std::min(1.0, intensity(tm, tn) / intensity(128, 256)), 0.3);
  auto [cm, cn, ck] = cfg.cluster.value;
  if (cm * cn == 1) e *= 0.90;
  if (cfg.kernel_schedule.value == KernelSchedule::tma_pingpong && tm >= 128) e *= 0.97;
  return e;
}

double bandwidth_efficiency(const KernelConfig& cfg, int64_t tiles, int sm_count) {
  auto [tm, tn, tk] = cfg.tile.value;
  auto [cm, cn, ck] = cfg.cluster.value;
  double traffic = 1.0 / (tn * cn) + 1.0 / (tm * cm);
  double e = std::sqrt((1.0 / 128 + 1.0 / 128) / traffic);
  if (tiles > 2 * sm_count) e *= 1 + 0.03 * std::log2(double(cfg.swizzle.value));
  return e;
}

}  // namespace

double latency_efficiency(const KernelConfig& cfg) {
  int stages = effective_stages(cfg);
  double k_bytes = cfg.tile.value[2] * dtype_bits(cfg.a.dtype.value) / 8.0;
  return std::sqrt(std::min(1.0, resident_ctas(cfg) * (stages - 1) * k_bytes / 384.0));
}

double register_efficiency(const KernelConfig& cfg) {
  if (cfg.backend() != BackendKind::sm80) return 1;
  auto [wm, wn, wk] = cfg.warp.value;
  double per_thread = double(wm) * wn / 32, budget = accumulator_budget(cfg);
  return per_thread <= budget ? 1 : std::pow(budget / per_thread, 0.6);
}

int effective_stages(const KernelConfig& cfg) {
  if (cfg.stages.value > 0) return cfg.stages.value;
  SmemBudget b = cfg.backend() == BackendKind::sm90 ? sm90_smem_budget(cfg) : sm80_smem_budget(cfg);
  return std::max(2, b.stages);
}

int64_t copied_channels(const ConvShape& c, int fold, int per16) {
  int64_t channels = c.group_c();
  for (int i = 2; i >= 3 - fold; --i) channels *= c.filter[i];
  return (channels + per16 - 1) / per16 * per16;
}

namespace {

/// A convolution's implicit GEMM as `kernel` runs it (see workload), with the channels of one filter tap as K's
/// contiguous run.
GemmExtent conv_extent(const ConvShape& c, const KernelConfig* kernel) {
  GemmShape g = conv_gemm_shape(c);
  int64_t per_tap = c.kind == ConvKind::fprop   ? c.group_c()
                    : c.kind == ConvKind::dgrad ? c.group_k()
                                                : g.k;  // wgrad reduces over output pixels
  GemmExtent e{g.m, g.n, g.k, std::max<int64_t>(1, g.batch), per_tap};
  if (!kernel) return e;
  if (c.kind == ConvKind::fprop && kernel->a.padded.value) {
    int fold = kernel->a.fold.value;
    e.k_run = copied_channels(c, fold, 128 / dtype_bits(kernel->a.dtype.value));
    e.k = e.k_run;
    for (int i = 0; i < 3 - fold; ++i) e.k *= c.filter[i];
  }
  if (kernel->backend() == BackendKind::sm90)
    if (auto ph = phase_gemm(c)) e.m = ph->m, e.n = ph->n, e.k = ph->k;
  return e;
}

}  // namespace

std::vector<GemmExtent> workload(const Problem* problem, const KernelConfig* kernel) {
  if (!problem || problem->shapes.empty()) return {};
  std::vector<GemmExtent> best;
  double best_macs = -1;
  for (const GemmShape& s : problem->shapes) {
    std::vector<GemmExtent> w;
    if (s.is_grouped()) {
      for (const GroupProblem& g : s.groups) w.push_back({g.m, g.n, g.k, 1});
    } else if (s.is_conv()) {
      w.push_back(conv_extent(s.conv, kernel));
    } else if (!s.is_pipeline()) {
      w.push_back({s.m, s.n, s.k, std::max<int64_t>(1, s.batch)});
    }
    double macs = 0;
    for (const GemmExtent& e : w) macs += double(e.m) * e.n * e.k * e.count;
    if (macs > best_macs) {
      best_macs = macs;
      best = w;
    }
  }
  return best;
}

int64_t output_tiles(const KernelConfig& cfg, const std::vector<GemmExtent>& work) {
  auto [tm, tn, tk] = cfg.tile.value;
  auto [cm, cn, ck] = cfg.cluster.value;
  int64_t tiles = 0;
  for (const GemmExtent& e : work)
    tiles += ceil_div(ceil_div(e.m, tm), cm) * cm * ceil_div(ceil_div(e.n, tn), cn) * cn * e.count;
  return tiles;
}

double wave_efficiency(const KernelConfig& cfg, const std::vector<GemmExtent>& work, int sm_count) {
  if (work.empty()) return 1;
  int64_t tiles = output_tiles(cfg, work);
  double data_parallel = fill(tiles, sm_count);
  switch (cfg.tile_scheduler.value) {
    case TileScheduler::split_k: {
      int s = cfg.splits.value;
      return fill(tiles * s, sm_count) / (1 + 0.02 * s);
    }
    case TileScheduler::stream_k: {
      int64_t k = 0;
      for (const GemmExtent& e : work) k = std::max(k, e.k);
      int64_t iters = tiles * std::max<int64_t>(1, ceil_div(k, cfg.tile.value[2]));
      return std::max(data_parallel, 0.93 * fill(iters, sm_count));
    }
    default: return data_parallel;
  }
}

double padding_efficiency(const KernelConfig& cfg, const std::vector<GemmExtent>& work) {
  auto [tm, tn, tk] = cfg.tile.value;
  double useful = 0, executed = 0;
  for (const GemmExtent& e : work) {
    int64_t run = e.k_run > 0 ? std::min(e.k_run, e.k) : e.k;
    int64_t k_executed = ceil_div(e.k, run) * ceil_div(run, tk) * tk;
    useful += double(e.m) * e.n * e.k * e.count;
    executed += double(ceil_div(e.m, tm) * tm) * double(ceil_div(e.n, tn) * tn) * double(k_executed) * e.count;
  }
  return executed > 0 ? useful / executed : 1;
}

int resident_ctas(const KernelConfig& cfg) {
  SmemBudget b = cfg.backend() == BackendKind::sm90 ? sm90_smem_budget(cfg) : sm80_smem_budget(cfg);
  constexpr int kReservedPerCta = 1024;  // the driver's per-CTA shared-memory reservation
  int per_cta = b.total_bytes + kReservedPerCta;
  return per_cta > 0 ? std::max(1, (b.capacity + kReservedPerCta) / per_cta) : 1;
}

int64_t k_iterations(const KernelConfig& cfg, const std::vector<GemmExtent>& work) {
  int64_t tk = cfg.tile.value[2], longest = 0;
  for (const GemmExtent& e : work) {
    int64_t run = e.k_run > 0 ? std::min(e.k_run, e.k) : e.k;
    longest = std::max(longest, ceil_div(e.k, run) * ceil_div(run, tk));
  }
  return longest;
}

double epilogue_iterations(const KernelConfig& cfg) {
  auto [tm, tn, tk] = cfg.tile.value;
  return double(tm) * tn / (double(tm + tn) * tk);
}

double overlap_efficiency(const KernelConfig& cfg, const std::vector<GemmExtent>& work) {
  int64_t k = k_iterations(cfg, work);
  if (k <= 0 || cfg.kernel_schedule.value == KernelSchedule::tma_pingpong || resident_ctas(cfg) >= 2) return 1;
  double e = epilogue_iterations(cfg);
  return std::max(double(k), e) / (double(k) + e);
}

double model_time(const KernelConfig& cfg, const std::vector<GemmExtent>& work, sol::Bottleneck bottleneck,
                  int sm_count, double conversion_share) {
  double compute = compute_efficiency(cfg);
  double bandwidth = bandwidth_efficiency(cfg, work.empty() ? 0 : output_tiles(cfg, work), sm_count);
  double latency = latency_efficiency(cfg);
  using B = sol::Bottleneck;
  double mainloop = bottleneck == B::compute            ? compute
                    : bottleneck == B::memory_bandwidth ? bandwidth
                    : bottleneck == B::memory_latency   ? latency
                                                        : std::cbrt(compute * bandwidth * latency);
  // Tensor-core rate relative to TF32: 3xTF32 runs three products; 16-bit operands (f32 ones converted, `from`)
  // twice TF32's rate, after a conversion pass over A and B. On a kernel bound by memory they halve the operand
  // bytes, not the output's: 0.8 of the time before the conversion (bf16 over TF32 on 21 convolutions and an
  // unaligned GEMM, their best specs side by side: 0.87x the time with the pass, bench/results/optimize_1e-2_bf16/).
  double math = 1;
  bool compute_bound = bottleneck == B::compute || bottleneck == B::unknown;
  if (cfg.math.value == MathMode::tf32x3 && compute_bound) math = 1.0 / 3;
  if (cfg.a.narrowed()) {
    double c = conversion_share > 0 ? conversion_share : 0.05;
    double products = compute_bound ? 0.5 : 0.8;
    if (cfg.a.converts_in_mainloop.value || cfg.b.converts_in_mainloop.value) {
      c *= copied_share(cfg, work);
      products *= mixed_input_slowdown(cfg);
    }
    math = 1.0 / (products + c);
  }
  return 1.0 / (padding_efficiency(cfg, work) * wave_efficiency(cfg, work, sm_count) * mainloop *
                overlap_efficiency(cfg, work) * math);
}

}  // namespace ucut::search
