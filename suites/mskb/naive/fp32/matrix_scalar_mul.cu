// MSKB matrix_scalar_mul, FP32 naive baseline: one thread per element, B = scalar · A (M×N, row-major).
#include <cstdint>

#include <cuda_runtime.h>

__global__ void matrix_scalar_mul_kernel(const float* A, float* B, float scalar, int M, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  int64_t i = int64_t(row) * N + col;
  B[i] = A[i] * scalar;
}

extern "C" void matrix_scalar_mul(const float* A, float* B, float scalar, int M, int N) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matrix_scalar_mul_kernel<<<grid, block>>>(A, B, scalar, M, N);
  cudaDeviceSynchronize();
}
