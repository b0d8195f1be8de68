// MSKB batch_norm, FP32 vendor reference: cuDNN cudnnBatchNormalizationForwardTraining (spatial mode, batch
// statistics with the biased variance) on the N×C input as an N×C×1×1 tensor, gamma and beta per channel; no
// running averages or saved statistics are requested. No glue.
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

static cudnnTensorDescriptor_t new_tensor_descriptor() {
  cudnnTensorDescriptor_t made = nullptr;
  VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
  return made;
}

extern "C" void batch_norm_vendor(float* output, const float* input, const float* gamma, const float* beta,
                                  const float epsilon, const int N, const int C) {
  static cudnnTensorDescriptor_t x = new_tensor_descriptor(), params = new_tensor_descriptor();
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, 1, 1));
  VENDOR_CUDNN(cudnnDeriveBNTensorDescriptor(params, x, CUDNN_BATCHNORM_SPATIAL));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnBatchNormalizationForwardTraining(vendor_cudnn(), CUDNN_BATCHNORM_SPATIAL, &one, &zero, x,
                                                      input, x, output, params, gamma, beta, 1.0, nullptr,
                                                      nullptr, double(epsilon), nullptr, nullptr));
  cudaDeviceSynchronize();
}
