// ir/broadcast_chain.h — the epilogue form of CUTLASS 2.x's broadcast epilogue (EpilogueWithBroadcast around the
// thread functor LinearCombinationBiasElementwise), which the forward convolutions' DefaultConv2d/3dFpropWithBroadcast
// kernels run:
//   T = alpha * acc + beta * C + V[k],   Y = act(T),
// C a residual read as Y's type, V a per-channel `bias(col)` vector of any float type, and T — the value before the
// activation — written as a second tensor by `aux_store`. A 2.x forward convolution uses it for the chains the plain
// functor (ir/linear_chain.h) cannot run. check (C420, C416) rejects what fits neither; emit/sm80/conv.cpp writes
// the rest.
#pragma once

#include <cstddef>

#include "ir/kernel_config.h"

namespace ucut {

struct BroadcastChain {
  const EpiOp* scale = nullptr;       // `scale(alpha)`, first
  const EpiOp* residual = nullptr;    // `residual(C)` (read as Y's type), before or after the bias
  const EpiOp* bias = nullptr;        // `bias(col)`, the broadcast vector V
  const EpiOp* aux = nullptr;         // `aux_store(T)`, after the scale, residual and bias, before the activation
  const EpiOp* activation = nullptr;  // one activation, applied last
  size_t activation_stage = 0;        // its index in the chain
  const EpiOp* unsupported = nullptr; // the first stage outside the form (out of order, repeated, other kinds)
};

/// Splits the chain into the broadcast epilogue's parts.
BroadcastChain broadcast_chain(const KernelConfig& cfg);

/// Whether CUTLASS 4.2 has a 2.x kernel with the broadcast epilogue for the operator that fits our tensors: the
/// dense forward convolutions (conv1d as conv2d, conv2d, conv3d). Not the transposed ones (its deconv kernels are
/// SIMT only and read the filter as [K, R, S, C]), filter gradients, grouped or depthwise convolutions.
bool has_broadcast_conv_kernel(OpKind op);

/// Whether a 2.x convolution runs the broadcast epilogue: it has such a kernel, and its chain does not fit the
/// plain functor act(alpha * acc + beta * C) (linear_chain) but fits this form.
bool conv_uses_broadcast(const KernelConfig& cfg);

}  // namespace ucut
