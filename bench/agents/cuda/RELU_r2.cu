// Scripted Coder answer (bench/agents), RELU round 2: two float4 per thread with streaming loads and stores
// (the Planner's second scheme); the same alignment fallback and tail as round 1.
#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

__device__ __forceinline__ float relu_op(float x) { return fmaxf(0.0f, x); }

__global__ void RELU_vec4_kernel_optimized(float* __restrict__ output, const float* __restrict__ input, int N) {
  // Two float4 per thread, both loads issued before either store: more bytes in flight per thread. Streaming
  // loads and stores (__ldcs/__stcs): the data is touched once.
  const int n4 = N / 4;
  const float4* in4 = reinterpret_cast<const float4*>(input);
  float4* out4 = reinterpret_cast<float4*>(output);
  const int stride = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + stride < n4; i += 2 * stride) {
    float4 a = __ldcs(in4 + i), b = __ldcs(in4 + i + stride);
    a.x = relu_op(a.x); a.y = relu_op(a.y); a.z = relu_op(a.z); a.w = relu_op(a.w);
    b.x = relu_op(b.x); b.y = relu_op(b.y); b.z = relu_op(b.z); b.w = relu_op(b.w);
    __stcs(out4 + i, a);
    __stcs(out4 + i + stride, b);
  }
  if (i < n4) {
    float4 a = __ldcs(in4 + i);
    a.x = relu_op(a.x); a.y = relu_op(a.y); a.z = relu_op(a.z); a.w = relu_op(a.w);
    __stcs(out4 + i, a);
  }
  for (int j = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; j < N; j += stride) output[j] = relu_op(input[j]);
}

__global__ void RELU_scalar_kernel_optimized(float* __restrict__ output, const float* __restrict__ input, int N) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride) output[i] = relu_op(input[i]);
}

extern "C" void RELU_optimized(float* output, const float* input, int N) {
  const int threads = 256;
  // cudaMalloc'd buffers are 16-byte aligned; an offset view may not be: it takes the scalar kernel.
  const bool aligned = ((reinterpret_cast<uintptr_t>(output) | reinterpret_cast<uintptr_t>(input)) & 15) == 0;
  const int items = aligned ? (N + 3) / 4 : N;
  const int blocks = std::max(1, std::min((items + 2 * threads - 1) / (2 * threads), 65535));
  if (aligned)
    RELU_vec4_kernel_optimized<<<blocks, threads>>>(output, input, N);
  else
    RELU_scalar_kernel_optimized<<<blocks, threads>>>(output, input, N);
  cudaDeviceSynchronize();
}
