// MSKB high_order_contraction, FP32 naive baseline: one thread per element of C,
// C[a][b][c] = Σ_{x,y} A[a][x][b][y] · B[x][c][y] (dense row-major in the index order shown). MSKB's baseline
// does not synchronize; this one ends in cudaDeviceSynchronize() like every launcher.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void high_order_contraction_kernel(const float* A, const float* B, float* C, int a_dim, int b_dim,
                                              int c_dim, int x_dim, int y_dim) {
  int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= int64_t(a_dim) * b_dim * c_dim) return;
  int c = int(idx % c_dim);
  int b = int(idx / c_dim % b_dim);
  int a = int(idx / (int64_t(c_dim) * b_dim));
  float sum = 0.0f;
  for (int x = 0; x < x_dim; ++x) {
    const float* arow = A + ((int64_t(a) * x_dim + x) * b_dim + b) * y_dim;
    const float* brow = B + (int64_t(x) * c_dim + c) * y_dim;
    for (int y = 0; y < y_dim; ++y) sum += arow[y] * brow[y];
  }
  C[idx] = sum;
}

extern "C" void high_order_contraction(const float* A, const float* B, float* C, int a_dim, int b_dim, int c_dim,
                                       int x_dim, int y_dim) {
  int64_t total = int64_t(a_dim) * b_dim * c_dim;
  int threads = 256;
  high_order_contraction_kernel<<<unsigned((total + threads - 1) / threads), threads>>>(A, B, C, a_dim, b_dim, c_dim,
                                                                                        x_dim, y_dim);
  cudaDeviceSynchronize();
}
