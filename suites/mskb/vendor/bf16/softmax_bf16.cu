// MSKB softmax, BF16 vendor reference: cuDNN cudnnSoftmaxForward (CUDNN_SOFTMAX_ACCURATE, max-subtracted)
// over the channels of the N×C input as an N×C×1×1 tensor, i.e. over each row. BF16 in and out through
// CUDNN_DATA_BFLOAT16. No glue.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void softmax_bf16_vendor(__nv_bfloat16* out, const __nv_bfloat16* input, int N, int C) {
  static cudnnTensorDescriptor_t desc = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_BFLOAT16, N, C, 1, 1));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnSoftmaxForward(vendor_cudnn(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one,
                                   desc, input, &zero, desc, out));
  cudaDeviceSynchronize();
}
