// MSKB max_pooling_2d, FP32 vendor reference: cuDNN cudnnPoolingForward (CUDNN_POOLING_MAX, NCHW). cuDNN's output
// size 1 + (H + 2p − k)/s is MSKB's, and its max pooling never picks a padded position, as MSKB's clipped window.
// Descriptors are made once and set per call.
#include <cuda_runtime.h>

#include "vendor_util.h"

namespace {

struct PoolDescriptors {
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnPoolingDescriptor_t pool = nullptr;
  PoolDescriptors() {
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&x));
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&y));
    VENDOR_CUDNN(cudnnCreatePoolingDescriptor(&pool));
  }
};

}  // namespace

extern "C" void max_pooling_2d_vendor(const float* input, float* output, int N, int C, int H, int W, int kernel_size,
                                      int stride, int padding) {
  static PoolDescriptors d;
  int out_H = (H + 2 * padding - kernel_size) / stride + 1;
  int out_W = (W + 2 * padding - kernel_size) / stride + 1;
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(d.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(d.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, out_H, out_W));
  VENDOR_CUDNN(cudnnSetPooling2dDescriptor(d.pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, kernel_size,
                                           kernel_size, padding, padding, stride, stride));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnPoolingForward(vendor_cudnn(), d.pool, &one, d.x, input, &zero, d.y, output));
  cudaDeviceSynchronize();
}
