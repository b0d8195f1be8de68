// MSKB merge_attn_states, BF16 naive baseline: one block per (token, head) (grid tokens × heads), one thread per
// element of the head (threads striding when head_size > 1024), FP32 math. Thread 0 turns the two LSEs
// ([heads, tokens], infinities read as -FLT_MAX) into the merge weights and LSE_out; V is [tokens, heads, head_size].
#include <cfloat>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void merge_attn_states_bf16_kernel(__nv_bfloat16* V_out, __nv_bfloat16* LSE_out, const __nv_bfloat16* V_a,
                                              const __nv_bfloat16* lse_a, const __nv_bfloat16* V_b,
                                              const __nv_bfloat16* lse_b, int num_tokens, int num_heads,
                                              int head_size) {
  __shared__ float wa, wb;
  int token = blockIdx.x, head = blockIdx.y;
  int64_t l = int64_t(head) * num_tokens + token;
  if (threadIdx.x == 0) {
    float a = __bfloat162float(lse_a[l]), b = __bfloat162float(lse_b[l]);
    a = isinf(a) ? -FLT_MAX : a;
    b = isinf(b) ? -FLT_MAX : b;
    float m = fmaxf(a, b), ea = expf(a - m), eb = expf(b - m), sum = ea + eb;
    wa = ea / sum;
    wb = eb / sum;
    LSE_out[l] = __float2bfloat16(logf(sum) + m);
  }
  __syncthreads();
  int64_t base = (int64_t(token) * num_heads + head) * head_size;
  for (int e = threadIdx.x; e < head_size; e += blockDim.x) {
    float v = __bfloat162float(V_a[base + e]) * wa + __bfloat162float(V_b[base + e]) * wb;
    V_out[base + e] = __float2bfloat16(v);
  }
}

extern "C" void merge_attn_states_bf16(__nv_bfloat16* V_out, __nv_bfloat16* LSE_out, const __nv_bfloat16* V_a,
                                       const __nv_bfloat16* lse_a, const __nv_bfloat16* V_b,
                                       const __nv_bfloat16* lse_b, int num_tokens, int num_heads, int head_size) {
  dim3 grid(num_tokens, num_heads);
  merge_attn_states_bf16_kernel<<<grid, head_size < 1024 ? head_size : 1024>>>(V_out, LSE_out, V_a, lse_a, V_b, lse_b,
                                                                             num_tokens, num_heads, head_size);
  cudaDeviceSynchronize();
}
