// MSKB MSE_loss, FP32 naive baseline as MSKB's: up to 1024 blocks of 256 threads, each thread summing (X-Y)² over
// a grid stride and adding its sum to *loss atomically, then a one-thread kernel divides by N. *loss is zeroed
// first (MSKB's baseline adds onto whatever *loss holds).
#include <cuda_runtime.h>

__global__ void MSE_loss_kernel(float* loss, const float* X, const float* Y, int N) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float d = X[i] - Y[i];
    sum += d * d;
  }
  atomicAdd(loss, sum);
}

__global__ void MSE_loss_divide_kernel(float* loss, float n) { *loss /= n; }

extern "C" void MSE_loss(float* loss, const float* X, const float* Y, int N) {
  int threads = 256, blocks = (N + threads - 1) / threads;
  cudaMemsetAsync(loss, 0, sizeof(float));
  MSE_loss_kernel<<<blocks < 1024 ? blocks : 1024, threads>>>(loss, X, Y, N);
  MSE_loss_divide_kernel<<<1, 1>>>(loss, float(N));
  cudaDeviceSynchronize();
}
