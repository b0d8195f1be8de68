// MSKB square_matrix_mul, FP32 naive baseline: one thread per element of C = A · B, all M×M row-major.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void square_matrix_mul_kernel(const float* A, const float* B, float* C, int M) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= M) return;
  const float* a = A + int64_t(row) * M;
  float sum = 0.0f;
  for (int k = 0; k < M; ++k) sum += a[k] * B[int64_t(k) * M + col];
  C[int64_t(row) * M + col] = sum;
}

extern "C" void square_matrix_mul(float* A, float* B, float* C, int M) {
  dim3 block(16, 16);
  dim3 grid((M + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  square_matrix_mul_kernel<<<grid, block>>>(A, B, C, M);
  cudaDeviceSynchronize();
}
