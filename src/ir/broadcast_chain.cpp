// ir/broadcast_chain.cpp — see broadcast_chain.h.
#include "ir/broadcast_chain.h"

#include "ir/linear_chain.h"

namespace ucut {

BroadcastChain broadcast_chain(const KernelConfig& cfg) {
  BroadcastChain g;
  // 0: nothing yet, 1: after the scale, 2: among the residual and bias, 3: after aux_store, 4: after the activation
  int position = 0;
  DType d = cfg.output().dtype.value;
  for (size_t i = 0; i < cfg.epilogue.size(); ++i) {
    const EpiOp& op = cfg.epilogue[i];
    EpiCategory c = epi_info(op.kind).category;
    if (c == EpiCategory::store) break;
    if (op.kind == EpiKind::scale && position < 1) {
      g.scale = &op;
      position = 1;
    } else if (c == EpiCategory::source && !g.residual && position < 3 && op.tensor && op.tensor->dtype.value == d) {
      g.residual = &op;
      position = 2;
    } else if (op.kind == EpiKind::bias && op.axis.value == Axis::col && !g.bias && position < 3) {
      g.bias = &op;
      position = 2;
    } else if (c == EpiCategory::aux && position < 3) {
      g.aux = &op;
      position = 3;
    } else if (c == EpiCategory::activation && position < 4) {
      g.activation = &op;
      g.activation_stage = i;
      position = 4;
    } else {
      g.unsupported = &op;
      break;
    }
  }
  return g;
}

bool has_broadcast_conv_kernel(OpKind op) {
  return op_family(op) == OpFamily::conv && op_conv_kind(op) == ConvKind::fprop &&
         op_conv_grouping(op) == ConvGrouping::dense;
}

bool conv_uses_broadcast(const KernelConfig& cfg) {
  return cfg.conv() && cfg.backend() == BackendKind::sm80 && has_broadcast_conv_kernel(cfg.op.value) &&
         linear_chain(cfg, /*allow_bias=*/true).unsupported && !broadcast_chain(cfg).unsupported;
}

}  // namespace ucut
