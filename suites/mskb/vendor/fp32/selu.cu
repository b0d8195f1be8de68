// MSKB selu, FP32 vendor reference: cuDNN cudnnActivationForward (ELU, its coefficient the alpha and its
// output scale the lambda: lambda·ELU_alpha(x) is MSKB's selu exactly) on the N values as an N×1×1×1 tensor.
// No glue.
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void selu_vendor(float* output, const float* input, const int N, float alpha = 1.67,
                            float lambda = 1.0) {
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
  const float zero = 0.0f;
  VENDOR_CUDNN(cudnnActivationForward(vendor_cudnn(), act, &lambda, desc, input, &zero, desc, output));
  cudaDeviceSynchronize();
}
