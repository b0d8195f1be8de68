// eval/worker/timing.cpp — the two timing passes.
#include "eval/worker/timing.h"

#include <chrono>
#include <vector>

namespace ucut::worker {

Timer::Timer(cudaStream_t stream, int64_t l2_bytes)
    : stream_(stream), flush_(static_cast<size_t>(std::max<int64_t>(4 * l2_bytes, 64 << 20))) {}

void Timer::flush(int trial) { CUDA_OK(cudaMemsetAsync(flush_.get(), trial & 0xFF, flush_.bytes(), stream_)); }

TimingResult Timer::measure(const std::function<void(int)>& launch, const TimingPlan& plan) {
  TimingResult r;
  for (int i = 0; i < plan.warmup; ++i) launch(i);
  CUDA_OK(cudaDeviceSynchronize());

  // Pass 1: events bracket only the launch; the flush before it keeps the GPU busy while the host enqueues.
  std::vector<cudaEvent_t> starts(plan.trials), stops(plan.trials);
  for (int t = 0; t < plan.trials; ++t) {
    CUDA_OK(cudaEventCreate(&starts[t]));
    CUDA_OK(cudaEventCreate(&stops[t]));
  }
  std::vector<double> event_ms;
  try {
    for (int t = 0; t < plan.trials; ++t) {
      if (plan.flush_l2) flush(t);
      CUDA_OK(cudaEventRecord(starts[t], stream_));
      launch(t);
      CUDA_OK(cudaEventRecord(stops[t], stream_));
    }
    CUDA_OK(cudaDeviceSynchronize());
    for (int t = 0; t < plan.trials; ++t) {
      float ms = 0;
      CUDA_OK(cudaEventElapsedTime(&ms, starts[t], stops[t]));
      event_ms.push_back(ms);
    }
  } catch (...) {
    for (int t = 0; t < plan.trials; ++t) {
      cudaEventDestroy(starts[t]);
      cudaEventDestroy(stops[t]);
    }
    throw;
  }
  for (int t = 0; t < plan.trials; ++t) {
    cudaEventDestroy(starts[t]);
    cudaEventDestroy(stops[t]);
  }

  // Pass 2: the host clock from enqueue to a device-wide synchronize.
  std::vector<double> wall_ms;
  for (int t = 0; t < plan.trials; ++t) {
    if (plan.flush_l2) flush(t);
    CUDA_OK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    launch(t);
    CUDA_OK(cudaDeviceSynchronize());
    wall_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  r.event_ms = summarize(event_ms);
  r.wall_ms = summarize(wall_ms);
  r.measured = true;
  return r;
}

}  // namespace ucut::worker
