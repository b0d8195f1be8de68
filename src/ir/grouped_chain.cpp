// ir/grouped_chain.cpp — see grouped_chain.h.
#include "ir/grouped_chain.h"

namespace ucut {

GroupedChain grouped_chain(const KernelConfig& cfg) {
  GroupedChain g;
  int position = 0;  // 0: nothing yet, 1: after the scale, 2: after the residual, 3: after the activation
  for (size_t i = 0; i < cfg.epilogue.size(); ++i) {
    const EpiOp& op = cfg.epilogue[i];
    EpiCategory c = epi_info(op.kind).category;
    if (c == EpiCategory::store) break;
    if (c == EpiCategory::scalar && op.kind == EpiKind::scale && position < 1) {
      g.scale = &op;
      position = 1;
    } else if (c == EpiCategory::source && position < 2 && op.tensor &&
               op.tensor->dtype.value == cfg.output().dtype.value) {
      g.residual = &op;
      position = 2;
    } else if (c == EpiCategory::activation && position < 3) {
      g.activation = &op;
      g.activation_stage = i;
      position = 3;
    } else {
      g.unsupported = &op;
      break;
    }
  }
  return g;
}

}  // namespace ucut
