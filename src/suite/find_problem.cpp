// suite/find_problem.cpp — see find_problem.h.
#include "suite/find_problem.h"

#include <cstdlib>
#include <filesystem>

#include "sol/gpu_table.h"
#include "suite/check.h"

namespace ucut::suite {

namespace fs = std::filesystem;

std::vector<std::string> suite_dir_candidates() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("UCUT_SUITES_DIR"); env && *env) dirs.push_back(env);
  dirs.push_back("suites");
  for (const std::string& d : sol::data_dir_candidates())
    dirs.push_back((fs::path(d) / ".." / "suites").lexically_normal().string());
  return dirs;
}

std::string default_suite_dir() {
  for (const std::string& d : suite_dir_candidates()) {
    std::error_code ec;
    if (fs::is_directory(d, ec)) return d;
  }
  return "";
}

std::optional<std::string> find_suite_problem(const std::string& dir, const std::string& name) {
  if (dir.empty() || name.empty()) return std::nullopt;
  std::vector<std::string> missing;
  for (const std::string& path : problem_files({dir}, &missing))
    if (fs::path(path).stem() == name) return path;
  return std::nullopt;
}

}  // namespace ucut::suite
