// MSKB monte_carlo_int, BF16 naive baseline: as MSKB's — at most 1024 blocks of grid-stride threads sum the samples in
// FP32 and atomically add into an FP32 total, then one thread writes (b − a)·total/N. The total lives in a buffer
// allocated once instead of on every call.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void monte_carlo_int_bf16_sum_kernel(const __nv_bfloat16* y_samples, float* total, int N) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
    sum += __bfloat162float(y_samples[i]);
  if (sum != 0.0f) atomicAdd(total, sum);
}

__global__ void monte_carlo_int_bf16_finish_kernel(const float* total, __nv_bfloat16* result, float a, float b,
                                                   int N) {
  *result = __float2bfloat16((b - a) * (*total / float(N)));
}

static float* monte_carlo_int_bf16_total() {
  static float* total = [] {
    float* p = nullptr;
    cudaMalloc(&p, sizeof(float));
    return p;
  }();
  return total;
}

extern "C" void monte_carlo_int_bf16(const __nv_bfloat16* y_samples, __nv_bfloat16* result, float a, float b, int N) {
  float* total = monte_carlo_int_bf16_total();
  cudaMemsetAsync(total, 0, sizeof(float));
  int threads = 256, blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  monte_carlo_int_bf16_sum_kernel<<<blocks, threads>>>(y_samples, total, N);
  monte_carlo_int_bf16_finish_kernel<<<1, 1>>>(total, result, a, b, N);
  cudaDeviceSynchronize();
}
