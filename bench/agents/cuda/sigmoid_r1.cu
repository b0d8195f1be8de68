// Scripted Coder answer (bench/agents), sigmoid round 1: the whole GPU instead of one block. Each thread handles
// one float4 (16-byte loads and stores) when both pointers are 16-byte aligned, in a grid-stride loop; the
// N % 4 tail, or a misaligned pointer, goes element by element.
#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

// 1/(1+e^-x) with the fast exponential (MSKB's tolerance is 1e-2 absolute; sigmoid is in (0, 1)).
__device__ __forceinline__ float sigmoid_op(float x) { return __frcp_rn(1.0f + __expf(-x)); }

__global__ void sigmoid_vec4_kernel_optimized(float* __restrict__ out, const float* __restrict__ input, int N) {
  const int n4 = N / 4;
  const float4* in4 = reinterpret_cast<const float4*>(input);
  float4* out4 = reinterpret_cast<float4*>(out);
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    float4 v = in4[i];
    v.x = sigmoid_op(v.x);
    v.y = sigmoid_op(v.y);
    v.z = sigmoid_op(v.z);
    v.w = sigmoid_op(v.w);
    out4[i] = v;
  }
  for (int i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) out[i] = sigmoid_op(input[i]);
}

__global__ void sigmoid_scalar_kernel_optimized(float* __restrict__ out, const float* __restrict__ input, int N) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) out[i] = sigmoid_op(input[i]);
}

extern "C" void sigmoid_optimized(float* out, const float* input, const int N) {
  const int threads = 256;
  // cudaMalloc'd buffers are 16-byte aligned; an offset view may not be: it takes the scalar kernel.
  const bool aligned = ((reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(input)) & 15) == 0;
  const int items = aligned ? (N + 3) / 4 : N;
  const int blocks = std::max(1, std::min((items + threads - 1) / threads, 65535));
  if (aligned)
    sigmoid_vec4_kernel_optimized<<<blocks, threads>>>(out, input, N);
  else
    sigmoid_scalar_kernel_optimized<<<blocks, threads>>>(out, input, N);
  cudaDeviceSynchronize();
}
