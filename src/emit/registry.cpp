// emit/registry.cpp — maps archs.def's backend column to Backend implementations.
#include "emit/backend.h"

namespace ucut {

namespace sm90 {
const Backend& sm90_backend();
}

const Backend* backend_for(const KernelConfig& cfg) {
  switch (arch_info(cfg.arch.value).backend) {
    case BackendKind::sm90: return &sm90::sm90_backend();
    default: return nullptr;
  }
}

}  // namespace ucut
