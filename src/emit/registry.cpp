// emit/registry.cpp — maps archs.def's backend column to Backend implementations.
#include "emit/backend.h"

namespace ucut {

namespace sm90 {
const Backend& sm90_backend();
}
namespace sm80 {
const Backend& sm80_backend();
}

const Backend* backend_for(const KernelConfig& cfg) {
  switch (cfg.backend()) {
    case BackendKind::sm90: return &sm90::sm90_backend();
    case BackendKind::sm80: return &sm80::sm80_backend();
    default: return nullptr;
  }
}

}  // namespace ucut
