// build/cache.h — the content-addressed kernel build cache. Key: sha256 of the emitted translation unit
// (which carries the canonical config's hash in its namespace), the nvcc version, the flags and the
// CUTLASS version. Shapes are run-time arguments, so one build serves every problem shape.
// Entries: <dir>/<key[0:2]>/<key>/{kernel.cu, kernel.so, build.log, meta.json}, published atomically.
#pragma once

#include <string>
#include <vector>

#include "build/toolchain.h"
#include "emit/backend.h"
#include "support/progress.h"

namespace ucut {

/// How long one nvcc run may take before it is killed.
constexpr double kBuildTimeoutSeconds = 900;

struct BuildResult {
  bool ok = false;
  bool cached = false;     // served from the cache without running nvcc
  std::string key;
  std::string library;     // path of kernel.so
  std::string log_path;    // nvcc's output
  std::string error;       // summary when !ok
  double seconds = 0;      // nvcc wall time (0 when cached)
};

class KernelCache {
 public:
  KernelCache(std::string dir, Toolchain toolchain);

  std::string key(const EmittedKernel& k) const;
  /// Returns the cached library or builds it (nvcc, with `timeout_s`).
  BuildResult build(const EmittedKernel& k, double timeout_s = kBuildTimeoutSeconds) const;
  /// Builds many kernels with up to `jobs` nvcc processes at once; results in input order. `progress`, when
  /// given, counts each kernel in hand and built, by its `labels` entry (the spec's name; else its
  /// namespace).
  std::vector<BuildResult> build_all(const std::vector<EmittedKernel>& ks, int jobs,
                                     double timeout_s = kBuildTimeoutSeconds, Progress* progress = nullptr,
                                     const std::vector<std::string>& labels = {}) const;

  const std::string& dir() const { return dir_; }
  const Toolchain& toolchain() const { return toolchain_; }

 private:
  std::string dir_;
  Toolchain toolchain_;
};

/// $UCUT_CACHE_DIR, else $XDG_CACHE_HOME/ucutlass, else ~/.cache/ucutlass.
std::string default_cache_dir();

/// Parallel nvcc jobs this machine can afford: one per core, at most one per 3.5 GB of memory
/// (an SM90 CUTLASS kernel peaks at about 3.3 GB in nvcc).
int default_build_jobs();

}  // namespace ucut
