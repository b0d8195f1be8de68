// mskb/launcher_build.h — how an MSKB launcher file becomes a library the harness can call. The source (one
// self-contained .cu, as MSKB's own files are) gets a call adapter appended: `ucut_mskb_call(void* const* args)`
// calls the launcher with the task's parameters, so the worker calls every task and role the same way. Local
// headers beside the launcher or one folder up (suites/mskb/vendor/*.h) are inlined, so the translation unit alone
// keys the build cache.
#pragma once

#include <string>
#include <vector>

#include "build/cache.h"
#include "mskb/protocol_enums.h"
#include "mskb/signature.h"
#include "mskb/task.h"

namespace ucut::mskb {

inline constexpr const char* kCallSymbol = "ucut_mskb_call";

/// The adapter: declares `symbol` with `sig`'s parameters and defines ucut_mskb_call. args[i] is the device pointer
/// itself for a pointer parameter and points at the host value for a scalar.
std::string call_adapter(const Signature& sig, const std::string& symbol);

/// One launcher to build: which file, and which function in it.
struct LauncherSource {
  Role role = Role::naive;
  std::string path;    // the .cu
  std::string symbol;  // RELU, RELU_vendor, RELU_optimized
};

/// The launcher sources of `task` in `p` under suites/mskb (`suite_dir`), naive then vendor (when the task has
/// one), and the candidate from `impl_dir` when it holds <name>.cu or <precision>/<name>.cu (MSKB's own layout).
std::vector<LauncherSource> launcher_sources(const Task& task, Precision p, const std::string& suite_dir,
                                             const std::string& impl_dir);

struct LauncherBuild {
  LauncherSource source;
  bool ok = false;
  bool cached = false;
  std::string library;
  std::string error;  // the file and nvcc's first error lines
  double seconds = 0;
  std::string code;   // the translation unit built: the launcher with its local headers inlined, and the adapter
};

/// Builds each source for `gencode` through the cache (up to `jobs` at once), linking the vendor libraries.
std::vector<LauncherBuild> build_launchers(const KernelCache& cache, const Task& task, Precision p,
                                           const std::vector<LauncherSource>& sources, const std::string& gencode,
                                           int jobs);

}  // namespace ucut::mskb
