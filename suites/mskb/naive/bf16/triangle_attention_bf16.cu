// MSKB triangle_attention, BF16 naive baseline (FP32 mask and math): one thread per output element (b, h, i, d) of
// the [batch, heads, seq, head_dim] tensors. Its scores are per dimension, q[i][d]·k[j][d]/√head_dim over the rows
// j ≤ i that attention_mask ([batch, seq, seq], > 0.5 masks) keeps; like MSKB's baseline it walks them three times
// (max, sum of exponentials, weighted sum of v[j][d]) and writes 0 when the mask keeps none.
#include <cfloat>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

// The score of row j for the thread's (i, d), or -FLT_MAX where the mask drops it.
__device__ float triangle_attention_bf16_score(float q, const __nv_bfloat16* key, const float* mask_row, int j,
                                               int head_dim, float root) {
  return mask_row[j] > 0.5f ? -FLT_MAX : q * __bfloat162float(key[int64_t(j) * head_dim]) / root;
}

__global__ void triangle_attention_bf16_kernel(const __nv_bfloat16* query, const __nv_bfloat16* key,
                                               const __nv_bfloat16* value, const float* attention_mask,
                                               __nv_bfloat16* output, int batch_size, int head_num, int seq_length,
                                               int head_dim) {
  int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= int64_t(batch_size) * head_num * seq_length * head_dim) return;
  int d = int(idx % head_dim), i = int(idx / head_dim % seq_length);
  int64_t bh = idx / (int64_t(seq_length) * head_dim);  // b·head_num + h
  int64_t column = bh * seq_length * head_dim + d;       // element (b, h, 0, d)
  const float* mask_row = attention_mask + (bh / head_num * seq_length + i) * seq_length;
  const __nv_bfloat16* k = key + column;
  float q = __bfloat162float(query[idx]), root = sqrtf(float(head_dim)), top = -FLT_MAX, sum = 0.0f, acc = 0.0f;
  for (int j = 0; j <= i; ++j) top = fmaxf(top, triangle_attention_bf16_score(q, k, mask_row, j, head_dim, root));
  for (int j = 0; j <= i; ++j) {
    float s = triangle_attention_bf16_score(q, k, mask_row, j, head_dim, root);
    sum += s <= -FLT_MAX ? 0.0f : expf(s - top);
  }
  if (sum > 0.0f)
    for (int j = 0; j <= i; ++j) {
      float s = triangle_attention_bf16_score(q, k, mask_row, j, head_dim, root);
      float w = s <= -FLT_MAX ? 0.0f : expf(s - top) / sum;
      acc += w * __bfloat162float(value[column + int64_t(j) * head_dim]);
    }
  output[idx] = __float2bfloat16(acc);
}

extern "C" void triangle_attention_bf16(const __nv_bfloat16* query, const __nv_bfloat16* key,
                                        const __nv_bfloat16* value, const float* attention_mask,
                                        __nv_bfloat16* output, int batch_size, int head_num, int seq_length,
                                        int head_dim) {
  int64_t total = int64_t(batch_size) * head_num * seq_length * head_dim;
  int threads = 256;
  triangle_attention_bf16_kernel<<<unsigned((total + threads - 1) / threads), threads>>>(
      query, key, value, attention_mask, output, batch_size, head_num, seq_length, head_dim);
  cudaDeviceSynchronize();
}
