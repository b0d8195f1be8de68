// MSKB layer_norm, FP32 naive baseline, MSKB's three passes: a grid-stride sum (atomicAdd per thread), a
// grid-stride sum of squared deviations from the mean, then one pass normalizing and applying weight and
// bias. The mean and variance stay on the device (MSKB's baseline copies them through the host between
// passes).
#include <cuda_runtime.h>

__global__ void layer_norm_mean_kernel(const float* input, float* sums, int N) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) local += input[i];
  atomicAdd(&sums[0], local);
}

__global__ void layer_norm_variance_kernel(const float* input, float* sums, int N) {
  float mean = sums[0] / N, local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float d = input[i] - mean;
    local += d * d;
  }
  atomicAdd(&sums[1], local);
}

__global__ void layer_norm_apply_kernel(float* output, const float* input, const float* weight,
                                        const float* bias, const float* sums, float epsilon, int N) {
  float mean = sums[0] / N, stddev = sqrtf(sums[1] / N + epsilon);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    output[i] = weight[i] * ((input[i] - mean) / stddev) + bias[i];
}

extern "C" void layer_norm(float* output, const float* input, const float* weight, const float* bias,
                           const float epsilon, const int N) {
  static float* sums = [] {
    float* p = nullptr;
    cudaMalloc(&p, 2 * sizeof(float));
    return p;
  }();
  cudaMemsetAsync(sums, 0, 2 * sizeof(float), 0);
  const int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  layer_norm_mean_kernel<<<blocks, threads>>>(input, sums, N);
  layer_norm_variance_kernel<<<blocks, threads>>>(input, sums, N);
  layer_norm_apply_kernel<<<blocks, threads>>>(output, input, weight, bias, sums, epsilon, N);
  cudaDeviceSynchronize();
}
