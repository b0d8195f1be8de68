// MSKB elu, BF16 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing alpha·(e^x − 1) below zero, x otherwise, in FP32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void elu_bf16_kernel(__nv_bfloat16* out, const __nv_bfloat16* input, int N, float alpha) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = __bfloat162float(input[i]);
    out[i] = __float2bfloat16(x < 0 ? alpha * (expf(x) - 1.0f) : x);
  }
}

extern "C" void elu_bf16(__nv_bfloat16* out, const __nv_bfloat16* input, const int N, float alpha = 1.0) {
  elu_bf16_kernel<<<1, 1024>>>(out, input, N, alpha);
  cudaDeviceSynchronize();
}
