// sol/calibration.h — the calibration store: achievable ceilings measured on one physical GPU (by
// `ucutlass calibrate`), kept beside the datasheet figures of data/gpus.toml and never mixed with them.
//
// Files: $UCUT_STATE_DIR/calibration/<gpu_uuid>.json ($UCUT_STATE_DIR defaults to
// $XDG_STATE_HOME/ucutlass, then ~/.local/state/ucutlass). One JSON object per GPU:
//
//   {
//     "schema": "ucutlass.calibration/1",         // required, exactly this string
//     "gpu_uuid": "GPU-5f3c9a1e-...",              // required, as nvidia-smi / cudaDeviceProp.uuid print it
//     "gpu_name": "NVIDIA H200",                   // required, the CUDA device name
//     "gpu_key": "h200",                           // optional, the data/gpus.toml key it was matched to
//     "date": "2026-11-30T12:00:00Z",              // required, ISO 8601 UTC (sorts as text)
//     "driver": "580.159.04",                      // required, driver version
//     "method": "torch copy_ 2 GiB median of 50; cublasGemmEx 8192^3 median of 100",  // required, free text
//     "clock_mhz": 1980,                           // optional, the SM clock during the run (locked or observed)
//     "copy_bandwidth_tbs": 4.1,                   // required, > 0: device-to-device copy, read+write bytes counted
//     "gemm_tflops": { "tf32": 402, "fp16": 703, "bf16": 782 }  // optional per precision (sol/gpu_table.h
//                                                  //   names: fp64 fp64_tensor fp32 tf32 fp16 bf16 fp8 int8), > 0
//   }
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sol/gpu_table.h"

namespace ucut::sol {

/// The schema tag every calibration file carries.
inline constexpr std::string_view kCalibrationSchema = "ucutlass.calibration/1";

/// Achievable ceilings measured on one physical GPU.
struct Calibration {
  std::string gpu_uuid;
  std::string gpu_name;
  std::string gpu_key;  // empty when unknown
  std::string date;     // ISO 8601 UTC
  std::string driver;
  std::string method;
  std::optional<double> clock_mhz;
  double copy_bandwidth_tbs = 0;
  std::map<Precision, double> gemm_tflops;
};

void to_json(nlohmann::json& j, const Calibration& c);
/// Throws nlohmann::json::exception or std::invalid_argument on a malformed object.
void from_json(const nlohmann::json& j, Calibration& c);

/// $UCUT_STATE_DIR, else $XDG_STATE_HOME/ucutlass, else $HOME/.local/state/ucutlass.
std::string default_state_dir();

/// <state_dir>/calibration/<gpu_uuid>.json; characters outside [A-Za-z0-9._-] in the uuid become '_'.
std::string calibration_path(const std::string& state_dir, const std::string& gpu_uuid);

/// Writes `c` to calibration_path(state_dir, c.gpu_uuid), creating folders; false with `error` on failure.
bool save_calibration(const Calibration& c, const std::string& state_dir, std::string* error);

/// Reads and validates one calibration file; nullopt with `error` naming the file and field on failure.
std::optional<Calibration> load_calibration(const std::string& path, std::string* error);

/// The newest calibration under <state_dir>/calibration/ for `gpu`: its gpu_key equals gpu.key, or its
/// gpu_name resolves to `gpu` through table.find_device. Unreadable files are skipped (noted in `error`).
std::optional<Calibration> find_calibration(const GpuTable& table, const GpuSpec& gpu, const std::string& state_dir,
                                            std::string* error = nullptr);

}  // namespace ucut::sol
