// build/toolchain.h — finds nvcc and the CUTLASS headers, and says precisely what is missing.
#pragma once

#include <optional>
#include <string>

namespace ucut {

struct Toolchain {
  std::string nvcc;          // path to nvcc
  std::string nvcc_version;  // "13.0.88"
  int cuda_version = 0;      // 130 for CUDA 13.0
  std::string cutlass_dir;   // holds include/cutlass/cutlass.h and tools/util/include
  std::string cutlass_version;  // from include/cutlass/version.h, e.g. "4.2.0"
};

/// Looks for nvcc in $CUDACXX, $CUDA_HOME/bin, /usr/local/cuda/bin and PATH, and for CUTLASS in
/// `cutlass_dir`, $CUTLASS_DIR, then the directory the project's setup installs it to.
/// On failure returns nullopt and explains in `error` what is missing and how to get it.
std::optional<Toolchain> find_toolchain(const std::string& cutlass_dir, std::string* error);

/// The CUTLASS location the setup scripts install (compiled in; may not exist on this machine).
std::string default_cutlass_dir();

}  // namespace ucut
