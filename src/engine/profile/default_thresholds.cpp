// engine/profile/default_thresholds.cpp — finding and loading the thresholds file.
#include "engine/profile/default_thresholds.h"

#include <fmt/format.h>

#include <filesystem>

#include "sol/gpu_table.h"

namespace ucut::profile {

std::string default_thresholds_path(const std::vector<std::string>& data_dirs) {
  for (const std::string& dir : data_dirs) {
    std::filesystem::path p = std::filesystem::path(dir) / kThresholdsFileName;
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

std::string default_thresholds_path() { return default_thresholds_path(sol::data_dir_candidates()); }

std::optional<Thresholds> resolve_thresholds(const std::string& path, std::string* error) {
  return resolve_thresholds(path, error, sol::data_dir_candidates());
}

std::optional<Thresholds> resolve_thresholds(const std::string& path, std::string* error,
                                             const std::vector<std::string>& data_dirs) {
  if (!path.empty()) return load_thresholds(path, error);
  std::string found = default_thresholds_path(data_dirs);
  if (found.empty()) return prior_thresholds();
  std::string why;
  if (auto t = load_thresholds(found, &why)) return t;
  Thresholds prior = prior_thresholds();
  prior.source += fmt::format(
      " (the thresholds file is unusable: {}; fix it or learn it again with `ucutlass "
      "profile-corpus`)",
      why);
  return prior;
}

}  // namespace ucut::profile
