// Scripted Coder answer (bench/agents), sigmoid round 2: two float4 per thread with streaming loads and stores
// (the Planner's second scheme); the same alignment fallback and tail as round 1.
#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

// 1/(1+e^-x) with the fast exponential (MSKB's tolerance is 1e-2 absolute; sigmoid is in (0, 1)).
__device__ __forceinline__ float sigmoid_op(float x) { return __frcp_rn(1.0f + __expf(-x)); }

__global__ void sigmoid_vec4_kernel_optimized(float* __restrict__ out, const float* __restrict__ input, int N) {
  // Two float4 per thread, both loads issued before either store: more bytes in flight per thread. Streaming
  // loads and stores (__ldcs/__stcs): the data is touched once.
  const int n4 = N / 4;
  const float4* in4 = reinterpret_cast<const float4*>(input);
  float4* out4 = reinterpret_cast<float4*>(out);
  const int stride = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + stride < n4; i += 2 * stride) {
    float4 a = __ldcs(in4 + i), b = __ldcs(in4 + i + stride);
    a.x = sigmoid_op(a.x); a.y = sigmoid_op(a.y); a.z = sigmoid_op(a.z); a.w = sigmoid_op(a.w);
    b.x = sigmoid_op(b.x); b.y = sigmoid_op(b.y); b.z = sigmoid_op(b.z); b.w = sigmoid_op(b.w);
    __stcs(out4 + i, a);
    __stcs(out4 + i + stride, b);
  }
  if (i < n4) {
    float4 a = __ldcs(in4 + i);
    a.x = sigmoid_op(a.x); a.y = sigmoid_op(a.y); a.z = sigmoid_op(a.z); a.w = sigmoid_op(a.w);
    __stcs(out4 + i, a);
  }
  for (int j = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; j < N; j += stride) out[j] = sigmoid_op(input[j]);
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
  const int blocks = std::max(1, std::min((items + 2 * threads - 1) / (2 * threads), 65535));
  if (aligned)
    sigmoid_vec4_kernel_optimized<<<blocks, threads>>>(out, input, N);
  else
    sigmoid_scalar_kernel_optimized<<<blocks, threads>>>(out, input, N);
  cudaDeviceSynchronize();
}
