// MSKB rope, BF16 naive baseline: one thread per adjacent pair (2p, 2p+1) of an M×D input, FP32 math; row m (the
// position) rotates the pair by m·base^(-2p/D).
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void rope_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input, int M, int D, float base) {
  int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int half = D / 2;
  if (idx >= int64_t(M) * half) return;
  int m = int(idx / half), pair = int(idx % half);
  int64_t at = int64_t(m) * D + 2 * pair;
  float angle = float(m) * powf(base, -2.0f * float(pair) / float(D));
  float c = cosf(angle), s = sinf(angle);
  float q0 = __bfloat162float(input[at]), q1 = __bfloat162float(input[at + 1]);
  output[at] = __float2bfloat16(q0 * c - q1 * s);
  output[at + 1] = __float2bfloat16(q0 * s + q1 * c);
}

extern "C" void rope_bf16(__nv_bfloat16* output, const __nv_bfloat16* input, int M, int D, float base) {
  int64_t pairs = int64_t(M) * (D / 2);
  int threads = 256;
  rope_bf16_kernel<<<unsigned((pairs + threads - 1) / threads), threads>>>(output, input, M, D, base);
  cudaDeviceSynchronize();
}
