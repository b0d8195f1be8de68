// eval/worker/measure_common.h — what every shape measurement shares (measure_shape: one kernel,
// measure_pipeline: a pipeline): the device context, input set seeds and fill types, downloads, the reference
// accumulator of a GEMM or convolution, progress lines, the timing plan, and vendor baselines that may be refused.
#pragma once

#include <cudnn.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "eval/protocol.h"
#include "eval/worker/cuda_check.h"
#include "eval/worker/device_activity.h"
#include "eval/worker/operand_geometry.h"
#include "eval/worker/reference.h"
#include "eval/worker/timing.h"

namespace ucut::worker {

struct DeviceContext {
  cudaStream_t stream = nullptr;  // non-blocking: the candidate's launch stream
  cublasHandle_t blas = nullptr;
  cublasLtHandle_t lt = nullptr;
  cudnnHandle_t dnn = nullptr;  // convolution problems and pipelines only, bound to `stream`
  std::string dnn_error;        // why there is no cuDNN handle, when a convolution needed one
  int64_t l2_bytes = 0;
  DeviceActivity* activity = nullptr;  // CUPTI's records around a candidate's calls (measure mode only)
};

size_t bytes_of(DType t, int64_t n);

/// n floats from the device, after everything enqueued on `s` before.
std::vector<float> download(const float* d, int64_t n, cudaStream_t s);

/// The type to fill an operand stored as `stored` with: a problem that accepts TF32 gets f32 operands on the TF32
/// grid, so the verification measures the kernel's arithmetic, not the (stated, accepted) input rounding; an
/// exact-f32 problem gets full f32.
DType fill_type(DType stored, MathMode math);

/// The reference accumulator of g's GEMM (every part, in FP32 on cuBLAS) or convolution (the direct one, in FP64:
/// conv_reference.h) over a32 and b32, its A and B as row-major float: acc ← Σ a·b and abs_acc ← Σ|a||b| over the
/// same products, the bound of the tolerance's accumulation term. A GEMM's abs_acc may be null (not wanted);
/// computing it overwrites a32 and b32 with their absolute values.
void reference_accumulate(cublasHandle_t blas, const OperandGeometry& g, float* a32, float* b32, float* acc,
                          float* abs_acc, cudaStream_t s);

/// Input set i's seed, its place in the signed rotation (device_ops.h's fill_random distributions 0-2, one after
/// another) and the request's draw per operand role (a signed role follows the rotation).
struct InputSeed {
  uint64_t seed = 0;
  int rotation = 0;
  InputDraws draws;
};
/// The request's input sets, 2 to 8 for a measurement (a verdict rests on at least two sets at different
/// addresses), 1 to 8 to profile.
int input_set_count(const WorkerRequest& req);
InputSeed input_seed(const WorkerRequest& req, int set);

TimingPlan timing_plan(const WorkerRequest& req);

/// "MxNxK", with "xL" for a batch of L.
std::string extents_text(const Extents& e);

/// A shape's clock and its progress lines on stderr (the supervisor's no-progress deadline and the logs read them).
class ShapeClock {
 public:
  explicit ShapeClock(std::string shape) : shape_(std::move(shape)) {}
  double elapsed() const;
  void progress(const char* phase) const;

 private:
  std::string shape_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

/// Runs a vendor baseline: one that cuBLAS or cuDNN refuses must not cost the candidate's results (its error goes
/// to `error`, `timing` stays unmeasured); a sticky error still ends the worker.
void run_baseline(TimingResult& timing, std::string& error, const std::function<void()>& fn);

}  // namespace ucut::worker
