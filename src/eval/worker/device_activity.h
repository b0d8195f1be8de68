// eval/worker/device_activity.h — what ran on the GPU, from CUPTI's activity records: every kernel, copy and
// memset with its stream and its [start, end] on the GPU's clock. The harness opens a window around a
// candidate's launch and sees work on every stream (the off-stream check, the device-wide time) and the
// kernels' names; the MSKB worker takes the union of the intervals as a launcher's GPU busy time.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ucut::worker {

enum class ActivityKind { kernel, memcpy, memset };

/// One record. Times in ns on CUPTI's clock (cuptiGetTimestamp); a kernel's name as the binary spells it
/// (mangled).
struct ActivityRecord {
  ActivityKind kind = ActivityKind::kernel;
  uint32_t stream_id = 0;  // CUPTI's id of the stream (DeviceActivity::stream_id)
  uint64_t start = 0, end = 0;
  std::string name;
};

/// The records of one window, in start order.
struct ActivityWindow {
  uint64_t opened = 0, closed = 0;  // the window's ends, on the records' clock
  std::vector<ActivityRecord> records;
};

/// ns of GPU time in which at least one record of `w` ran (the union of the intervals).
uint64_t busy_ns(const ActivityWindow& w);

/// One per process (CUPTI's activity buffers are process-wide). Records nothing until available().
class DeviceActivity {
 public:
  DeviceActivity();  // registers with CUPTI, recording nothing yet; available() says whether that worked
  ~DeviceActivity();
  DeviceActivity(const DeviceActivity&) = delete;
  DeviceActivity& operator=(const DeviceActivity&) = delete;

  bool available() const { return available_; }
  /// Why not available: CUPTI's own words (e.g. another profiler holds it).
  const std::string& error() const { return error_; }

  /// CUPTI's id of `s` (as ActivityRecord::stream_id has it); 0 when unavailable.
  uint32_t stream_id(cudaStream_t s) const;

  /// Starts or stops CUPTI's kernel, memcpy and memset records (off: no cost to what runs meanwhile).
  void record(bool on);

  /// Opens a window: records that start from now on belong to it. Work enqueued before must be finished
  /// (synchronize first), or its records may start inside the window.
  void open();
  /// Opens a window without flushing CUPTI's buffers: a flush makes the next launch wait for a new buffer (about
  /// 0.25 ms on an H100), so a window around a timed call opens this way; records that started before it are
  /// still dropped at close().
  void open_unflushed();
  /// Closes the window; everything the window should see must be finished (synchronize the device first).
  ActivityWindow close();

 private:
  bool available_ = false;
  bool recording_ = false;
  std::string error_;
  uint64_t opened_ = 0;
};

}  // namespace ucut::worker
