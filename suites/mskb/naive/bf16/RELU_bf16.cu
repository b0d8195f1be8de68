// MSKB RELU, BF16 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing max(0, x), in FP32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void RELU_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input, int N) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = __bfloat162float(input[i]);
    output[i] = __float2bfloat16(fmaxf(0.0f, x));
  }
}

extern "C" void RELU_bf16(__nv_bfloat16* output, const __nv_bfloat16* input, int N) {
  RELU_bf16_kernel<<<1, 1024>>>(output, input, N);
  cudaDeviceSynchronize();
}
