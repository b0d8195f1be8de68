// MSKB matrix_vector_mul, FP32 naive baseline: one thread per row, y = A (M×N, row-major) · x.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void matrix_vector_mul_kernel(const float* A, const float* x, float* y, int M, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* a = A + int64_t(row) * N;
  float sum = 0.0f;
  for (int col = 0; col < N; ++col) sum += a[col] * x[col];
  y[row] = sum;
}

extern "C" void matrix_vector_mul(const float* A, const float* x, float* y, int M, int N) {
  int threads = 256;
  matrix_vector_mul_kernel<<<(M + threads - 1) / threads, threads>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
}
