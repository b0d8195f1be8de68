// MSKB row_tanh, BF16 vendor reference: cuDNN cudnnActivationForward (TANH) on the N values as an N×1×1×1
// tensor. BF16 in and out through CUDNN_DATA_BFLOAT16. No glue.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void row_tanh_bf16_vendor(__nv_bfloat16* out, const __nv_bfloat16* input, const int N) {
  static cudnnTensorDescriptor_t desc = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  static cudnnActivationDescriptor_t act = [] {
    cudnnActivationDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateActivationDescriptor(&made));
    VENDOR_CUDNN(cudnnSetActivationDescriptor(made, CUDNN_ACTIVATION_TANH, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    return made;
  }();
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_BFLOAT16, N, 1, 1, 1));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnActivationForward(vendor_cudnn(), act, &one, desc, input, &zero, desc, out));
  cudaDeviceSynchronize();
}
