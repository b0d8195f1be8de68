// eval/worker/calibrate.cpp — copy bandwidth, per-precision cuBLAS rates and the latency floors.
#include "eval/worker/calibrate.h"

#include <fmt/format.h>

#include "eval/worker/cublas_baseline.h"
#include "eval/worker/device_ops.h"
#include "eval/worker/latency_floor.h"
#include "eval/worker/timing.h"

namespace ucut::worker {
namespace {

double copy_bandwidth_tbs(const DeviceContext& ctx, const WorkerRequest& req) {
  const size_t bytes = size_t(2) << 30;
  DeviceBuffer src(bytes), dst(bytes);
  CUDA_OK(cudaMemsetAsync(src.get(), 1, bytes, ctx.stream));
  Timer timer(ctx.stream, ctx.l2_bytes);
  TimingResult t = timer.measure(
      [&](int) { CUDA_OK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, ctx.stream)); },
      {3, std::max(20, req.trials / 5), false});
  return 2.0 * static_cast<double>(bytes) / (t.event_ms.median * 1e-3) / 1e12;  // bytes read + written
}

double gemm_tflops(const DeviceContext& ctx, const WorkerRequest& req, DType in, DType out, MathMode math, int64_t n,
                   std::string* note) {
  ProblemDesc p;
  p.a = {in, Layout::row};
  p.b = {in, Layout::col};
  p.d = {out, Layout::row};
  p.math = math;
  p.chain.count = 1;
  p.chain.stages[0].kind = EpiKind::store;
  Extents e{1, n, n, n};
  DeviceBuffer one(sizeof(float));
  fill_value(one.get(), DType::f32, 1, 1.f, ctx.stream);
  BaselineScales scales;
  if (is_fp8(in)) scales.a = scales.b = one.as<float>();
  CublasBaseline bl(ctx.lt, p, math, e, scales);
  if (!bl.supported()) {
    *note = bl.why_not();
    return 0;
  }
  DeviceBuffer a(static_cast<size_t>(n * n * dtype_bits(in) / 8)), b(a.bytes()),
      d(static_cast<size_t>(n * n * dtype_bits(out) / 8));
  fill_random(a.get(), in, n * n, req.seed + 11, 0, ctx.stream);
  fill_random(b.get(), in, n * n, req.seed + 12, 0, ctx.stream);
  BaselineOperands ops;
  ops.a = a.get();
  ops.b = b.get();
  ops.d = d.get();
  Timer timer(ctx.stream, ctx.l2_bytes);
  TimingResult t = timer.measure([&](int) { bl.launch(ops, ctx.stream); }, {5, std::max(20, req.trials / 5), true});
  *note = bl.description();
  return 2.0 * static_cast<double>(n) * n * n / (t.event_ms.median * 1e-3) / 1e12;
}

}  // namespace

nlohmann::json calibrate(const DeviceContext& ctx, const WorkerRequest& req) {
  nlohmann::json rates = nlohmann::json::object(), notes = nlohmann::json::object();
  struct Row {
    const char* name;
    DType in, out;
    MathMode math;
  };
  const Row rows[] = {{"fp32", DType::f32, DType::f32, MathMode::native}, {"tf32", DType::f32, DType::f32, MathMode::tf32},
                      {"fp16", DType::f16, DType::f16, MathMode::native}, {"bf16", DType::bf16, DType::bf16, MathMode::native},
                      {"fp8", DType::e4m3, DType::bf16, MathMode::native}, {"int8", DType::i8, DType::i32, MathMode::native}};
  for (const Row& r : rows) {
    std::string note;
    double rate = gemm_tflops(ctx, req, r.in, r.out, r.math, 8192, &note);
    if (rate > 0) rates[r.name] = rate;
    notes[r.name] = note;
  }
  nlohmann::json out = {
      {"copy_tbs", copy_bandwidth_tbs(ctx, req)}, {"gemm_tflops", rates}, {"gemm_kernels", notes}};
  LatencyFloor floor = measure_latency_floor(ctx.activity, ctx.l2_bytes);
  if (floor.launch_us) out["launch_floor_us"] = *floor.launch_us;
  if (floor.cold_read_us) out["cold_read_us"] = *floor.cold_read_us;
  if (floor.launch_sync_us) out["launch_sync_us"] = *floor.launch_sync_us;
  out["method"] =
      "copy: cudaMemcpyAsync of 2 GiB device-to-device, bytes read + written over the median of CUDA-event "
      "times; gemm: cublasLt 8192^3 TN on uniform(-1,1) data, cold L2, median of CUDA-event times; " +
      floor.method;
  return out;
}

}  // namespace ucut::worker
