// MSKB layer_norm, BF16 naive baseline, MSKB's three passes in FP32: a grid-stride sum (atomicAdd per
// thread), a grid-stride sum of squared deviations from the mean, then one pass normalizing and applying
// weight and bias. The mean and variance stay on the device (MSKB's baseline copies them through the host
// between passes).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void layer_norm_mean_bf16_kernel(const __nv_bfloat16* input, float* sums, int N) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    local += __bfloat162float(input[i]);
  atomicAdd(&sums[0], local);
}

__global__ void layer_norm_variance_bf16_kernel(const __nv_bfloat16* input, float* sums, int N) {
  float mean = sums[0] / N, local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float d = __bfloat162float(input[i]) - mean;
    local += d * d;
  }
  atomicAdd(&sums[1], local);
}

__global__ void layer_norm_apply_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input,
                                             const __nv_bfloat16* weight, const __nv_bfloat16* bias,
                                             const float* sums, float epsilon, int N) {
  float mean = sums[0] / N, stddev = sqrtf(sums[1] / N + epsilon);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float normalized = (__bfloat162float(input[i]) - mean) / stddev;
    output[i] = __float2bfloat16(__bfloat162float(weight[i]) * normalized + __bfloat162float(bias[i]));
  }
}

extern "C" void layer_norm_bf16(__nv_bfloat16* output, const __nv_bfloat16* input,
                                const __nv_bfloat16* weight, const __nv_bfloat16* bias, const float epsilon,
                                const int N) {
  static float* sums = [] {
    float* p = nullptr;
    cudaMalloc(&p, 2 * sizeof(float));
    return p;
  }();
  cudaMemsetAsync(sums, 0, 2 * sizeof(float), 0);
  const int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  layer_norm_mean_bf16_kernel<<<blocks, threads>>>(input, sums, N);
  layer_norm_variance_bf16_kernel<<<blocks, threads>>>(input, sums, N);
  layer_norm_apply_bf16_kernel<<<blocks, threads>>>(output, input, weight, bias, sums, epsilon, N);
  cudaDeviceSynchronize();
}
