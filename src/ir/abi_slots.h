// ir/abi_slots.h — where each runtime parameter of a kernel travels in ucut_gemm_args
// (abi/kernel_abi.h). The emitter reads arguments from these slots and the harness fills them.
#pragma once

#include <string>
#include <vector>

#include "ir/kernel_config.h"
#include "support/error.h"

namespace ucut {

struct AbiSlots {
  struct Vector {
    size_t stage;  // index into KernelConfig::epilogue
    Axis axis;
    DType dtype;
  };
  struct Scalar {
    size_t stage;
    std::string name;
    double default_value;
  };
  struct Aux {
    size_t stage;
  };
  std::vector<Vector> vectors;
  std::vector<Scalar> scalars;
  std::vector<Aux> aux;
};

AbiSlots abi_slots(const KernelConfig& cfg);

/// The index in `slots` (one list of an AbiSlots) of epilogue stage `stage`'s slot. abi_slots gives one to
/// every stage of the list's kinds, so a stage without one is a bug (InternalError).
template <class Slot>
size_t slot_index(const std::vector<Slot>& slots, size_t stage) {
  for (size_t i = 0; i < slots.size(); ++i)
    if (slots[i].stage == stage) return i;
  UC_UNREACHABLE() << "epilogue stage " << stage << " has no ABI slot in a list of " << slots.size();
}

}  // namespace ucut
