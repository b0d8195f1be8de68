// MSKB matrix_copy, BF16 naive baseline: one thread per element, B = A (M×N, row-major).
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void matrix_copy_bf16_kernel(const __nv_bfloat16* A, __nv_bfloat16* B, int M, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  int64_t i = int64_t(row) * N + col;
  B[i] = A[i];
}

extern "C" void matrix_copy_bf16(__nv_bfloat16* A, __nv_bfloat16* B, int M, int N) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matrix_copy_bf16_kernel<<<grid, block>>>(A, B, M, N);
  cudaDeviceSynchronize();
}
