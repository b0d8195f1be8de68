// MSKB softmax, BF16 naive baseline: one thread per row (1024-thread blocks, as MSKB's baseline) walks its C
// values three times: the max, the shifted exponentials (stored as BF16, as MSKB's baseline does) with their
// FP32 sum, then the scaling by the sum's reciprocal.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cfloat>

__global__ void softmax_bf16_kernel(__nv_bfloat16* out, const __nv_bfloat16* input, int N, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= N) return;
  const __nv_bfloat16* row = input + size_t(r) * C;
  __nv_bfloat16* dst = out + size_t(r) * C;
  float top = -FLT_MAX;
  for (int j = 0; j < C; ++j) top = fmaxf(top, __bfloat162float(row[j]));
  float sum = 0.0f;
  for (int j = 0; j < C; ++j) {
    float e = expf(__bfloat162float(row[j]) - top);
    dst[j] = __float2bfloat16(e);
    sum += e;
  }
  float inv_sum = 1.0f / sum;
  for (int j = 0; j < C; ++j) dst[j] = __float2bfloat16(__bfloat162float(dst[j]) * inv_sum);
}

extern "C" void softmax_bf16(__nv_bfloat16* out, const __nv_bfloat16* input, int N, int C) {
  const int threads = 1024;
  softmax_bf16_kernel<<<(N + threads - 1) / threads, threads>>>(out, input, N, C);
  cudaDeviceSynchronize();
}
