// MSKB row_tanh, FP32 naive baseline: one block of 1024 threads striding over the N elements (MSKB's
// baseline launches a single block), each computing tanh(x) (MSKB's "row" tanh has no rows).
#include <cuda_runtime.h>

__global__ void row_tanh_kernel(float* out, const float* input, int N) {
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    float x = input[i];
    out[i] = tanhf(x);
  }
}

extern "C" void row_tanh(float* out, const float* input, const int N) {
  row_tanh_kernel<<<1, 1024>>>(out, input, N);
  cudaDeviceSynchronize();
}
