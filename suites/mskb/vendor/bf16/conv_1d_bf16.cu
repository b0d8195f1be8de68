// MSKB conv_1d, BF16 vendor reference: cuDNN cudnnConvolutionForward on BF16 data with FP32 compute, as a
// 1×input_size image correlated with a 1×kernel_size filter (cudnn_correlate.h: cross-correlation, valid, algorithm
// found once per shape).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "cudnn_correlate.h"

extern "C" void conv_1d_bf16_vendor(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output,
                                    int input_size, int kernel_size) {
  vendor_correlate_2d(input, kernel, output, 1, input_size, 1, kernel_size, CUDNN_DATA_BFLOAT16);
  cudaDeviceSynchronize();
}
