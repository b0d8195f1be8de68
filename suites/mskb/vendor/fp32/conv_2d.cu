// MSKB conv_2d, FP32 vendor reference: cuDNN cudnnConvolutionForward of one single-channel image with one filter
// (cudnn_correlate.h: cross-correlation, valid, FMA math, algorithm found once per shape).
#include <cuda_runtime.h>

#include "cudnn_correlate.h"

extern "C" void conv_2d_vendor(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                               int kernel_rows, int kernel_cols) {
  vendor_correlate_2d(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols, CUDNN_DATA_FLOAT);
  cudaDeviceSynchronize();
}
