// MSKB sigmoid, FP32 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing 1/(1 + e^−x).
#include <cuda_runtime.h>

__global__ void sigmoid_kernel(float* out, const float* input, int N) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = input[i];
    out[i] = 1.0f / (1.0f + expf(-x));
  }
}

extern "C" void sigmoid(float* out, const float* input, const int N) {
  sigmoid_kernel<<<1, 1024>>>(out, input, N);
  cudaDeviceSynchronize();
}
