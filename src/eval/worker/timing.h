// eval/worker/timing.h — how the worker times anything (a kernel, cuBLAS): cold L2 before every trial
// (persisting lines and the launch stream's access-policy window reset, then a flush), CUDA events on the
// launch stream, and a separate pass of host wall-clock around launch + cudaDeviceSynchronize, which sees
// work on every stream (the off-stream cross-check). A candidate's measurement adds hooks: its outputs
// poisoned before every call, some event-timed calls verified, CUPTI's records around the wall-clock calls.
#pragma once

#include <functional>
#include <string>

#include "eval/protocol.h"
#include "eval/worker/device_buffer.h"

namespace ucut::worker {

struct TimingPlan {
  int warmup = 10;
  int trials = 100;
  bool flush_l2 = true;
};

/// What a candidate's measurement adds around each call; every member may be empty.
struct TrialHooks {
  /// Enqueued before the call's L2 flush, untimed (e.g. poison the outputs).
  std::function<void(int trial)> before;
  /// The event-timed call `trial` is verified: check_begin comes before its `before` and flush, check_end
  /// after its stop event; it is enqueued as every other call and left out of the statistics.
  std::function<bool(int trial)> checked;
  std::function<void(int trial)> check_begin;
  std::function<void(int trial)> check_end;
  /// Around each wall-clock call, the device idle on both sides.
  std::function<void()> wall_begin;
  std::function<void()> wall_end;
};

class Timer {
 public:
  /// `l2_bytes`: the device's L2; the flush buffer is four times that, written before each trial.
  Timer(cudaStream_t stream, int64_t l2_bytes);

  /// Times `launch(trial)` (which enqueues on the stream and may throw): warm-up, an events pass and a wall
  /// pass. Verified calls are left out of the event statistics.
  TimingResult measure(const std::function<void(int)>& launch, const TimingPlan& plan,
                       const TrialHooks& hooks = {});

  /// Writes the flush buffer (4x L2) on the stream: what the L2 held is gone when the next call starts.
  void flush_l2(int trial);

  /// Before a call: resets persisting L2 lines, the persisting carve-out and the launch stream's
  /// access-policy window. What was found set before the reset is kept in l2_persistence().
  void reset_l2_persistence();
  /// What reset_l2_persistence found set, first occurrence of each kind, "; "-joined; empty: nothing.
  const std::string& l2_persistence() const { return persistence_; }

 private:
  cudaStream_t stream_;
  DeviceBuffer flush_;
  std::string persistence_;
};

/// Before a call on `stream`: the persisting carve-out and `stream`'s access-policy window cleared, persisting lines
/// reset (Ampere on; nothing before). Appends what was found set to `found` ("; "-joined, each kind once).
void reset_l2_persistence(cudaStream_t stream, std::string& found);

/// A context can start with a persisting-L2 carve-out already set (H100, driver 580: 9,830,400 bytes). The worker
/// clears it before it loads any candidate, so that a carve-out found before a call is the candidate's; returns the
/// driver's value (0 on devices without a carve-out).
int64_t clear_driver_l2_carve_out();

}  // namespace ucut::worker
