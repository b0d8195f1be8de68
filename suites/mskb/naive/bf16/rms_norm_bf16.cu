// MSKB rms_norm, BF16 naive baseline, MSKB's two passes in FP32: a grid-stride sum of squares (atomicAdd per
// thread), then one pass dividing by sqrt(mean square + epsilon) and applying weight and bias.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void rms_norm_squares_bf16_kernel(const __nv_bfloat16* input, float* squares, int N) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float v = __bfloat162float(input[i]);
    local += v * v;
  }
  atomicAdd(squares, local);
}

__global__ void rms_norm_apply_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input,
                                           const float* squares, const __nv_bfloat16* weight,
                                           const __nv_bfloat16* bias, float epsilon, int N) {
  float rms = sqrtf(*squares / (float)N + epsilon);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    float normalized = __bfloat162float(input[i]) / rms;
    output[i] = __float2bfloat16(__bfloat162float(weight[i]) * normalized + __bfloat162float(bias[i]));
  }
}

extern "C" void rms_norm_bf16(__nv_bfloat16* output, const __nv_bfloat16* input, const __nv_bfloat16* weight,
                              const __nv_bfloat16* bias, const float epsilon, const int N) {
  static float* squares = [] {
    float* p = nullptr;
    cudaMalloc(&p, sizeof(float));
    return p;
  }();
  cudaMemsetAsync(squares, 0, sizeof(float), 0);
  const int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  rms_norm_squares_bf16_kernel<<<blocks, threads>>>(input, squares, N);
  rms_norm_apply_bf16_kernel<<<blocks, threads>>>(output, input, squares, weight, bias, epsilon, N);
  cudaDeviceSynchronize();
}
