// MSKB conv_1d, FP32 naive baseline: one thread per output of the valid cross-correlation, a serial loop over the
// kernel taps.
#include <cuda_runtime.h>

__global__ void conv_1d_kernel(const float* input, const float* kernel, float* output, int input_size,
                               int kernel_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= input_size - kernel_size + 1) return;
  float sum = 0.0f;
  for (int m = 0; m < kernel_size; ++m) sum += input[i + m] * kernel[m];
  output[i] = sum;
}

extern "C" void conv_1d(const float* input, const float* kernel, float* output, int input_size, int kernel_size) {
  int outputs = input_size - kernel_size + 1;
  int threads = 256;
  conv_1d_kernel<<<(outputs + threads - 1) / threads, threads>>>(input, kernel, output, input_size, kernel_size);
  cudaDeviceSynchronize();
}
