// sol/gpu_table.h — the GPU datasheet table (data/gpus.toml): peak rates per precision, DRAM bandwidth,
// SMs, L2 and clocks, each entry with its sources. The SOL model (sol/roofline.h) reads peaks from here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ucut::sol {

/// The precisions the table carries a peak for. Tensor core rates except fp64 and fp32 (SIMT).
enum class Precision { fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8 };

/// "tf32", "fp16", ... (the TOML field names; int8 is in TOPS).
std::string_view precision_name(Precision p);
/// Parses a precision name; also accepts "f32", "f16", "bf16", "e4m3", "e5m2", "i8", "f64".
std::optional<Precision> find_precision(std::string_view name);
/// Every precision, in table order.
const std::vector<Precision>& all_precisions();

/// One GPU's datasheet figures. Peaks are dense (no structured sparsity), in TFLOP/s (int8: TOPS), quoted
/// at `boost_clock_mhz`.
struct GpuSpec {
  std::string key;  // the TOML table name, e.g. "h200"
  std::string name;
  std::vector<std::string> aliases;  // matched against CUDA device names
  int sm = 0;                        // compute capability x10: 90 for sm_90
  int sms = 0;
  double l2_mb = 0;
  double boost_clock_mhz = 0;
  double memory_gb = 0;
  double bandwidth_tbs = 0;  // DRAM, TB/s (10^12 B/s)
  std::optional<double> fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8;
  std::vector<std::string> sources;
  std::string notes;

  /// The datasheet peak for `p` in TFLOP/s, or nullopt when the GPU has no such unit.
  std::optional<double> peak_tflops(Precision p) const;
};

/// Every GPU of data/gpus.toml, in file order.
struct GpuTable {
  std::string path;  // where it was read from
  std::vector<GpuSpec> gpus;

  /// By table key, case-insensitive ("h200", "H100_SXM").
  const GpuSpec* find_key(std::string_view key) const;
  /// By a CUDA device name ("NVIDIA H100 80GB HBM3"): an exact name or alias first, then the longest alias
  /// found in the device name on word boundaries (so "NVIDIA GB200" does not match "B200").
  const GpuSpec* find_device(std::string_view device_name) const;
  /// By key, then by name or alias: what `--gpu` accepts.
  const GpuSpec* find(std::string_view key_or_name) const;
  /// Every table key, for suggestions.
  std::vector<std::string_view> keys() const;
};

/// Parses the table from TOML text. `path` names the file in messages. Every GPU must have name, aliases,
/// sm, sms, l2_mb, boost_clock_mhz, memory_gb, bandwidth_tbs (0.1–20 TB/s), fp64, fp32, tf32, fp16, bf16,
/// int8 and non-empty sources; fp64_tensor and fp8 are optional (absent where the GPU has none). Every
/// number must be positive. On failure returns nullopt and sets `error` to "PATH: GPU `key`: field `f` ...".
std::optional<GpuTable> parse_gpu_table(const std::string& text, const std::string& path, std::string* error);

/// Loads and validates a table file.
std::optional<GpuTable> load_gpu_table(const std::string& path, std::string* error);

/// Where gpus.toml is looked for, in order: $UCUT_DATA_DIR, <exe dir>/../share/ucutlass/data,
/// <exe dir>/../data, then the source tree's data/ (compiled in as UCUT_SOURCE_DATA_DIR).
std::vector<std::string> data_dir_candidates();

/// Finds data/gpus.toml along data_dir_candidates() and loads it. When no file is found the error lists
/// every place it looked.
std::optional<GpuTable> load_default_gpu_table(std::string* error);

}  // namespace ucut::sol
