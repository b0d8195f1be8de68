// eval/worker/conv_reference.h — the independent convolution reference: a direct convolution on the GPU, one
// thread per output element summing in FP64 (conv_direct.h). Neither CUTLASS nor cuDNN: it shares no code
// with the candidate or the baseline.
#pragma once

#include "eval/protocol.h"
#include "eval/worker/cuda_check.h"

namespace ucut::worker {

/// acc[m, n] = Σ x·w and abs_acc[m, n] = Σ |x||w| over output pixel m's taps for output channel n (Y as a
/// row-major m×n matrix), both summed in double and stored as float. x: X[n][d][h][w][c] and w: W[k][t][r][s][c],
/// packed float on the device.
void conv_reference_gpu(const float* x, const float* w, const ConvShape& shape, float* acc, float* abs_acc,
                        cudaStream_t s);

}  // namespace ucut::worker
