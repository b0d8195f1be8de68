// build/toolchain.cpp — nvcc and CUTLASS discovery.
#include "build/toolchain.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/subprocess.h"

namespace fs = std::filesystem;

namespace ucut {
namespace {

std::optional<std::string> find_nvcc() {
  std::vector<std::string> candidates;
  if (const char* c = std::getenv("CUDACXX")) candidates.push_back(c);
  if (const char* h = std::getenv("CUDA_HOME")) candidates.push_back(std::string(h) + "/bin/nvcc");
  candidates.push_back("/usr/local/cuda/bin/nvcc");
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty()) candidates.push_back(dir + "/nvcc");
  }
  for (const std::string& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) return c;
  }
  return std::nullopt;
}

std::string read_cutlass_version(const std::string& dir) {
  std::ifstream in(dir + "/include/cutlass/version.h");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  auto grab = [&](const char* name) {
    std::smatch m;
    std::regex re(std::string("#define ") + name + R"(\s+(\d+))");
    return std::regex_search(text, m, re) ? m[1].str() : std::string("?");
  };
  return fmt::format("{}.{}.{}", grab("CUTLASS_MAJOR"), grab("CUTLASS_MINOR"), grab("CUTLASS_PATCH"));
}

}  // namespace

std::string default_cutlass_dir() {
#ifdef UCUT_DEFAULT_CUTLASS_DIR
  return UCUT_DEFAULT_CUTLASS_DIR;
#else
  return "";
#endif
}

std::optional<Toolchain> find_toolchain(const std::string& cutlass_dir, std::string* error) {
  Toolchain t;
  auto nvcc = find_nvcc();
  if (!nvcc) {
    if (error)
      *error = "nvcc not found (looked in $CUDACXX, $CUDA_HOME/bin, /usr/local/cuda/bin and PATH); "
               "install the CUDA toolkit or set CUDACXX";
    return std::nullopt;
  }
  t.nvcc = *nvcc;
  ProcessResult v = run_process({t.nvcc, "--version"}, ProcessOptions::with_timeout(60));
  std::smatch m;
  static const std::regex re(R"(V(\d+)\.(\d+)\.(\d+))");
  if (!v.ok() || !std::regex_search(v.out, m, re)) {
    if (error) *error = fmt::format("`{} --version` failed ({}): {}", t.nvcc, v.describe(), v.err);
    return std::nullopt;
  }
  t.nvcc_version = fmt::format("{}.{}.{}", m[1].str(), m[2].str(), m[3].str());
  t.cuda_version = std::stoi(m[1].str()) * 10 + std::stoi(m[2].str());

  std::vector<std::string> dirs;
  if (!cutlass_dir.empty()) dirs.push_back(cutlass_dir);
  if (const char* e = std::getenv("CUTLASS_DIR")) dirs.push_back(e);
  if (!default_cutlass_dir().empty()) dirs.push_back(default_cutlass_dir());
  for (const std::string& d : dirs) {
    std::error_code ec;
    if (fs::is_regular_file(d + "/include/cutlass/cutlass.h", ec) &&
        fs::is_regular_file(d + "/tools/util/include/cutlass/util/packed_stride.hpp", ec)) {
      t.cutlass_dir = fs::absolute(d).string();
      t.cutlass_version = read_cutlass_version(t.cutlass_dir);
      return t;
    }
  }
  if (error) {
    std::string looked;
    for (const std::string& d : dirs) looked += (looked.empty() ? "" : ", ") + d;
    *error = fmt::format("CUTLASS headers not found (looked in: {}); run scripts/setup.sh or point CUTLASS_DIR at "
                         "a directory holding include/cutlass and tools/util/include",
                         looked.empty() ? "nothing: CUTLASS_DIR is unset" : looked);
  }
  return std::nullopt;
}

}  // namespace ucut
