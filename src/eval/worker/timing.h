// eval/worker/timing.h — how the worker times anything (a kernel, cuBLAS): cold L2 before every trial,
// CUDA events on the launch stream, and a separate pass of host wall-clock around launch +
// cudaDeviceSynchronize, which sees work on every stream (the off-stream cross-check).
#pragma once

#include <functional>

#include "eval/protocol.h"
#include "eval/worker/device_buffer.h"

namespace ucut::worker {

struct TimingPlan {
  int warmup = 10;
  int trials = 100;
  bool flush_l2 = true;
};

class Timer {
 public:
  /// `l2_bytes`: the device's L2; the flush buffer is four times that, written before each trial.
  Timer(cudaStream_t stream, int64_t l2_bytes);

  /// Times `launch(trial)` (which enqueues on the stream and may throw): warm-up, an events pass and a wall pass.
  TimingResult measure(const std::function<void(int)>& launch, const TimingPlan& plan);

 private:
  void flush(int trial);

  cudaStream_t stream_;
  DeviceBuffer flush_;
};

}  // namespace ucut::worker
