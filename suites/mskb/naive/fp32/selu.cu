// MSKB selu, FP32 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing lambda·alpha·(e^x − 1) below zero, lambda·x otherwise.
#include <cuda_runtime.h>

__global__ void selu_kernel(float* output, const float* input, int N, float alpha, float lambda) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = input[i];
    output[i] = x < 0 ? lambda * alpha * (expf(x) - 1.0f) : lambda * x;
  }
}

extern "C" void selu(float* output, const float* input, const int N, float alpha = 1.67, float lambda = 1.0) {
  selu_kernel<<<1, 1024>>>(output, input, N, alpha, lambda);
  cudaDeviceSynchronize();
}
