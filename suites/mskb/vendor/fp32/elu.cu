// MSKB elu, FP32 vendor reference: cuDNN cudnnActivationForward (ELU, its coefficient the alpha) on the N
// values as an N×1×1×1 tensor. No glue.
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void elu_vendor(float* output, const float* input, const int N, float alpha = 1.0) {
  static cudnnTensorDescriptor_t desc = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  static cudnnActivationDescriptor_t act = [] {
    cudnnActivationDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateActivationDescriptor(&made));
    return made;
  }();
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, 1, 1, 1));
  VENDOR_CUDNN(
      cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_ELU, CUDNN_NOT_PROPAGATE_NAN, double(alpha)));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnActivationForward(vendor_cudnn(), act, &one, desc, input, &zero, desc, output));
  cudaDeviceSynchronize();
}
