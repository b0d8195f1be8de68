// MSKB square_matrix_mul, BF16 naive baseline: one thread per element of C = A · B, all M×M row-major; FP32
// accumulation.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void square_matrix_mul_bf16_kernel(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                                              int M) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= M) return;
  const __nv_bfloat16* a = A + int64_t(row) * M;
  float sum = 0.0f;
  for (int k = 0; k < M; ++k) sum += __bfloat162float(a[k]) * __bfloat162float(B[int64_t(k) * M + col]);
  C[int64_t(row) * M + col] = __float2bfloat16(sum);
}

extern "C" void square_matrix_mul_bf16(__nv_bfloat16* A, __nv_bfloat16* B, __nv_bfloat16* C, int M) {
  dim3 block(16, 16);
  dim3 grid((M + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  square_matrix_mul_bf16_kernel<<<grid, block>>>(A, B, C, M);
  cudaDeviceSynchronize();
}
