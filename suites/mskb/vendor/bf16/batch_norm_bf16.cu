// MSKB batch_norm, BF16 vendor reference: cuDNN cudnnBatchNormalizationForwardTraining (spatial mode, batch
// statistics with the biased variance) on the N×C input as a BF16 N×C×1×1 tensor; no running averages or
// saved statistics are requested. Glue: cuDNN takes the per-channel gamma and beta in FP32 for BF16 data, so
// one small kernel converts them (C values each) first.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

__global__ void batch_norm_params_to_float_kernel(float* scale, float* shift, const __nv_bfloat16* gamma,
                                                  const __nv_bfloat16* beta, int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= C) return;
  scale[c] = __bfloat162float(gamma[c]);
  shift[c] = __bfloat162float(beta[c]);
}

static cudnnTensorDescriptor_t new_tensor_descriptor() {
  cudnnTensorDescriptor_t made = nullptr;
  VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
  return made;
}

// FP32 gamma then beta, kept between calls and grown when a case has more channels.
static float* params_buffer(int C) {
  static float* buffer = nullptr;
  static int capacity = 0;
  if (C > capacity) {
    if (buffer) VENDOR_CUDA(cudaFree(buffer));
    VENDOR_CUDA(cudaMalloc(&buffer, 2 * size_t(C) * sizeof(float)));
    capacity = C;
  }
  return buffer;
}

extern "C" void batch_norm_bf16_vendor(__nv_bfloat16* output, const __nv_bfloat16* input,
                                       const __nv_bfloat16* gamma, const __nv_bfloat16* beta,
                                       const float epsilon, const int N, const int C) {
  static cudnnTensorDescriptor_t x = new_tensor_descriptor(), params = new_tensor_descriptor();
  float* scale = params_buffer(C);
  float* shift = scale + C;
  const int threads = 256;
  batch_norm_params_to_float_kernel<<<(C + threads - 1) / threads, threads>>>(scale, shift, gamma, beta, C);
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_BFLOAT16, N, C, 1, 1));
  VENDOR_CUDNN(cudnnDeriveBNTensorDescriptor(params, x, CUDNN_BATCHNORM_SPATIAL));  // FP32 1×C×1×1
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnBatchNormalizationForwardTraining(vendor_cudnn(), CUDNN_BATCHNORM_SPATIAL, &one, &zero, x,
                                                      input, x, output, params, scale, shift, 1.0, nullptr,
                                                      nullptr, double(epsilon), nullptr, nullptr));
  cudaDeviceSynchronize();
}
