// MSKB monte_carlo_int, FP32 naive baseline: one thread per sample atomically adds (b − a)·y/N into result, as MSKB's
// baseline does. Unlike MSKB's, it zeroes result first, so repeated calls give the same answer.
#include <cuda_runtime.h>

__global__ void monte_carlo_int_kernel(const float* y_samples, float* result, float a, float b, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(result, (b - a) * y_samples[i] / N);
}

extern "C" void monte_carlo_int(const float* y_samples, float* result, float a, float b, int N) {
  cudaMemsetAsync(result, 0, sizeof(float));
  int threads = 256;
  monte_carlo_int_kernel<<<(N + threads - 1) / threads, threads>>>(y_samples, result, a, b, N);
  cudaDeviceSynchronize();
}
