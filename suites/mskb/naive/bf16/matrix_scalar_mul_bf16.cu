// MSKB matrix_scalar_mul, BF16 naive baseline: one thread per element, B = scalar · A (M×N, row-major), the
// product in FP32.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void matrix_scalar_mul_bf16_kernel(const __nv_bfloat16* A, __nv_bfloat16* B, __nv_bfloat16 scalar, int M,
                                              int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  int64_t i = int64_t(row) * N + col;
  B[i] = __float2bfloat16(__bfloat162float(A[i]) * __bfloat162float(scalar));
}

extern "C" void matrix_scalar_mul_bf16(const __nv_bfloat16* A, __nv_bfloat16* B, __nv_bfloat16 scalar, int M, int N) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matrix_scalar_mul_bf16_kernel<<<grid, block>>>(A, B, scalar, M, N);
  cudaDeviceSynchronize();
}
