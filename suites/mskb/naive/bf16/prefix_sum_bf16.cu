// MSKB prefix_sum, BF16 naive baseline: MSKB's O(N²) scan — one thread per output, each re-summing its whole prefix
// in FP32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void prefix_sum_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float sum = 0.0f;
  for (int j = 0; j <= i; ++j) sum += __bfloat162float(input[j]);
  output[i] = __float2bfloat16(sum);
}

extern "C" void prefix_sum_bf16(__nv_bfloat16* output, const __nv_bfloat16* input, const int N) {
  int threads = 256;
  prefix_sum_bf16_kernel<<<(N + threads - 1) / threads, threads>>>(output, input, N);
  cudaDeviceSynchronize();
}
