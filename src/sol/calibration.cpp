// sol/calibration.cpp — save, load and find measured ceilings (schema in sol/calibration.h).
#include "sol/calibration.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace ucut::sol {
namespace {

namespace fs = std::filesystem;

std::string required_string(const nlohmann::json& j, const char* field) {
  if (!j.contains(field) || !j[field].is_string() || j[field].get<std::string>().empty())
    throw std::invalid_argument(fmt::format("field `{}` is missing or not a non-empty string", field));
  return j[field].get<std::string>();
}

double positive_number(const nlohmann::json& v, const std::string& field) {
  if (!v.is_number() || !(v.get<double>() > 0))
    throw std::invalid_argument(fmt::format("field `{}` must be a positive number", field));
  return v.get<double>();
}

/// The floor fields of a calibration/2 file, in the order they are written.
constexpr std::pair<const char*, std::optional<double> Calibration::*> kFloorFields[] = {
    {"launch_floor_us", &Calibration::launch_floor_us},
    {"cold_read_us", &Calibration::cold_read_us},
    {"launch_sync_us", &Calibration::launch_sync_us}};

}  // namespace

std::optional<double> Calibration::latency_floor_us() const {
  if (launch_floor_us && cold_read_us) return std::max(*launch_floor_us, *cold_read_us);
  return launch_floor_us ? launch_floor_us : cold_read_us;
}

std::string Calibration::floor_note() const {
  if (latency_floor_us()) return "";
  if (schema_version == 1)
    return fmt::format(
        "the calibration of {} is a {} file, measured before the latency floor existed: run "
        "`ucutlass calibrate` again",
        date, kCalibrationSchemaV1);
  return fmt::format("the calibration of {} measured no latency floor (its method says why)", date);
}

void to_json(nlohmann::json& j, const Calibration& c) {
  j = nlohmann::json{
      {"schema", std::string(c.schema_version == 1 ? kCalibrationSchemaV1 : kCalibrationSchema)},
      {"gpu_uuid", c.gpu_uuid},
      {"gpu_name", c.gpu_name},
      {"date", c.date},
      {"driver", c.driver},
      {"method", c.method},
      {"copy_bandwidth_tbs", c.copy_bandwidth_tbs}};
  if (!c.gpu_key.empty()) j["gpu_key"] = c.gpu_key;
  if (c.clock_mhz) j["clock_mhz"] = *c.clock_mhz;
  nlohmann::json rates = nlohmann::json::object();
  for (const auto& [p, tf] : c.gemm_tflops) rates[std::string(precision_name(p))] = tf;
  j["gemm_tflops"] = rates;
  if (c.schema_version == 1) return;
  for (const auto& [field, member] : kFloorFields)
    if (c.*member) j[field] = *(c.*member);
}

void from_json(const nlohmann::json& j, Calibration& c) {
  if (!j.is_object()) throw std::invalid_argument("a calibration is a JSON object");
  if (!j.contains("schema") ||
      (j["schema"] != std::string(kCalibrationSchema) && j["schema"] != std::string(kCalibrationSchemaV1)))
    throw std::invalid_argument(fmt::format("field `schema` must be \"{}\" (or the older \"{}\")",
                                            kCalibrationSchema, kCalibrationSchemaV1));
  c.schema_version = j["schema"] == std::string(kCalibrationSchemaV1) ? 1 : 2;
  c.gpu_uuid = required_string(j, "gpu_uuid");
  c.gpu_name = required_string(j, "gpu_name");
  c.date = required_string(j, "date");
  c.driver = required_string(j, "driver");
  c.method = required_string(j, "method");
  c.gpu_key = j.contains("gpu_key") && j["gpu_key"].is_string() ? j["gpu_key"].get<std::string>() : "";
  c.clock_mhz.reset();
  if (j.contains("clock_mhz")) c.clock_mhz = positive_number(j["clock_mhz"], "clock_mhz");
  if (!j.contains("copy_bandwidth_tbs")) throw std::invalid_argument("field `copy_bandwidth_tbs` is missing");
  c.copy_bandwidth_tbs = positive_number(j["copy_bandwidth_tbs"], "copy_bandwidth_tbs");
  c.gemm_tflops.clear();
  if (j.contains("gemm_tflops")) {
    if (!j["gemm_tflops"].is_object()) throw std::invalid_argument("field `gemm_tflops` must be an object");
    for (const auto& [name, v] : j["gemm_tflops"].items()) {
      auto p = find_precision(name);
      if (!p) throw std::invalid_argument(fmt::format("field `gemm_tflops.{}` is not a known precision", name));
      c.gemm_tflops[*p] = positive_number(v, "gemm_tflops." + name);
    }
  }
  for (const auto& [field, member] : kFloorFields) {
    (c.*member).reset();
    if (!j.contains(field)) continue;
    if (c.schema_version == 1)
      throw std::invalid_argument(fmt::format("field `{}` needs schema \"{}\"", field, kCalibrationSchema));
    c.*member = positive_number(j[field], field);
  }
}

std::string default_state_dir() {
  if (const char* s = std::getenv("UCUT_STATE_DIR"); s && *s) return s;
  if (const char* x = std::getenv("XDG_STATE_HOME"); x && *x) return (fs::path(x) / "ucutlass").string();
  const char* home = std::getenv("HOME");
  return (fs::path(home && *home ? home : ".") / ".local" / "state" / "ucutlass").string();
}

std::string calibration_path(const std::string& state_dir, const std::string& gpu_uuid) {
  std::string file = gpu_uuid.empty() ? "unknown" : gpu_uuid;
  for (char& ch : file)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-') ch = '_';
  if (file.front() == '.') file.front() = '_';
  return (fs::path(state_dir) / "calibration" / (file + ".json")).string();
}

bool save_calibration(const Calibration& c, const std::string& state_dir, std::string* error) {
  if (c.gpu_uuid.empty()) {
    if (error) *error = "a calibration needs the GPU's uuid to be saved";
    return false;
  }
  fs::path path = calibration_path(state_dir, c.gpu_uuid);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    if (error) *error = fmt::format("cannot create '{}': {}", path.parent_path().string(), ec.message());
    return false;
  }
  // Write beside the target and rename, so a reader never sees half a file.
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp);
    out << nlohmann::json(c).dump(2) << "\n";
    if (!out) {
      if (error) *error = fmt::format("cannot write '{}'", tmp.string());
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    if (error) *error = fmt::format("cannot write '{}': {}", path.string(), ec.message());
    return false;
  }
  return true;
}

std::optional<Calibration> load_calibration(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    if (error) *error = fmt::format("cannot read calibration '{}'", path);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    Calibration c = nlohmann::json::parse(ss.str()).get<Calibration>();
    return c;
  } catch (const std::exception& e) {
    if (error) *error = fmt::format("{}: {}", path, e.what());
    return std::nullopt;
  }
}

std::optional<Calibration> find_calibration(const GpuTable& table, const GpuSpec& gpu, const std::string& state_dir,
                                            std::string* error) {
  fs::path dir = fs::path(state_dir) / "calibration";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  std::optional<Calibration> best;
  std::string skipped;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".json") continue;
    std::string why;
    auto c = load_calibration(e.path().string(), &why);
    if (!c) {
      skipped += (skipped.empty() ? "" : "\n") + why;
      continue;
    }
    bool match = c->gpu_key.empty() ? table.find_device(c->gpu_name) == &gpu : c->gpu_key == gpu.key;
    if (match && (!best || c->date > best->date)) best = std::move(c);
  }
  if (error) *error = skipped;
  return best;
}

}  // namespace ucut::sol
