// eval/protocol.h — the messages between `ucutlass` and its GPU worker process (`ucutlass-worker`).
// The parent writes a WorkerRequest as JSON; the worker answers a WorkerResponse as JSON on stdout.
// A kernel runs only inside the worker, so a crash or hang costs one attempt, never the run.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/input_draw.h"
#include "eval/protocol_enums.h"
#include "eval/stats.h"
#include "eval/tolerance.h"
#include "ir/epilogue_ops.h"
#include "ir/types.h"

namespace ucut {

/// A convolution's geometry; spatial arrays in [d, h, w] order, unused dimensions have extent 1, padding 0,
/// stride and dilation 1 (the kernel ABI's ucut_conv_args). With `groups` G > 1 the channels split into G groups:
/// W is [K, taps, C/G] and output channel k reads only the C/G input channels of group k / (K/G) (a depthwise
/// convolution is G = C = K).
struct ConvShape {
  int dims = 0;  // spatial rank 1..3; 0: not a convolution
  ConvKind kind = ConvKind::fprop;  // which tensors are operands and output (ir/types.h)
  int64_t n = 1, c = 1, k = 1;
  int64_t groups = 1;  // divides c and k
  std::array<int64_t, 3> in{1, 1, 1};      // d, h, w
  std::array<int64_t, 3> filter{1, 1, 1};  // t, r, s
  std::array<int64_t, 3> pad{0, 0, 0}, stride{1, 1, 1}, dilation{1, 1, 1};
  /// Output extent of spatial dimension i (z, p, q): (in + 2 pad - dilation (filter - 1) - 1) / stride + 1.
  int64_t out(int i) const { return (in[i] + 2 * pad[i] - dilation[i] * (filter[i] - 1) - 1) / stride[i] + 1; }
  int64_t in_pixels() const { return n * in[0] * in[1] * in[2]; }
  int64_t out_pixels() const { return n * out(0) * out(1) * out(2); }
  int64_t filter_taps() const { return filter[0] * filter[1] * filter[2]; }
  int64_t group_c() const { return c / groups; }  // input channels per group: the filter's innermost extent
  int64_t group_k() const { return k / groups; }  // output channels per group
  int64_t x_elements() const { return in_pixels() * c; }
  int64_t w_elements() const { return k * filter_taps() * group_c(); }
  int64_t y_elements() const { return out_pixels() * k; }
  /// Multiply-adds of the forward convolution, every tap counted (padding included): the same work for all three
  /// kinds, as PyTorch's FLOP counter counts it (a transposed convolution's taps over its input pixels); each output
  /// channel reads its group's C/G channels. The data gradient's implicit GEMM spans the padded output and does more.
  int64_t macs() const { return out_pixels() * k * filter_taps() * group_c(); }
  /// Element counts of the kernel's operands a, b and its output d (see ConvKind).
  int64_t a_elements() const { return kind == ConvKind::fprop ? x_elements() : y_elements(); }
  int64_t b_elements() const { return kind == ConvKind::wgrad ? x_elements() : w_elements(); }
  int64_t d_elements() const {
    return kind == ConvKind::fprop ? y_elements() : kind == ConvKind::dgrad ? x_elements() : w_elements();
  }
  /// X as channels-last extents [n, in.., c] and Y as [n, out.., k], spatial ones in [d, h, w] order, only this
  /// convolution's own.
  std::vector<int64_t> x_extents() const { return activation(false); }
  std::vector<int64_t> y_extents() const { return activation(true); }
  /// The activation a forward or transposed convolution reads (its operand a) and the one it writes: a forward
  /// convolution reads X and writes Y; a transposed one (dgrad: this forward geometry reversed) the other way.
  std::vector<int64_t> input_activation() const { return kind == ConvKind::fprop ? x_extents() : y_extents(); }
  std::vector<int64_t> output_activation() const { return kind == ConvKind::fprop ? y_extents() : x_extents(); }

