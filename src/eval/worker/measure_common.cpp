// eval/worker/measure_common.cpp — see measure_common.h.
#include "eval/worker/measure_common.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "eval/worker/conv_reference.h"
#include "eval/worker/device_ops.h"

namespace ucut::worker {

size_t bytes_of(DType t, int64_t n) { return static_cast<size_t>(n) * static_cast<size_t>(dtype_bits(t)) / 8; }

std::vector<float> download(const float* d, int64_t n, cudaStream_t s) {
  std::vector<float> h(static_cast<size_t>(n));
  CUDA_OK(cudaMemcpyAsync(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaStreamSynchronize(s));
  return h;
}

DType fill_type(DType stored, MathMode math) {
  return stored == DType::f32 && math == MathMode::tf32 ? DType::tf32 : stored;
}

void reference_accumulate(cublasHandle_t blas, const OperandGeometry& g, float* a32, float* b32, float* acc,
                          float* abs_acc, cudaStream_t s) {
  if (g.is_conv()) {
    conv_reference_gpu(a32, b32, g.conv, acc, abs_acc, s);
    return;
  }
  for (const GemmPart& q : g.parts)
    gemm_reference_gpu(blas, a32 + q.a_offset, b32 + q.b_offset, acc + q.d_offset, q.e, s);
  if (!abs_acc) return;
  abs_inplace(a32, g.a.elements(), s);
  abs_inplace(b32, g.b.elements(), s);
  for (const GemmPart& q : g.parts)
    gemm_reference_gpu(blas, a32 + q.a_offset, b32 + q.b_offset, abs_acc + q.d_offset, q.e, s);
}

int input_set_count(const WorkerRequest& req) {
  return std::clamp(req.input_sets, req.mode == WorkerMode::measure ? 2 : 1, 8);
}

InputSeed input_seed(const WorkerRequest& req, int set) {
  return {req.seed * 1000003ull + static_cast<uint64_t>(set) * 7919ull, set % 3, req.inputs};
}

TimingPlan timing_plan(const WorkerRequest& req) { return {req.warmup, req.trials, req.flush_l2}; }

std::string extents_text(const Extents& e) {
  return fmt::format("{}x{}x{}{}", e.m, e.n, e.k, e.batch > 1 ? fmt::format("x{}", e.batch) : "");
}

double ShapeClock::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

void ShapeClock::progress(const char* phase) const {
  std::fprintf(stderr, "[ucutlass-worker] %s: %s (%.1f s)\n", shape_.c_str(), phase, elapsed());
  std::fflush(stderr);
}

void run_baseline(TimingResult& timing, std::string& error, const std::function<void()>& fn) {
  try {
    fn();
  } catch (const CudaError& e) {
    error = e.what();
    timing.measured = false;
    if (cudaDeviceSynchronize() != cudaSuccess) throw;
  }
}

}  // namespace ucut::worker
