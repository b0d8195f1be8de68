// MSKB selu, BF16 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing lambda·alpha·(e^x − 1) below zero, lambda·x otherwise, in
// FP32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void selu_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input, int N, float alpha,
                                 float lambda) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = __bfloat162float(input[i]);
    output[i] = __float2bfloat16(x < 0 ? lambda * alpha * (expf(x) - 1.0f) : lambda * x);
  }
}

extern "C" void selu_bf16(__nv_bfloat16* output, const __nv_bfloat16* input, const int N, float alpha = 1.67,
                          float lambda = 1.0) {
  selu_bf16_kernel<<<1, 1024>>>(output, input, N, alpha, lambda);
  cudaDeviceSynchronize();
}
