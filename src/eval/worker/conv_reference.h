// eval/worker/conv_reference.h — the independent convolution reference: a direct convolution of any kind on the
// GPU, every output element summed in FP64 (conv_direct.h). Neither CUTLASS nor cuDNN: it shares no code with the
// candidate or the baseline.
#pragma once

#include "eval/protocol.h"
#include "eval/worker/cuda_check.h"

namespace ucut::worker {

/// acc[m, n] = Σ a·b and abs_acc[m, n] = Σ |a||b| over the products of output element (m, n) of the convolution of
/// kind shape.kind (its output as the implicit GEMM's row-major m×n matrix), both summed in double and stored as
/// float. a and b: the kind's operands (fprop X and W, dgrad DY and W, wgrad DY and X), packed channels-last float
/// on the device.
void conv_reference_gpu(const float* a, const float* b, const ConvShape& shape, float* acc, float* abs_acc,
                        cudaStream_t s);

}  // namespace ucut::worker
