// MSKB reverse_array, FP32 naive baseline: one thread per mirrored pair (i, N-1-i) swaps it into the output.
#include <cuda_runtime.h>

__global__ void reverse_array_kernel(float* output, const float* input, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (N + 1) / 2) return;
  int j = N - 1 - i;
  float a = input[i], b = input[j];
  output[i] = b;
  output[j] = a;
}

extern "C" void reverse_array(float* output, float* input, int N) {
  int threads = 256;
  int pairs = (N + 1) / 2;
  reverse_array_kernel<<<(pairs + threads - 1) / threads, threads>>>(output, input, N);
  cudaDeviceSynchronize();
}