 private:
  std::vector<int64_t> activation(bool y) const {
    std::vector<int64_t> e = {n};
    for (int i = 3 - dims; i < 3; ++i) e.push_back(y ? out(i) : in[static_cast<size_t>(i)]);
    e.push_back(y ? k : c);
    return e;
  }
};

/// One GEMM of a grouped GEMM's problem list.
struct GroupProblem {
  int64_t m = 0, n = 0, k = 0;
};

/// One problem size. A GEMM's m, n, k (and batch); a convolution's geometry in `conv`, with m, n, k its
/// implicit GEMM (m = output pixels, n = output channels, k = filter taps x input channels); a grouped GEMM's
/// problem list in `groups` (m, n, k, batch unused); a pipeline's GEMM per stage in `stages`, in stage order (their
/// m, n, k, batch; the outer m, n, k, batch unused, its label the shape's).
struct GemmShape {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  std::string label;
  ConvShape conv;
  std::vector<GroupProblem> groups;
  std::vector<GemmShape> stages;
  bool is_conv() const { return conv.dims > 0; }
  bool is_grouped() const { return !groups.empty(); }
  bool is_pipeline() const { return !stages.empty(); }
};

/// The implicit-GEMM shape of a convolution (m, n, k filled from the geometry and kind):
/// fprop (n·out pixels, k, taps·c), dgrad (n·in pixels, c, taps·k), wgrad (k, taps·c, n·out pixels). With groups,
/// the reduction reads one group's channels: fprop k = taps·c/G, dgrad k = taps·k/G, wgrad n = taps·c/G.
GemmShape conv_gemm_shape(const ConvShape& c, std::string label = "");

struct WorkerRequest {
  WorkerMode mode = WorkerMode::measure;
  std::string kernel_path;  // a kernel library exporting ucut_entry; empty: measure the baseline only
  nlohmann::json problem;   // canonical config (ir/canonical.h) of the problem's reference semantics
  std::vector<GemmShape> shapes;
  Tolerance tolerance;
  std::string reference = "auto";        // auto | gpu (cuBLAS FP32 + reference epilogue) | cpu (FP64)
  int64_t cpu_reference_max_macs = int64_t(1) << 27;  // auto picks the CPU below this many multiply-adds
  uint64_t seed = 0;                     // input set i uses seed + i
  int input_sets = 3;                    // distinct seeded inputs, rotated during timing
  InputDraws inputs;                     // how each operand is drawn (default: signed, every role)
  int warmup = 10;
  int trials = 100;
  bool flush_l2 = true;
  bool time_cublas = true;               // the vendor baseline at the same precision, in the same process
};

struct TimingResult {
  bool measured = false;
  Stats event_ms;  // CUDA events on the launch stream
  Stats wall_ms;   // host clock around launch + cudaDeviceSynchronize (sees work on any stream)
};

struct IntegrityResult {
  bool input_mutated = false;             // an input's hash changed across a candidate run
  bool output_constant = false;           // every element of an output (D, aux, reduction) equal, its reference not
  bool output_input_independent = false;  // an output was bit-identical for two different input sets
  bool incomplete_at_stream_sync = false; // wrong after syncing the launch stream, right after syncing the device
  double empty_launch_wall_ms = 0;        // wall time of an empty kernel, the cross-check's floor
};

/// One output's share of a shape's verification (every input set): D, an aux_store tensor or a reduction vector.
struct OutputCheck {
  std::string name;   // the tensor's name in the problem: "D", "Z", "R"
  EpiKind stage = EpiKind::store;  // the stage that writes it: store, aux_store or a reduction
  Comparison verify;
};

struct ShapeResult {
  GemmShape shape;
  ShapeStatus status = ShapeStatus::ok;
  std::string error;
  ReferenceKind reference_kind = ReferenceKind::none;
  Comparison verify;                 // all input sets, D, aux outputs and reduction vectors, before timing
  std::vector<OutputCheck> outputs;  // `verify` per output, D first, then aux slots in chain order
  Comparison reverify;               // the last timed run's output
  IntegrityResult integrity;
  TimingResult candidate;
  TimingResult cublas;               // grouped GEMMs: one cuBLAS call per problem on the stream, timed as one run
  VendorLibrary baseline_library = VendorLibrary::none;  // the vendor baseline in `cublas*`
  std::string cublas_kernel;         // what the baseline ran, e.g. "cublasLt bf16 TN f32-acc + BIAS+GELU"
  std::string cublas_error;          // why the baseline did not run, when it did not
  TimingResult cublas_grouped;       // grouped GEMMs: cublasGemmGroupedBatchedEx over all problems in one call
  std::string cublas_grouped_kernel; // what it ran
  std::string cublas_grouped_error;  // why it did not run (e.g. a precision the grouped API lacks)
  double seconds = 0;                // wall time the worker spent on this shape
  bool cublas_fused_epilogue = false;
};

struct WorkerResponse {
  std::string gpu_name, gpu_uuid, driver_version, runtime_version, cublas_version;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  std::string kernel_name;
  nlohmann::json kernel_config;  // what the kernel library says about itself
  std::vector<ShapeResult> shapes;
  nlohmann::json calibration;    // calibrate mode: {copy_tbs, gemm_tflops{precision: rate}, method}
  std::string fatal_error;       // set when nothing could be measured (no GPU, bad library, ...)
};

void to_json(nlohmann::json& j, const GemmShape& v);
void from_json(const nlohmann::json& j, GemmShape& v);
void to_json(nlohmann::json& j, const WorkerRequest& v);
void from_json(const nlohmann::json& j, WorkerRequest& v);
void to_json(nlohmann::json& j, const Stats& v);
void from_json(const nlohmann::json& j, Stats& v);
void to_json(nlohmann::json& j, const Comparison& v);
void from_json(const nlohmann::json& j, Comparison& v);
void to_json(nlohmann::json& j, const OutputCheck& v);
void from_json(const nlohmann::json& j, OutputCheck& v);
void to_json(nlohmann::json& j, const TimingResult& v);
void from_json(const nlohmann::json& j, TimingResult& v);
void to_json(nlohmann::json& j, const IntegrityResult& v);
void from_json(const nlohmann::json& j, IntegrityResult& v);
void to_json(nlohmann::json& j, const ShapeResult& v);
void from_json(const nlohmann::json& j, ShapeResult& v);
void to_json(nlohmann::json& j, const WorkerResponse& v);
void from_json(const nlohmann::json& j, WorkerResponse& v);

}  // namespace ucut
