// MSKB softmax, FP32 vendor reference: cuDNN cudnnSoftmaxForward (CUDNN_SOFTMAX_ACCURATE, max-subtracted)
// over the channels of the N×C input as an N×C×1×1 tensor, i.e. over each row. No glue.
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void softmax_vendor(float* out, const float* input, int N, int C) {
  static cudnnTensorDescriptor_t desc = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, 1, 1));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnSoftmaxForward(vendor_cudnn(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one,
                                   desc, input, &zero, desc, out));
  cudaDeviceSynchronize();
}
