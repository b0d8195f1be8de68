// MSKB dot_product, FP32 naive baseline: at most 1024 blocks of 256 threads stride over the vectors and each
// thread adds its partial sum to *loss with atomicAdd. MSKB's test zeroes *loss before every call; this launcher
// zeroes it itself so that repeated calls stay correct.
#include <cuda_runtime.h>

__global__ void dot_product_kernel(float* loss, const float* X, const float* Y, int N) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) sum += X[i] * Y[i];
  if (sum != 0.0f) atomicAdd(loss, sum);
}

extern "C" void dot_product(float* loss, const float* X, const float* Y, const int N) {
  int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  cudaMemsetAsync(loss, 0, sizeof(float), 0);
  dot_product_kernel<<<blocks, threads>>>(loss, X, Y, N);
  cudaDeviceSynchronize();
}
