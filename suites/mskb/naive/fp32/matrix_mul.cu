// MSKB matrix_mul, FP32 naive baseline: one thread per element of C (M×N) = A (M×K) · B (K×N), row-major.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void matrix_mul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  const float* a = A + int64_t(row) * K;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += a[k] * B[int64_t(k) * N + col];
  C[int64_t(row) * N + col] = sum;
}

extern "C" void matrix_mul(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matrix_mul_kernel<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
