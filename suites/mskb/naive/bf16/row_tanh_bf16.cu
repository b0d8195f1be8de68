// MSKB row_tanh, BF16 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing tanh(x) (MSKB's "row" tanh has no rows), in FP32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void row_tanh_bf16_kernel(__nv_bfloat16* out, const __nv_bfloat16* input, int N) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = __bfloat162float(input[i]);
    out[i] = __float2bfloat16(tanhf(x));
  }
}

extern "C" void row_tanh_bf16(__nv_bfloat16* out, const __nv_bfloat16* input, const int N) {
  row_tanh_bf16_kernel<<<1, 1024>>>(out, input, N);
  cudaDeviceSynchronize();
}
