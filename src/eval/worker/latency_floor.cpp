// eval/worker/latency_floor.cpp — see latency_floor.h. The busy-time trials repeat the MSKB worker's cold
// trial (mskb/worker/measure_item.cpp, time_cold): L2 persistence reset, the flush, a device synchronize, a
// CUPTI window opened without a flush, one call, synchronize, the window's busy time.
#include "eval/worker/latency_floor.h"

#include <fmt/format.h>

#include <functional>
#include <vector>

#include "eval/stats.h"
#include "eval/worker/device_buffer.h"
#include "eval/worker/device_ops.h"
#include "eval/worker/timing.h"

namespace ucut::worker {
namespace {

constexpr int kWarmup = 10;
constexpr int kTrials = 200;         // busy-time trials per floor
constexpr int kLoops = 20;           // MSKB-compatible loops
constexpr int kCallsPerLoop = 50;    // MSKB's own count
constexpr size_t kSmallRead = 4096;  // bytes

/// The median GPU busy time (µs) of `call` over kTrials cold-L2 trials after kWarmup. A window with no record
/// (CUPTI lost it) is left out, not counted as 0; nullopt when more than a tenth were: the floor would be
/// made up.
std::optional<double> median_busy_us(DeviceActivity& activity, int64_t l2_bytes,
                                     const std::function<void()>& call) {
  Timer flush(0, l2_bytes);
  std::vector<double> busy;
  for (int t = 0; t < kWarmup + kTrials; ++t) {
    flush.reset_l2_persistence();
    flush.flush_l2(t);
    CUDA_OK(cudaDeviceSynchronize());
    activity.open_unflushed();
    call();
    CUDA_OK(cudaDeviceSynchronize());
    ActivityWindow w = activity.close();
    if (t >= kWarmup && !w.records.empty()) busy.push_back(static_cast<double>(busy_ns(w)) / 1e3);
  }
  if (busy.size() < kTrials * 9 / 10) return std::nullopt;
  return summarize(busy).median;
}

/// MSKB's loop with an empty launcher: 3 warm-up calls, then kCallsPerLoop calls of launch +
/// cudaDeviceSynchronize between two events on the default stream; the median over kLoops of the mean per
/// call (µs).
double launch_sync_us() {
  auto call = [] {
    launch_empty_kernel(0);
    CUDA_OK(cudaDeviceSynchronize());
  };
  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  std::vector<double> per_call;
  for (int loop = 0; loop < kLoops; ++loop) {
    for (int i = 0; i < 3; ++i) call();
    CUDA_OK(cudaEventRecord(start, 0));
    for (int i = 0; i < kCallsPerLoop; ++i) call();
    CUDA_OK(cudaEventRecord(stop, 0));
    CUDA_OK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
    per_call.push_back(ms * 1e3 / kCallsPerLoop);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return summarize(per_call).median;
}

}  // namespace

LatencyFloor measure_latency_floor(DeviceActivity* activity, int64_t l2_bytes) {
  LatencyFloor f;
  std::string busy_method = fmt::format(
      "GPU busy time (CUPTI, the union of the call's records) of one call on the default stream, each trial "
      "after an L2 persistence reset, a {}-byte flush and a device synchronize, as `bench mskb` times a "
      "launcher; median of {} trials after {} warm-up: an empty <<<1,32>>> kernel (launch_floor_us), a "
      "<<<1,{}>>> kernel reading {} bytes the flush evicted (cold_read_us)",
      std::max<int64_t>(4 * l2_bytes, 64 << 20), kTrials, kWarmup, kSmallRead / 16, kSmallRead);
  if (activity && activity->available()) {
    activity->record(true);
    f.launch_us = median_busy_us(*activity, l2_bytes, [] { launch_empty_kernel(0); });
    DeviceBuffer data(kSmallRead), sink(sizeof(unsigned));
    CUDA_OK(cudaMemset(data.get(), 1, kSmallRead));
    f.cold_read_us = median_busy_us(*activity, l2_bytes, [&] {
      launch_small_read_kernel(data.get(), kSmallRead, sink.as<unsigned>(), 0);
    });
    for (auto [floor, name] : {std::pair{&f.launch_us, "launch_floor_us"}, {&f.cold_read_us, "cold_read_us"}})
      if (!*floor)
        busy_method += fmt::format("; {} not kept: over a tenth of its CUPTI windows held no record", name);
  } else {
    busy_method = "GPU busy floors not measured: CUPTI is unavailable (" +
                  (activity ? activity->error() : std::string("no activity recorder")) + ")";
  }
  f.launch_sync_us = launch_sync_us();
  f.method = fmt::format(
      "floor: {}; MSKB-compatible (launch_sync_us): an empty kernel + cudaDeviceSynchronize, {} back-to-back "
      "calls between two default-stream events after 3 warm-up, CUPTI recording {}; median over {} loops of "
      "the mean per call",
      busy_method, kCallsPerLoop, activity && activity->available() ? "on as in the MSKB worker" : "off",
      kLoops);
  if (activity) activity->record(false);
  return f;
}

}  // namespace ucut::worker
