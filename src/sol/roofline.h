// sol/roofline.h — the speed-of-light (SOL) model for GEMM problems: FLOPs and minimum DRAM bytes from a
// KernelConfig and a shape, roofline bounds per precision against a GPU (sol/gpu_table.h), dual bounds, gap.
//
// Conventions (DESIGN.md §4; the muCUTLASS paper's Appendix A.2):
//   - GEMM FLOPs = 2·M·N·K·batch (cuBLAS convention). Epilogue FLOPs are counted apart: 1 FLOP per output
//     element for each elementwise stage (scale, residual, bias, channel_scale, every activation) and for
//     each reduction (row_sum, row_max, col_sum, col_max: an add or max per reduced element); aux_store, cast
//     and store move data and count 0. Both are charged at the tensor peak in t_compute (the epilogue share
//     is ~1/K of the total, so the approximation is negligible) and reported separately.
//   - Minimum DRAM bytes (perfect caching): each input read once, each output written once, in its dtype:
//     A (M·K), B (K·N), residual C (M·N), each vector (N for axis col, M for axis row), each aux_store output
//     (M·N), each reduction output (M for row_*, N for col_*) and D (M·N); batched_gemm multiplies every term
//     (vectors too) by batch; grouped_gemm sums every term (FLOPs too) over its problems. FP8 per-tensor
//     scales (4 bytes each) are ignored.
//   - Convolutions: FLOPs = 2·N·Z·P·Q·K·T·R·S·C/G, every filter tap counted (G channel groups, 1 when dense;
//     depthwise: G = C = K, so 2·N·Z·P·Q·C·T·R·S); bytes: the kind's operands and output once each (the
//     filter K·T·R·S·C/G), vectors per output channel and output-shaped tensors as for the implicit GEMM's
//     M·N.
//   - t_compute = FLOPs / peak, t_mem = bytes / bandwidth, t_SOL = max; bound = the larger term;
//     ridge = peak / bandwidth (FLOP/B), compared with intensity = FLOPs / bytes.
//   - Memory-bound families (ir/memop.h): every input once at its own extents (a broadcast operand at its
//     size) and the output once, each in its dtype; FLOPs as an epilogue chain's, per output element.
//   - Latency floor (calibration/2): the least GPU time of any call, measured (sol/calibration.h). Only the
//     achievable bound carries it: t_SOL_eff = max(t_compute, t_mem, t_floor) steers and is reported; the
//     datasheet bounds have none, so the integrity floor never gets stricter.
//   - Peaks: datasheet figures at boost clock, or scaled to a given SM clock (effective = datasheet ×
//     clock / boost_clock). DRAM bandwidth does not depend on the SM clock and is never scaled.
//   - Dual bound: TF32 steers the search; FP16 is the integrity floor (a measured time below it is physically
//     implausible); the kernel's own operand precision is reported too.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ir/kernel_config.h"
#include "ir/memop.h"
#include "ir/pipeline.h"
#include "problem/shape.h"
#include "sol/calibration.h"
#include "sol/gpu_table.h"
#include "support/enum_json.h"

namespace ucut::sol {

/// Whether the kernel reads a tensor or writes it.
enum class TrafficRole { read, write };

constexpr auto enum_names(TrafficRole) {
  return name_table<TrafficRole>("traffic role",
                                 {{TrafficRole::read, "read"}, {TrafficRole::write, "write"}});
}
UCUT_ENUM_JSON(TrafficRole)

/// One tensor's share of the minimum DRAM traffic.
struct TensorTraffic {
  std::string name;  // "A", "B", "C", "bias", "Z", "D"
  TrafficRole role = TrafficRole::read;
  DType dtype = DType::f32;
  double elements = 0;
  double bytes = 0;
};

/// The work of one problem at one shape.
struct WorkCount {
  double gemm_flops = 0;      // 2·M·N·K·batch (grouped: Σ 2·m·n·k over the problems)
  double epilogue_flops = 0;  // 1 per elementwise or reduction stage per output element
  double bytes = 0;           // minimum DRAM bytes, the sum of `tensors`
  std::vector<TensorTraffic> tensors;

