// eval/worker/calibrate.h — the present GPU's achievable ceilings: device-to-device copy bandwidth, the
// cuBLAS GEMM rate per precision (8192³ on random data, cold L2) and the latency floors (latency_floor.h),
// for `ucutlass calibrate`.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/worker/measure_shape.h"

namespace ucut::worker {

nlohmann::json calibrate(const DeviceContext& ctx, const WorkerRequest& req);

}  // namespace ucut::worker
