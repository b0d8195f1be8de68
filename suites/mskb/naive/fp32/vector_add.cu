// MSKB vector_add, FP32 naive baseline: one thread per output element.
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void vector_add(const float* A, const float* B, float* C, int N) {
  int threads = 256;
  vector_add_kernel<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
