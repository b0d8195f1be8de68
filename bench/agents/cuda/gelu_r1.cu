// Scripted Coder answer (bench/agents), gelu round 1: the whole GPU instead of one block. Each thread handles
// one float4 (16-byte loads and stores) when both pointers are 16-byte aligned, in a grid-stride loop; the
// N % 4 tail, or a misaligned pointer, goes element by element.
#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

// The exact (erf) GELU, as the task's reference.
__device__ __forceinline__ float gelu_op(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }

__global__ void gelu_vec4_kernel_optimized(float* __restrict__ output, const float* __restrict__ input, int N) {
  const int n4 = N / 4;
  const float4* in4 = reinterpret_cast<const float4*>(input);
  float4* out4 = reinterpret_cast<float4*>(output);
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    float4 v = in4[i];
    v.x = gelu_op(v.x);
    v.y = gelu_op(v.y);
    v.z = gelu_op(v.z);
    v.w = gelu_op(v.w);
    out4[i] = v;
  }
  for (int i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) output[i] = gelu_op(input[i]);
}

__global__ void gelu_scalar_kernel_optimized(float* __restrict__ output, const float* __restrict__ input, int N) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) output[i] = gelu_op(input[i]);
}

extern "C" void gelu_optimized(float* output, const float* input, const int N) {
  const int threads = 256;
  // cudaMalloc'd buffers are 16-byte aligned; an offset view may not be: it takes the scalar kernel.
  const bool aligned = ((reinterpret_cast<uintptr_t>(output) | reinterpret_cast<uintptr_t>(input)) & 15) == 0;
  const int items = aligned ? (N + 3) / 4 : N;
  const int blocks = std::max(1, std::min((items + threads - 1) / threads, 65535));
  if (aligned)
    gelu_vec4_kernel_optimized<<<blocks, threads>>>(output, input, N);
  else
    gelu_scalar_kernel_optimized<<<blocks, threads>>>(output, input, N);
  cudaDeviceSynchronize();
}
