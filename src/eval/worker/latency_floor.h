// eval/worker/latency_floor.h — the least time a call can take under each of the harness's timings, for
// `ucutlass calibrate` (schema ucutlass.calibration/2, sol/calibration.h): an empty kernel and a cold 4 KiB
// read timed as the MSKB worker times a launcher's call (GPU busy time from CUPTI, cold L2), and an empty
// launch plus cudaDeviceSynchronize timed as MSKB's own loop times one (back-to-back, the mean per call).
#pragma once

#include <optional>
#include <string>

#include "eval/worker/device_activity.h"

namespace ucut::worker {

struct LatencyFloor {
  std::optional<double> launch_us;     // empty kernel, GPU busy time, median
  std::optional<double> cold_read_us;  // one CTA reading 4 KiB after the L2 flush, GPU busy time, median
  std::optional<double>
      launch_sync_us;  // empty kernel + cudaDeviceSynchronize, MSKB-compatible, median of loops
  std::string method;  // what was timed, how often, and what was not measured and why
};

/// Measures the floors on the current device (default stream, as MSKB launchers run). `activity` records
/// throughout, as in the MSKB worker; without it (null or unavailable) the GPU busy floors are not measured.
/// `l2_bytes`: the device's L2, for the flush before every busy-time trial.
LatencyFloor measure_latency_floor(DeviceActivity* activity, int64_t l2_bytes);

}  // namespace ucut::worker
