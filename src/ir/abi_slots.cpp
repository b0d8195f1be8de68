// ir/abi_slots.cpp — assigns runtime parameters to ABI slots in chain order.
#include "ir/abi_slots.h"

namespace ucut {

AbiSlots abi_slots(const KernelConfig& cfg) {
  AbiSlots s;
  for (size_t i = 0; i < cfg.epilogue.size(); ++i) {
    const EpiOp& op = cfg.epilogue[i];
    switch (epi_info(op.kind).category) {
      case EpiCategory::vector: s.vectors.push_back({i, op.axis.value, op.dtype.value}); break;
      case EpiCategory::scalar:
      case EpiCategory::source: s.scalars.push_back({i, op.scalar_name, op.scalar_default}); break;
      case EpiCategory::aux:
      case EpiCategory::reduce: s.aux.push_back({i}); break;  // reductions write their vector through an aux slot
      default: break;
    }
  }
  return s;
}

}  // namespace ucut
