// MSKB sigmoid, BF16 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing 1/(1 + e^−x), in FP32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void sigmoid_bf16_kernel(__nv_bfloat16* out, const __nv_bfloat16* input, int N) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = __bfloat162float(input[i]);
    out[i] = __float2bfloat16(1.0f / (1.0f + expf(-x)));
  }
}

extern "C" void sigmoid_bf16(__nv_bfloat16* out, const __nv_bfloat16* input, const int N) {
  sigmoid_bf16_kernel<<<1, 1024>>>(out, input, N);
  cudaDeviceSynchronize();
}
