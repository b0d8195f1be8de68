// MSKB matrix_power, FP32 naive baseline: B = A^P (N×N, row-major) by P-1 naive products B ← B·A, one thread per
// output element. Like MSKB's baseline it allocates its scratch matrix on every call and copies each product back.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void matrix_power_mul_kernel(const float* X, const float* Y, float* Z, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N || col >= N) return;
  const float* x = X + int64_t(row) * N;
  float sum = 0.0f;
  for (int k = 0; k < N; ++k) sum += x[k] * Y[int64_t(k) * N + col];
  Z[int64_t(row) * N + col] = sum;
}

extern "C" void matrix_power(const float* A, float* B, int N, int P) {
  size_t bytes = size_t(N) * N * sizeof(float);
  if (P < 2) {
    cudaMemcpy(B, A, bytes, cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    return;
  }
  float* temp = nullptr;
  cudaMalloc(&temp, bytes);
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (N + block.y - 1) / block.y);
  matrix_power_mul_kernel<<<grid, block>>>(A, A, B, N);
  for (int i = 2; i < P; ++i) {
    matrix_power_mul_kernel<<<grid, block>>>(B, A, temp, N);
    cudaMemcpy(B, temp, bytes, cudaMemcpyDeviceToDevice);
  }
  cudaFree(temp);
  cudaDeviceSynchronize();
}
