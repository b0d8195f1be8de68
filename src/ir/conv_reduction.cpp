// ir/conv_reduction.cpp — see conv_reduction.h.
#include "ir/conv_reduction.h"

#include "ir/linear_chain.h"
#include "ir/sm80_mma.h"

namespace ucut {

Conv2xReduction conv2x_reduction_fit(const KernelConfig& cfg, const EpiOp& op) {
  if (op.axis.value == Axis::row) return Conv2xReduction::per_pixel;
  if (op.kind == EpiKind::col_max) return Conv2xReduction::max;
  OpKind k = cfg.op.value;
  if (op_conv_kind(k) != ConvKind::fprop || op_conv_grouping(k) != ConvGrouping::dense || op_spatial_dims(k) == 3)
    return Conv2xReduction::no_kernel;
  std::optional<Sm80Mma> mma = sm80_mma(cfg);
  if (mma && mma->cls == Sm80MmaClass::simt) return Conv2xReduction::simt;
  if (cfg.acc.value != DType::f32) return Conv2xReduction::accumulator;
  if (cfg.reductions().size() > 1) return Conv2xReduction::several;
  // The sum is of D before its rounding: the stage must come last, after what the functor computes.
  bool last = cfg.epilogue.size() >= 2 && &op == &cfg.epilogue[cfg.epilogue.size() - 2];
  LinearChain chain = linear_chain(cfg, /*allow_bias=*/true);
  if (!last || chain.unsupported != &op || chain.activation) return Conv2xReduction::form;
  return Conv2xReduction::fits;
}

const EpiOp* conv2x_reduction(const KernelConfig& cfg) {
  if (!cfg.conv() || cfg.backend() != BackendKind::sm80) return nullptr;
  std::vector<const EpiOp*> r = cfg.reductions();
  return r.size() == 1 && conv2x_reduction_fit(cfg, *r[0]) == Conv2xReduction::fits ? r[0] : nullptr;
}

}  // namespace ucut
