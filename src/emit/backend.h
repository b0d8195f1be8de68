// emit/backend.h — the interface every code generator implements, and the registry that picks one.
#pragma once

#include <string>
#include <vector>

#include "ir/kernel_config.h"
#include "support/source.h"

namespace ucut {

struct EmittedKernel {
  std::string code;         // one self-contained .cu translation unit
  std::string kernel_namespace;
  std::string config_hash;  // sha256 of the canonical config
  std::string gencode;      // the nvcc -gencode value for this target, e.g. arch=compute_90a,code=sm_90a
  std::vector<std::string> libraries;  // extra libraries to link, e.g. {"cublas"} (MSKB vendor launchers)
  std::vector<std::string> extra_flags;  // nvcc options after the defaults (an MSKB candidate's chosen ones)
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  /// Emits a checked config. Precondition: check() reported no errors.
  virtual EmittedKernel emit(const SourceFile& src, const KernelConfig& cfg) const = 0;
};

/// The backend for the config's arch (archs.def's backend column); nullptr if none (check reports C101).
const Backend* backend_for(const KernelConfig& cfg);

}  // namespace ucut
