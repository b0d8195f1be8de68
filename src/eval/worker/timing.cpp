// eval/worker/timing.cpp — the two timing passes.
#include "eval/worker/timing.h"

#include <chrono>
#include <vector>

namespace ucut::worker {

Timer::Timer(cudaStream_t stream, int64_t l2_bytes)
    : stream_(stream), flush_(static_cast<size_t>(std::max<int64_t>(4 * l2_bytes, 64 << 20))) {}

namespace {

/// Whether the device has a persisting-L2 carve-out to set: before Ampere there is none, and the calls are refused.
bool has_l2_carve_out() {
  int device = 0, max_carve_out = 0;
  CUDA_OK(cudaGetDevice(&device));
  CUDA_OK(cudaDeviceGetAttribute(&max_carve_out, cudaDevAttrMaxPersistingL2CacheSize, device));
  return max_carve_out > 0;
}

}  // namespace

int64_t clear_driver_l2_carve_out() {
  if (!has_l2_carve_out()) return 0;
  size_t carve_out = 0;
  CUDA_OK(cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize));
  if (carve_out > 0) CUDA_OK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  return static_cast<int64_t>(carve_out);
}

void Timer::flush_l2(int trial) {
  CUDA_OK(cudaMemsetAsync(flush_.get(), trial & 0xFF, flush_.bytes(), stream_));
}

void Timer::reset_l2_persistence() { worker::reset_l2_persistence(stream_, persistence_); }

void reset_l2_persistence(cudaStream_t stream, std::string& found) {
  if (!has_l2_carve_out()) return;
  auto note = [&](const std::string& what) {
    if (found.find(what) != std::string::npos) return;
    found += (found.empty() ? "" : "; ") + what;
  };
  cudaStreamAttrValue window{};
  CUDA_OK(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window));
  if (window.accessPolicyWindow.num_bytes > 0) {
    note("an access-policy window was set on the launch stream");
    cudaStreamAttrValue none{};
    CUDA_OK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &none));
  }
  size_t carve_out = 0;
  CUDA_OK(cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize));
  if (carve_out > 0) {
    note("a persisting-L2 carve-out (cudaLimitPersistingL2CacheSize) was set");
    CUDA_OK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  }
  CUDA_OK(cudaCtxResetPersistingL2Cache());  // cheap: a launch after it is no slower (H100, 2026-12-06)
}

TimingResult Timer::measure(const std::function<void(int)>& launch, const TimingPlan& plan,
                            const TrialHooks& hooks) {
  TimingResult r;
  auto before = [&](int t) {
    reset_l2_persistence();
    if (hooks.before) hooks.before(t);
    if (plan.flush_l2) flush_l2(t);
  };
  for (int i = 0; i < plan.warmup; ++i) {
    before(i);
    launch(i);
  }
  CUDA_OK(cudaDeviceSynchronize());

  // Pass 1: events bracket only the launch; the flush before it keeps the GPU busy while the host enqueues. A
  // verified call is enqueued as every other (the flush still running when it launches: nothing tells it
  // apart); its check, which synchronizes, follows its stop event.
  std::vector<cudaEvent_t> starts(plan.trials), stops(plan.trials);
  for (int t = 0; t < plan.trials; ++t) {
    CUDA_OK(cudaEventCreate(&starts[t]));
    CUDA_OK(cudaEventCreate(&stops[t]));
  }
  std::vector<double> event_ms;
  try {
    std::vector<bool> checked(plan.trials, false);
    for (int t = 0; t < plan.trials; ++t) {
      checked[t] = hooks.checked && hooks.checked(t);
      if (checked[t]) hooks.check_begin(t);
      before(t);
      CUDA_OK(cudaEventRecord(starts[t], stream_));
      launch(t);
      CUDA_OK(cudaEventRecord(stops[t], stream_));
      if (checked[t]) hooks.check_end(t);
    }
    CUDA_OK(cudaDeviceSynchronize());
    for (int t = 0; t < plan.trials; ++t) {
      float ms = 0;
      CUDA_OK(cudaEventElapsedTime(&ms, starts[t], stops[t]));
      if (!checked[t]) event_ms.push_back(ms);
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
    before(t);
    CUDA_OK(cudaDeviceSynchronize());
    if (hooks.wall_begin) hooks.wall_begin();
    auto t0 = std::chrono::steady_clock::now();
    launch(t);
    CUDA_OK(cudaDeviceSynchronize());
    wall_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (hooks.wall_end) hooks.wall_end();
  }
  r.event_ms = summarize(event_ms);
  r.wall_ms = summarize(wall_ms);
  r.measured = true;
  return r;
}

}  // namespace ucut::worker
