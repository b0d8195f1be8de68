// mskb/worker/gpu_busy_timer.cpp
#include "mskb/worker/gpu_busy_timer.h"

#include <cupti.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

namespace ucut::mskb::worker {

namespace {

constexpr size_t kBufferBytes = 8 << 20;

std::mutex g_mutex;
std::vector<std::pair<uint64_t, uint64_t>> g_intervals;  // [start, end] ns of completed records

// By value: the record structs are packed.
void add_interval(uint64_t start, uint64_t end) { g_intervals.emplace_back(start, end); }

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(record);
        add_interval(k->start, k->end);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(record);
        add_interval(m->start, m->end);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(record);
        add_interval(m->start, m->end);
        break;
      }
      default: break;
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

GpuBusyTimer::GpuBusyTimer() {
  CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (r != CUPTI_SUCCESS) {
    error_ = cupti_error("cuptiActivityRegisterCallbacks", r);
    return;
  }
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET}) {
    r = cuptiActivityEnable(kind);
    if (r != CUPTI_SUCCESS) {
      error_ = cupti_error("cuptiActivityEnable", r);
      return;
    }
  }
  available_ = true;
}

GpuBusyTimer::~GpuBusyTimer() {
  if (!available_) return;
  cuptiActivityFlushAll(1);
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET})
    cuptiActivityDisable(kind);
}

void GpuBusyTimer::begin() {
  cuptiActivityFlushAll(1);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_intervals.clear();
  }
  cuptiGetTimestamp(&window_start_);
}

double GpuBusyTimer::end_ms() {
  uint64_t window_end = 0;
  cuptiGetTimestamp(&window_end);
  cuptiActivityFlushAll(1);
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    spans.swap(g_intervals);
  }
  std::erase_if(spans, [&](const auto& s) { return s.first < window_start_ || s.first > window_end; });
  std::sort(spans.begin(), spans.end());
  uint64_t busy = 0, cur_start = 0, cur_end = 0;
  bool open = false;
  for (const auto& [b, e] : spans) {
    if (open && b <= cur_end) {
      cur_end = std::max(cur_end, e);
      continue;
    }
    if (open) busy += cur_end - cur_start;
    cur_start = b;
    cur_end = e;
    open = true;
  }
  if (open) busy += cur_end - cur_start;
  return static_cast<double>(busy) / 1e6;
}

}  // namespace ucut::mskb::worker
