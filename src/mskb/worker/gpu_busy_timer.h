// mskb/worker/gpu_busy_timer.h — the GPU time of whatever a launcher enqueues (kernels, copies, sets), from CUPTI's
// activity records: the union of their [start, end] intervals inside a window. That is MSKB's "kernel-only" time:
// it leaves out the launch overhead and the launcher's own cudaDeviceSynchronize, which MSKB's timing includes.
#pragma once

#include <cstdint>
#include <string>

namespace ucut::mskb::worker {

class GpuBusyTimer {
 public:
  GpuBusyTimer();  // enables CUPTI's activity records; available() says whether that worked
  ~GpuBusyTimer();
  GpuBusyTimer(const GpuBusyTimer&) = delete;
  GpuBusyTimer& operator=(const GpuBusyTimer&) = delete;

  bool available() const { return available_; }
  const std::string& error() const { return error_; }

  /// Opens a window; the device must be idle (synchronize first).
  void begin();
  /// Closes it after the launcher returned (which synchronized) and returns the busy milliseconds inside it.
  double end_ms();

 private:
  bool available_ = false;
  std::string error_;
  uint64_t window_start_ = 0;
};

}  // namespace ucut::mskb::worker
