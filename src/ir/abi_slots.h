// ir/abi_slots.h — where each runtime parameter of a kernel travels in ucut_gemm_args
// (abi/kernel_abi.h). The emitter reads arguments from these slots and the harness fills them.
#pragma once

#include <string>
#include <vector>

#include "ir/kernel_config.h"

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

}  // namespace ucut
