// eval/worker/device_activity.cpp — see device_activity.h. CUPTI hands records over in buffers it asks for
// and returns, on its own thread: the callbacks append them to one list under a lock.
#include "eval/worker/device_activity.h"

#include <cuda.h>
#include <cupti.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace ucut::worker {
namespace {

constexpr size_t kBufferBytes = 8 << 20;
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMSET};

std::mutex g_mutex;
std::vector<ActivityRecord> g_records;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

// The record structs are packed: fields are copied out by value.
void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(record);
        g_records.push_back({ActivityKind::kernel, k->streamId, k->start, k->end, k->name ? k->name : ""});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(record);
        g_records.push_back({ActivityKind::memcpy, m->streamId, m->start, m->end, {}});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(record);
        g_records.push_back({ActivityKind::memset, m->streamId, m->start, m->end, {}});
        break;
      }
      default:
        break;
    }
  }
  std::free(buffer);
}

std::string cupti_error(const char* what, CUptiResult r) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return std::string(what) + ": " + (text ? text : "unknown CUPTI error");
}

}  // namespace

uint64_t busy_ns(const ActivityWindow& w) {
  uint64_t busy = 0, cur_start = 0, cur_end = 0;
  bool open = false;
  for (const ActivityRecord& r : w.records) {  // in start order
    if (open && r.start <= cur_end) {
      cur_end = std::max(cur_end, r.end);
      continue;
    }
    if (open) busy += cur_end - cur_start;
    cur_start = r.start;
    cur_end = r.end;
    open = true;
  }
  if (open) busy += cur_end - cur_start;
  return busy;
}

DeviceActivity::DeviceActivity() {
  CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (r != CUPTI_SUCCESS) {
    error_ = cupti_error("cuptiActivityRegisterCallbacks", r);
    return;
  }
  for (CUpti_ActivityKind kind : kKinds) {
    r = cuptiActivityEnable(kind);
    if (r != CUPTI_SUCCESS) {
      error_ = cupti_error("cuptiActivityEnable", r);
      return;
    }
    cuptiActivityDisable(kind);
  }
  available_ = true;
}

DeviceActivity::~DeviceActivity() {
  if (!available_) return;
  record(false);
  cuptiActivityFlushAll(1);
}

void DeviceActivity::record(bool on) {
  if (!available_ || on == recording_) return;
  for (CUpti_ActivityKind kind : kKinds) on ? cuptiActivityEnable(kind) : cuptiActivityDisable(kind);
  recording_ = on;
}

uint32_t DeviceActivity::stream_id(cudaStream_t s) const {
  uint32_t id = 0;
  if (available_) cuptiGetStreamIdEx(nullptr, reinterpret_cast<CUstream>(s), 0, &id);
  return id;
}

void DeviceActivity::open() {
  if (!available_) return;
  cuptiActivityFlushAll(1);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_records.clear();
  }
  cuptiGetTimestamp(&opened_);
}

void DeviceActivity::open_unflushed() {
  if (available_) cuptiGetTimestamp(&opened_);
}

ActivityWindow DeviceActivity::close() {
  ActivityWindow w;
  if (!available_) return w;
  w.opened = opened_;
  cuptiGetTimestamp(&w.closed);
  cuptiActivityFlushAll(1);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    w.records.swap(g_records);
  }
  std::erase_if(w.records, [&](const ActivityRecord& r) { return r.start < w.opened || r.start > w.closed; });
  std::sort(w.records.begin(), w.records.end(),
            [](const ActivityRecord& a, const ActivityRecord& b) { return a.start < b.start; });
  return w;
}

}  // namespace ucut::worker
