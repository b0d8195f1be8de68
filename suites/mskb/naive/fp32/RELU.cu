// MSKB RELU, FP32 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing max(0, x).
#include <cuda_runtime.h>

__global__ void RELU_kernel(float* output, const float* input, int N) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = input[i];
    output[i] = fmaxf(0.0f, x);
  }
}

extern "C" void RELU(float* output, const float* input, int N) {
  RELU_kernel<<<1, 1024>>>(output, input, N);
  cudaDeviceSynchronize();
}
