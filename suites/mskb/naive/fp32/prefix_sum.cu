// MSKB prefix_sum, FP32 naive baseline: MSKB's O(N²) scan — one thread per output, each re-summing its whole prefix.
#include <cuda_runtime.h>

__global__ void prefix_sum_kernel(float* output, const float* input, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float sum = 0.0f;
  for (int j = 0; j <= i; ++j) sum += input[j];
  output[i] = sum;
}

extern "C" void prefix_sum(float* output, const float* input, const int N) {
  int threads = 256;
  prefix_sum_kernel<<<(N + threads - 1) / threads, threads>>>(output, input, N);
  cudaDeviceSynchronize();
}
