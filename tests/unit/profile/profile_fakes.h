// tests/unit/profile/profile_fakes.h — what the profile command's tests run instead of a GPU: a build cache
// holding a (fake) library for a spec, so `profile` finds it built without nvcc; shell-script stand-ins for ncu
// and the worker; and ncu raw-page CSVs with chosen Speed-of-Light numbers. Header-only: the unit-test target
// globs only *_test.cpp.
#pragma once

#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../test_paths.h"
#include "build/cache.h"
#include "build/toolchain.h"
#include "compiler/pipeline.h"
#include "engine/profile/metrics.h"
#include "support/files.h"

namespace ucut::profile::testing {

inline std::string source_path(const std::string& rel) { return ucut::test_paths::source_dir() + "/" + rel; }

/// Puts an empty kernel.so where `cache_dir` keeps the build of `spec` (a path under the source tree), so a build
/// of it is served from the cache. False when nvcc or CUTLASS is missing here (the key needs their versions).
inline bool seed_build_cache(const std::string& cache_dir, const std::string& spec) {
  std::string error;
  auto tc = find_toolchain("", &error);
  if (!tc) return false;
  std::string path = source_path(spec);
  Compilation c = compile_spec(SourceFile(path, read_file(path).value()));
  if (!c.ok() || !c.kernel) return false;
  std::string key = KernelCache(cache_dir, *tc).key(*c.kernel);
  std::filesystem::path entry = std::filesystem::path(cache_dir) / key.substr(0, 2) / key;
  std::filesystem::create_directories(entry);
  std::ofstream(entry / "kernel.so") << "";
  return true;
}

/// Writes an executable /bin/sh script.
inline std::string write_script(const std::filesystem::path& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path.string();
}

/// An ncu that runs the profiled command (everything after `--launch-count N`) the way ncu does, and reports that
/// it profiled nothing.
inline std::string ncu_running_the_command(const std::filesystem::path& dir) {
  return write_script(dir / "ncu",
                      "while [ \"$1\" != \"--launch-count\" ]; do shift; done\nshift 2\n"
                      "echo '==PROF== Connected to process 1'\n\"$@\"\necho '==WARNING== No kernels were profiled.'");
}

/// A worker on a machine without a GPU: it keeps the request it got and answers as the real one does there.
inline std::string worker_without_gpu(const std::filesystem::path& dir) {
  return write_script(dir / "worker",
                      fmt::format("cp \"$1\" '{}'\n"
                                  "echo '{{\"fatal_error\": \"timing needs a CUDA GPU, and none is usable here: no "
                                  "CUDA-capable device is detected\"}}' > \"$2\"\nexit 3",
                                  (dir / "request_seen.json").string()));
}

/// An ncu raw-page CSV of one kernel with these Speed-of-Light numbers and duration.
inline std::string sol_csv(const std::string& kernel, double sm, double dram, double mem, double duration_ns) {
  return fmt::format(
      "==PROF== Connected to process 7\n"
      "\"ID\",\"Process ID\",\"Kernel Name\",\"{}\",\"{}\",\"{}\",\"{}\"\n"
      "\"\",\"\",\"\",\"%\",\"%\",\"%\",\"ns\"\n"
      "\"0\",\"7\",\"{}\",\"{}\",\"{}\",\"{}\",\"{}\"\n",
      metric::sm_throughput, metric::dram_throughput, metric::memory_throughput, metric::duration, kernel, sm, dram,
      mem, duration_ns);
}

}  // namespace ucut::profile::testing
