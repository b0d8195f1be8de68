// MSKB silu_and_mul, BF16 naive baseline: row b of `in` is [x | g] (2·D values), out[b][d] = silu(x[d])·g[d] in
// FP32. As MSKB's baseline: min(256, B) blocks of 128 threads, blocks striding over rows and threads over d.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void silu_and_mul_bf16_kernel(const __nv_bfloat16* in, __nv_bfloat16* out, int32_t B, int32_t D) {
  for (int64_t b = blockIdx.x; b < B; b += gridDim.x) {
    const __nv_bfloat16* x = in + b * 2 * D;
    const __nv_bfloat16* g = x + D;
    for (int32_t d = threadIdx.x; d < D; d += blockDim.x) {
      float xv = __bfloat162float(x[d]);
      out[b * D + d] = __float2bfloat16(xv / (1.0f + expf(-xv)) * __bfloat162float(g[d]));
    }
  }
}

extern "C" void silu_and_mul_bf16(const __nv_bfloat16* in, __nv_bfloat16* out, int32_t B, int32_t D) {
  silu_and_mul_bf16_kernel<<<B < 256 ? B : 256, 128>>>(in, out, B, D);
  cudaDeviceSynchronize();
}
