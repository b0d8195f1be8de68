// MSKB leaky_RELU, FP32 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing alpha·x below zero, x otherwise.
#include <cuda_runtime.h>

__global__ void leaky_RELU_kernel(float* output, const float* input, int N, float alpha) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = input[i];
    output[i] = x < 0 ? alpha * x : x;
  }
}

extern "C" void leaky_RELU(float* output, const float* input, const int N, float alpha = 0.01) {
  leaky_RELU_kernel<<<1, 1024>>>(output, input, N, alpha);
  cudaDeviceSynchronize();
}
