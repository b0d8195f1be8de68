// eval/worker/driver_info.h — how the GPU processes name the driver and runtime in their reports.
#pragma once

#include <string>

namespace ucut::worker {

/// "13.0" from a CUDA version number (13000).
std::string cuda_version_string(int v);

/// "580.159.04 (CUDA 13.0)": the kernel module's release from /proc when readable, and the driver API version.
std::string driver_string(int api_version);

}  // namespace ucut::worker
