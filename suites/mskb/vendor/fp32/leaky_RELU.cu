// MSKB leaky_RELU, FP32 vendor reference: cuDNN cudnnOpTensor computes max(1·x, alpha·x), which is leaky ReLU
// exactly for alpha ≤ 1 (min(x, alpha·x) for alpha > 1), on the N values as an N×1×1×1 tensor. No glue.
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void leaky_RELU_vendor(float* output, const float* input, const int N, float alpha = 0.01) {
  static cudnnTensorDescriptor_t desc = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  static cudnnOpTensorDescriptor_t op = [] {
    cudnnOpTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateOpTensorDescriptor(&made));
    return made;
  }();
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, 1, 1, 1));
  cudnnOpTensorOp_t pick = alpha <= 1.0f ? CUDNN_OP_TENSOR_MAX : CUDNN_OP_TENSOR_MIN;
  VENDOR_CUDNN(cudnnSetOpTensorDescriptor(op, pick, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(
      cudnnOpTensor(vendor_cudnn(), op, &one, desc, input, &alpha, desc, input, &zero, desc, output));
  cudaDeviceSynchronize();
}
