// MSKB conv_2d, BF16 vendor reference: cuDNN cudnnConvolutionForward on BF16 data with FP32 compute, one
// single-channel image with one filter (cudnn_correlate.h: cross-correlation, valid, algorithm found once per shape).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "cudnn_correlate.h"

extern "C" void conv_2d_bf16_vendor(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output,
                                    int input_rows, int input_cols, int kernel_rows, int kernel_cols) {
  vendor_correlate_2d(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols, CUDNN_DATA_BFLOAT16);
  cudaDeviceSynchronize();
}
