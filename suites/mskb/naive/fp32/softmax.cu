// MSKB softmax, FP32 naive baseline: one thread per row (1024-thread blocks, as MSKB's baseline) walks its C
// values three times: the max, the shifted exponentials and their sum, then the division.
#include <cuda_runtime.h>

#include <cfloat>

__global__ void softmax_kernel(float* out, const float* input, int N, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= N) return;
  const float* row = input + size_t(r) * C;
  float* dst = out + size_t(r) * C;
  float top = -FLT_MAX;
  for (int j = 0; j < C; ++j) top = fmaxf(top, row[j]);
  float sum = 0.0f;
  for (int j = 0; j < C; ++j) {
    dst[j] = expf(row[j] - top);
    sum += dst[j];
  }
  for (int j = 0; j < C; ++j) dst[j] /= sum;
}

extern "C" void softmax(float* out, const float* input, int N, int C) {
  const int threads = 1024;
  softmax_kernel<<<(N + threads - 1) / threads, threads>>>(out, input, N, C);
  cudaDeviceSynchronize();
}
