// MSKB simpson_int, BF16 naive baseline: as MSKB's — at most 1024 blocks of grid-stride threads, each even i with
// i + 2 < N adding h/3·(y[i] + 4y[i+1] + y[i+2]) in FP32, h = (b − a)/(N − 1); every thread atomically adds into an
// FP32 total, then one thread rounds it into result. The total lives in a buffer allocated once instead of on every
// call.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void simpson_int_bf16_sum_kernel(const __nv_bfloat16* y_samples, float* total, float a, float b, int N) {
  float h = (b - a) / (N - 1);
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + 2 < N; i += gridDim.x * blockDim.x)
    if (i % 2 == 0)
      sum += (h / 3.0f) * (__bfloat162float(y_samples[i]) + 4.0f * __bfloat162float(y_samples[i + 1]) +
                           __bfloat162float(y_samples[i + 2]));
  atomicAdd(total, sum);
}

__global__ void simpson_int_bf16_finish_kernel(const float* total, __nv_bfloat16* result) {
  *result = __float2bfloat16(*total);
}

static float* simpson_int_bf16_total() {
  static float* total = [] {
    float* p = nullptr;
    cudaMalloc(&p, sizeof(float));
    return p;
  }();
  return total;
}

extern "C" void simpson_int_bf16(const __nv_bfloat16* y_samples, __nv_bfloat16* result, float a, float b, int N) {
  float* total = simpson_int_bf16_total();
  cudaMemsetAsync(total, 0, sizeof(float));
  int threads = 256, blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  simpson_int_bf16_sum_kernel<<<blocks, threads>>>(y_samples, total, a, b, N);
  simpson_int_bf16_finish_kernel<<<1, 1>>>(total, result);
  cudaDeviceSynchronize();
}
