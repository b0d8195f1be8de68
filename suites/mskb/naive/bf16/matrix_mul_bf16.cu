// MSKB matrix_mul, BF16 naive baseline: one thread per element of C (M×N) = A (M×K) · B (K×N), row-major; FP32
// accumulation.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void matrix_mul_bf16_kernel(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M,
                                       int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  const __nv_bfloat16* a = A + int64_t(row) * K;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += __bfloat162float(a[k]) * __bfloat162float(B[int64_t(k) * N + col]);
  C[int64_t(row) * N + col] = __float2bfloat16(sum);
}

extern "C" void matrix_mul_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N,
                                int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matrix_mul_bf16_kernel<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
