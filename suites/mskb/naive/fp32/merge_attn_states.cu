// MSKB merge_attn_states, FP32 naive baseline: one block per (token, head) (grid tokens × heads), one thread per
// element of the head (threads striding when head_size > 1024). Thread 0 turns the two LSEs ([heads, tokens],
// infinities read as -FLT_MAX) into the merge weights and LSE_out; V is [tokens, heads, head_size].
#include <cfloat>
#include <cstdint>

#include <cuda_runtime.h>

__global__ void merge_attn_states_kernel(float* V_out, float* LSE_out, const float* V_a, const float* lse_a,
                                         const float* V_b, const float* lse_b, int num_tokens, int num_heads,
                                         int head_size) {
  __shared__ float wa, wb;
  int token = blockIdx.x, head = blockIdx.y;
  int64_t l = int64_t(head) * num_tokens + token;
  if (threadIdx.x == 0) {
    float a = isinf(lse_a[l]) ? -FLT_MAX : lse_a[l];
    float b = isinf(lse_b[l]) ? -FLT_MAX : lse_b[l];
    float m = fmaxf(a, b), ea = expf(a - m), eb = expf(b - m), sum = ea + eb;
    wa = ea / sum;
    wb = eb / sum;
    LSE_out[l] = logf(sum) + m;
  }
  __syncthreads();
  int64_t base = (int64_t(token) * num_heads + head) * head_size;
  for (int e = threadIdx.x; e < head_size; e += blockDim.x) V_out[base + e] = V_a[base + e] * wa + V_b[base + e] * wb;
}

extern "C" void merge_attn_states(float* V_out, float* LSE_out, const float* V_a, const float* lse_a, const float* V_b,
                                  const float* lse_b, int num_tokens, int num_heads, int head_size) {
  dim3 grid(num_tokens, num_heads);
  merge_attn_states_kernel<<<grid, head_size < 1024 ? head_size : 1024>>>(V_out, LSE_out, V_a, lse_a, V_b, lse_b,
                                                                        num_tokens, num_heads, head_size);
  cudaDeviceSynchronize();
}
