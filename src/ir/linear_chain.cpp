// ir/linear_chain.cpp — see linear_chain.h.
#include "ir/linear_chain.h"

namespace ucut {

LinearChain linear_chain(const KernelConfig& cfg, bool allow_bias) {
  LinearChain g;
  int position = 0;  // 0: nothing yet, 1: after the scale, 2: after C (residual or bias), 3: after the activation
  DType d = cfg.output().dtype.value;
  for (size_t i = 0; i < cfg.epilogue.size(); ++i) {
    const EpiOp& op = cfg.epilogue[i];
    EpiCategory c = epi_info(op.kind).category;
    if (c == EpiCategory::store) break;
    if (c == EpiCategory::scalar && op.kind == EpiKind::scale && position < 1) {
      g.scale = &op;
      position = 1;
    } else if (c == EpiCategory::source && position < 2 && op.tensor && op.tensor->dtype.value == d) {
      g.residual = &op;
      position = 2;
    } else if (allow_bias && op.kind == EpiKind::bias && op.axis.value == Axis::col && position < 2 &&
               op.dtype.value == d) {
      g.bias = &op;
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
