// MSKB softmax_attention, BF16 naive baseline, three kernels as MSKB's, FP32 accumulation: S = Q·Kᵀ/√dim_qk with
// one thread per score (16×16 blocks), a row softmax S → P with one thread per query row, and Y = P·V with one
// thread per output. S and P are stored in BF16 as in MSKB's baseline, in a buffer allocated once and grown (MSKB
// allocates and frees them on every call). Q is [q, dim_qk], K [kv, dim_qk], V [kv, dim_v], Y [q, dim_v], row-major.
#include <cfloat>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void softmax_attention_bf16_scores_kernel(const __nv_bfloat16* Q, const __nv_bfloat16* K,
                                                     __nv_bfloat16* S, int q_seq_len, int kv_seq_len, int dim_qk) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= q_seq_len || col >= kv_seq_len) return;
  const __nv_bfloat16* q = Q + int64_t(row) * dim_qk;
  const __nv_bfloat16* k = K + int64_t(col) * dim_qk;
  float acc = 0.0f;
  for (int e = 0; e < dim_qk; ++e) acc += __bfloat162float(q[e]) * __bfloat162float(k[e]);
  S[int64_t(row) * kv_seq_len + col] = __float2bfloat16(acc * rsqrtf(float(dim_qk)));
}

__global__ void softmax_attention_bf16_softmax_kernel(const __nv_bfloat16* S, __nv_bfloat16* P, int q_seq_len,
                                                      int kv_seq_len) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= q_seq_len) return;
  const __nv_bfloat16* s = S + int64_t(row) * kv_seq_len;
  __nv_bfloat16* p = P + int64_t(row) * kv_seq_len;
  float top = -FLT_MAX, sum = 0.0f;
  for (int j = 0; j < kv_seq_len; ++j) top = fmaxf(top, __bfloat162float(s[j]));
  for (int j = 0; j < kv_seq_len; ++j) {
    float e = expf(__bfloat162float(s[j]) - top);
    p[j] = __float2bfloat16(e);
    sum += e;
  }
  float inv = 1.0f / sum;
  for (int j = 0; j < kv_seq_len; ++j) p[j] = __float2bfloat16(__bfloat162float(p[j]) * inv);
}

__global__ void softmax_attention_bf16_output_kernel(const __nv_bfloat16* P, const __nv_bfloat16* V,
                                                     __nv_bfloat16* Y, int q_seq_len, int kv_seq_len, int dim_v) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= q_seq_len || col >= dim_v) return;
  const __nv_bfloat16* p = P + int64_t(row) * kv_seq_len;
  float acc = 0.0f;
  for (int j = 0; j < kv_seq_len; ++j) acc += __bfloat162float(p[j]) * __bfloat162float(V[int64_t(j) * dim_v + col]);
  Y[int64_t(row) * dim_v + col] = __float2bfloat16(acc);
}

// A device buffer of at least `bytes`, kept between calls and grown when a case needs more.
static __nv_bfloat16* softmax_attention_bf16_workspace(size_t bytes) {
  static void* buffer = nullptr;
  static size_t have = 0;
  if (bytes > have) {
    cudaFree(buffer);
    cudaMalloc(&buffer, bytes);
    have = bytes;
  }
  return static_cast<__nv_bfloat16*>(buffer);
}

extern "C" void softmax_attention_bf16(__nv_bfloat16* Y, const __nv_bfloat16* Q, const __nv_bfloat16* K,
                                       const __nv_bfloat16* V, int q_seq_len, int kv_seq_len, int dim_qk, int dim_v) {
  size_t scores = size_t(q_seq_len) * kv_seq_len;
  __nv_bfloat16* S = softmax_attention_bf16_workspace(2 * scores * sizeof(__nv_bfloat16));
  __nv_bfloat16* P = S + scores;
  dim3 block(16, 16);
  dim3 grid_s((kv_seq_len + 15) / 16, (q_seq_len + 15) / 16), grid_y((dim_v + 15) / 16, (q_seq_len + 15) / 16);
  softmax_attention_bf16_scores_kernel<<<grid_s, block>>>(Q, K, S, q_seq_len, kv_seq_len, dim_qk);
  softmax_attention_bf16_softmax_kernel<<<(q_seq_len + 255) / 256, 256>>>(S, P, q_seq_len, kv_seq_len);
  softmax_attention_bf16_output_kernel<<<grid_y, block>>>(P, V, Y, q_seq_len, kv_seq_len, dim_v);
  cudaDeviceSynchronize();
}
