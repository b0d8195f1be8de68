// MSKB rms_norm, FP32 naive baseline, MSKB's two passes: a grid-stride sum of squares (atomicAdd per thread),
// then one pass dividing by sqrt(mean square + epsilon) and applying weight and bias.
#include <cuda_runtime.h>

__global__ void rms_norm_squares_kernel(const float* input, float* squares, int N) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    local += input[i] * input[i];
  atomicAdd(squares, local);
}

__global__ void rms_norm_apply_kernel(float* output, const float* input, const float* squares,
                                      const float* weight, const float* bias, float epsilon, int N) {
  float rms = sqrtf(*squares / (float)N + epsilon);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    output[i] = weight[i] * (input[i] / rms) + bias[i];
}

extern "C" void rms_norm(float* output, const float* input, const float* weight, const float* bias,
                         const float epsilon, const int N) {
  static float* squares = [] {
    float* p = nullptr;
    cudaMalloc(&p, sizeof(float));
    return p;
  }();
  cudaMemsetAsync(squares, 0, sizeof(float), 0);
  const int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  rms_norm_squares_kernel<<<blocks, threads>>>(input, squares, N);
  rms_norm_apply_kernel<<<blocks, threads>>>(output, input, squares, weight, bias, epsilon, N);
  cudaDeviceSynchronize();
}
