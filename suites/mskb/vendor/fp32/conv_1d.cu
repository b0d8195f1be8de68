// MSKB conv_1d, FP32 vendor reference: cuDNN cudnnConvolutionForward as a 1×input_size image correlated with a
// 1×kernel_size filter (cudnn_correlate.h: cross-correlation, valid, FMA math, algorithm found once per shape).
#include <cuda_runtime.h>

#include "cudnn_correlate.h"

extern "C" void conv_1d_vendor(const float* input, const float* kernel, float* output, int input_size,
                               int kernel_size) {
  vendor_correlate_2d(input, kernel, output, 1, input_size, 1, kernel_size, CUDNN_DATA_FLOAT);
  cudaDeviceSynchronize();
}