  double flops() const { return gemm_flops + epilogue_flops; }
  /// FLOPs per DRAM byte.
  double intensity() const { return bytes > 0 ? flops() / bytes : 0; }
};

/// FLOPs and minimum bytes of `k` (a problem's semantics or a spec) at `shape`.
WorkCount count_work(const KernelConfig& k, const GemmShape& shape);

/// The size of each extent symbol of a memory-bound kernel, e.g. {{"N", 262144}}.
using ExtentSizes = std::map<std::string, int64_t>;

/// A memory-bound family kernel's work at `sizes`: every input read once at its own extents, every tensor the
/// chain reads or writes once (the store at the output's extents), and the chain's FLOPs per output element.
/// Throws std::invalid_argument naming the tensor and the symbol when `sizes` lacks one.
WorkCount count_work(const MemOpConfig& m, const ExtentSizes& sizes);

/// A pipeline at a shape (shape.stages: one GEMM shape per stage): every stage's FLOPs, and the DRAM bytes of what
/// crosses the pipeline's boundary only: caller operands (in the caller's type when converted), vectors, residuals
/// and the output. A family stage counts as count_work(MemOpConfig) counts it at shape.symbols, less its linked
/// inputs and its output when a later stage reads it. An ideal implementation keeps intermediates on chip, so the bound stays a lower bound.
WorkCount count_pipeline_work(const PipelineConfig& p, const GemmShape& shape);

/// The precision the tensor cores multiply `k`'s operands in: f32 → fp32 (tf32 for math tf32 or tf32x3,
/// whose 3 passes make its bound optimistic), f16 → fp16, bf16, e4m3/e5m2 → fp8, i8 → int8, f64 →
/// fp64_tensor. For mixed A/B types, the wider one.
Precision kernel_precision(const KernelConfig& k);

/// Whether peaks are the datasheet's (at boost clock) or scaled to a given SM clock.
enum class PeakBasis { datasheet, clock_scaled };
std::string_view peak_basis_name(PeakBasis b);  // "datasheet" | "clock_scaled"

/// clock_mhz / boost_clock_mhz, or 1 without a clock. Throws std::invalid_argument for clock_mhz <= 0.
double clock_scale(const GpuSpec& gpu, std::optional<double> clock_mhz);

/// The peak used for `p` on `gpu` (TFLOP/s): the datasheet figure × clock_scale. fp64_tensor falls back to
/// fp64 on GPUs without FP64 tensor cores; nullopt when the GPU has no unit for `p` (fp8 on A100).
std::optional<double> effective_peak_tflops(const GpuSpec& gpu, Precision p, std::optional<double> clock_mhz);

/// The side of the ridge a bound is on.
enum class BoundKind { compute, memory };

constexpr auto enum_names(BoundKind) {
  return name_table<BoundKind>("bound", {{BoundKind::compute, "compute"}, {BoundKind::memory, "memory"}});
}
UCUT_ENUM_JSON(BoundKind)

/// A roofline bound at one precision.
struct Bound {
  Precision precision = Precision::tf32;
  double peak_tflops = 0;    // the rate used
  double bandwidth_tbs = 0;  // the bandwidth used
  double t_compute_s = 0;
  double t_memory_s = 0;
  double ridge = 0;      // FLOP/B = peak / bandwidth
  double t_floor_s = 0;  // the measured latency floor (achievable bounds from a calibration/2 only)
  double t_sol_s() const { return t_compute_s > t_memory_s ? t_compute_s : t_memory_s; }
  /// max(t_compute, t_mem, t_floor): what no call can beat on this GPU, latency included.
  double t_sol_eff_s() const { return t_floor_s > t_sol_s() ? t_floor_s : t_sol_s(); }
  BoundKind kind() const { return t_compute_s >= t_memory_s ? BoundKind::compute : BoundKind::memory; }
  /// The floor, not the work, decides t_SOL_eff.
  bool latency_bound() const { return t_floor_s > t_sol_s(); }
  /// A bound from the copy bandwidth alone (no calibrated rate for its precision): t_compute is 0.
  bool bandwidth_only() const { return peak_tflops == 0; }
};

/// The roofline bound of `work` at `peak_tflops` and `bandwidth_tbs`.
Bound roofline(const WorkCount& work, Precision p, double peak_tflops, double bandwidth_tbs);

/// The bound from measured ceilings: the calibrated GEMM rate for `p`, the copy bandwidth and the latency
/// floor (when the calibration has one). Without a rate for `p`, work that `datasheet` puts on the memory
/// side gets a bandwidth-only bound (its arithmetic does not decide its time; Bound::bandwidth_only), other
/// work none.
std::optional<Bound> achievable_bound(const std::optional<Calibration>& c, const WorkCount& w, Precision p,
                                      const std::optional<Bound>& datasheet);

/// A bound from the datasheet (or clock-scaled) peaks, and the same from measured ceilings when calibrated.
/// The achievable bound is a guide for steering, never a floor: calibration measures one shape (8192³), and
/// other shapes can beat it (on our H200 cuBLAS bf16 ran 1024x8192x8192 at 739 TF/s, 8192³ at 703 TF/s).
/// Integrity checks use the datasheet FP16 bound only.
struct BoundPair {
  std::optional<Bound> peak;        // nullopt when the GPU has no unit for the precision
  std::optional<Bound> achievable;  // from the calibration, when it has this precision
};

/// SOL of one shape: the steering (TF32), integrity (FP16) and kernel-precision bounds.
struct ShapeSol {
  GemmShape shape;
  WorkCount work;
  BoundPair tf32, fp16, kernel;
};

struct SolOptions {
  std::optional<double> clock_mhz;        // set: PeakBasis::clock_scaled
  std::optional<Precision> precision;     // overrides kernel_precision(k)
  std::optional<Calibration> calibration; // measured ceilings for this GPU, if any
};

/// A SOL report: one GPU, one problem, several shapes.
struct SolReport {
  std::string problem;  // the problem's or kernel's name
  std::string gpu_key, gpu_name;
  PeakBasis basis = PeakBasis::datasheet;
  double clock_mhz = 0;    // the clock the peaks are at: boost, or the given one
  double clock_scale = 1;  // clock_mhz / boost
  double bandwidth_tbs = 0;
  Precision precision = Precision::tf32;  // the kernel-precision bound's precision
  bool precision_overridden = false;
  std::optional<Calibration> calibration;
  std::vector<ShapeSol> shapes;
};

/// Computes the SOL report of `k` at `shapes` on `gpu`.
SolReport sol_report(const GpuSpec& gpu, const KernelConfig& k, const std::vector<GemmShape>& shapes,
                     const SolOptions& options);
/// The same for a pipeline; its kernel-precision bound is its first stage's precision.
SolReport sol_report(const GpuSpec& gpu, const PipelineConfig& p, const std::vector<GemmShape>& shapes,
                     const SolOptions& options);

/// The SOL gap g = t_measured / t_SOL (1 = at speed of light). Throws std::invalid_argument unless
/// t_sol_s > 0 and t_measured_s >= 0.
double gap(double t_measured_s, double t_sol_s);

/// True when a measured time beats the bound: below the FP16 bound this is physically implausible.
bool faster_than_bound(double t_measured_s, const Bound& bound);

/// The stop rule: t_best <= (1 + epsilon) · t_SOL.
bool within_sol(double t_best_s, double t_sol_s, double epsilon);

// Rendering (sol/report.cpp).
nlohmann::json work_json(const WorkCount& w);
nlohmann::json bound_json(const Bound& b);
/// The report as JSON: gpu, peak basis and clock, precision, calibration, and per shape the work and bounds.
nlohmann::json sol_json(const SolReport& r);
/// A readable table, one block per shape.
std::string render_sol_text(const SolReport& r);
/// The GPU table as a readable listing (`ucutlass sol --gpus`).
std::string render_gpu_table_text(const GpuTable& t);
nlohmann::json gpu_table_json(const GpuTable& t);

}  // namespace ucut::sol
