// MSKB batch_norm, BF16 naive baseline: one thread per feature sums it over the N samples in FP32 (mean, and
// the biased variance from the sum of squares, as MSKB's baseline does), then one thread per element
// normalizes and applies gamma and beta in FP32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void batch_norm_stats_bf16_kernel(float* mean, float* var, const __nv_bfloat16* input, int N,
                                             int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= C) return;
  float sum = 0.0f, squares = 0.0f;
  for (int s = 0; s < N; ++s) {
    float v = __bfloat162float(input[size_t(s) * C + c]);
    sum += v;
    squares += v * v;
  }
  float m = sum / N;
  mean[c] = m;
  var[c] = squares / N - m * m;
}

__global__ void batch_norm_apply_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input,
                                             const float* mean, const float* var, const __nv_bfloat16* gamma,
                                             const __nv_bfloat16* beta, float epsilon, int N, int C) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(N) * C) return;
  int c = int(i % C);
  float normalized = (__bfloat162float(input[i]) - mean[c]) / sqrtf(var[c] + epsilon);
  output[i] = __float2bfloat16(__bfloat162float(gamma[c]) * normalized + __bfloat162float(beta[c]));
}

// Per-feature mean and variance, kept between calls and grown when a case has more features.
static float* stats_buffer(int C) {
  static float* buffer = nullptr;
  static int capacity = 0;
  if (C > capacity) {
    cudaFree(buffer);
    cudaMalloc(&buffer, 2 * size_t(C) * sizeof(float));
    capacity = C;
  }
  return buffer;
}

extern "C" void batch_norm_bf16(__nv_bfloat16* output, const __nv_bfloat16* input, const __nv_bfloat16* gamma,
                                const __nv_bfloat16* beta, const float epsilon, const int N, const int C) {
  float* mean = stats_buffer(C);
  float* var = mean + C;
  const int threads = 256;
  batch_norm_stats_bf16_kernel<<<(C + threads - 1) / threads, threads>>>(mean, var, input, N, C);
  size_t total = size_t(N) * C;
  batch_norm_apply_bf16_kernel<<<unsigned((total + threads - 1) / threads), threads>>>(
      output, input, mean, var, gamma, beta, epsilon, N, C);
  cudaDeviceSynchronize();
}
