// MSKB sigmoid, FP32 vendor reference: cuDNN cudnnActivationForward (SIGMOID) on the N values as an N×1×1×1
// tensor. No glue.
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void sigmoid_vendor(float* out, const float* input, const int N) {
  static cudnnTensorDescriptor_t desc = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  static cudnnActivationDescriptor_t act = [] {
    cudnnActivationDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateActivationDescriptor(&made));
    VENDOR_CUDNN(cudnnSetActivationDescriptor(made, CUDNN_ACTIVATION_SIGMOID, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    return made;
  }();
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, 1, 1, 1));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnActivationForward(vendor_cudnn(), act, &one, desc, input, &zero, desc, out));
  cudaDeviceSynchronize();
}
