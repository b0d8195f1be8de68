// sol/calibration.h — the calibration store: achievable ceilings measured on one physical GPU (by
// `ucutlass calibrate`), kept beside the datasheet figures of data/gpus.toml and never mixed with them.
//
// Files: $UCUT_STATE_DIR/calibration/<gpu_uuid>.json ($UCUT_STATE_DIR defaults to
// $XDG_STATE_HOME/ucutlass, then ~/.local/state/ucutlass). One JSON object per GPU:
//
//   {
//     "schema": "ucutlass.calibration/2",   // required; "ucutlass.calibration/1" is still read (no floor)
//     "gpu_uuid": "GPU-5f3c9a1e-...",        // required, as nvidia-smi / cudaDeviceProp.uuid print it
//     "gpu_name": "NVIDIA H200",             // required, the CUDA device name
//     "gpu_key": "h200",                     // optional, the data/gpus.toml key it was matched to
//     "date": "2026-11-30T12:00:00Z",        // required, ISO 8601 UTC (sorts as text)
//     "driver": "580.159.04",                // required, driver version
//     "method": "copy: ...; floor: ...",     // required, free text: what was timed, how, and what was not
//     "clock_mhz": 1980,                     // optional, the SM clock during the run (locked or observed)
//     "copy_bandwidth_tbs": 4.1,             // required, > 0: device-to-device copy, read+write bytes
//     "gemm_tflops": {"bf16": 782},          // optional, > 0 per precision (sol/gpu_table.h names: fp64
//                                            //   fp64_tensor fp32 tf32 fp16 bf16 fp8 int8)
//     // schema 2 only; each optional (absent: not measured, `method` says why), > 0, in microseconds:
//     "launch_floor_us": 1.1,  // GPU busy time (CUPTI) of an empty kernel, timed as `bench mskb` times calls
//     "cold_read_us": 1.9,     // the same for one CTA reading 4 KiB that the L2 flush before it evicted
//     "launch_sync_us": 5.2    // MSKB-compatible time per call of an empty kernel + cudaDeviceSynchronize
//   }
//
// The latency floor (latency_floor_us) bounds a call's GPU busy time from below whatever its size: every call
// launches at least one kernel and, under the harness's cold-L2 timing, reads its inputs from DRAM.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sol/gpu_table.h"

namespace ucut::sol {

/// The schema tag a calibration file is written with, and the older one still read.
inline constexpr std::string_view kCalibrationSchema = "ucutlass.calibration/2";
inline constexpr std::string_view kCalibrationSchemaV1 = "ucutlass.calibration/1";

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
  int schema_version = 2;  // 1: read from a calibration/1 file, which has no floor fields
  std::optional<double> launch_floor_us;
  std::optional<double> cold_read_us;
  std::optional<double> launch_sync_us;

  /// The least GPU busy time of a call: the larger of launch_floor_us and cold_read_us; nullopt without
  /// either.
  std::optional<double> latency_floor_us() const;
  /// Why there is no latency floor ("" when there is one), for reports to say so.
  std::string floor_note() const;
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
