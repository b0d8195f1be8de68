// MSKB softmax_attention, FP32 naive baseline, three kernels as MSKB's: S = Q·Kᵀ/√dim_qk with one thread per score
// (16×16 blocks), a row softmax S → P with one thread per query row, and Y = P·V with one thread per output. Q is
// [q, dim_qk], K [kv, dim_qk], V [kv, dim_v], Y [q, dim_v], row-major. S and P live in a buffer allocated once and
// grown (MSKB allocates and frees them on every call).
#include <cfloat>
#include <cstdint>

#include <cuda_runtime.h>

__global__ void softmax_attention_scores_kernel(const float* Q, const float* K, float* S, int q_seq_len,
                                                int kv_seq_len, int dim_qk) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= q_seq_len || col >= kv_seq_len) return;
  const float* q = Q + int64_t(row) * dim_qk;
  const float* k = K + int64_t(col) * dim_qk;
  float acc = 0.0f;
  for (int e = 0; e < dim_qk; ++e) acc += q[e] * k[e];
  S[int64_t(row) * kv_seq_len + col] = acc * rsqrtf(float(dim_qk));
}

__global__ void softmax_attention_softmax_kernel(const float* S, float* P, int q_seq_len, int kv_seq_len) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= q_seq_len) return;
  const float* s = S + int64_t(row) * kv_seq_len;
  float* p = P + int64_t(row) * kv_seq_len;
  float top = -FLT_MAX, sum = 0.0f;
  for (int j = 0; j < kv_seq_len; ++j) top = fmaxf(top, s[j]);
  for (int j = 0; j < kv_seq_len; ++j) sum += (p[j] = expf(s[j] - top));
  for (int j = 0; j < kv_seq_len; ++j) p[j] /= sum;
}

__global__ void softmax_attention_output_kernel(const float* P, const float* V, float* Y, int q_seq_len,
                                                int kv_seq_len, int dim_v) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= q_seq_len || col >= dim_v) return;
  const float* p = P + int64_t(row) * kv_seq_len;
  float acc = 0.0f;
  for (int j = 0; j < kv_seq_len; ++j) acc += p[j] * V[int64_t(j) * dim_v + col];
  Y[int64_t(row) * dim_v + col] = acc;
}

// A device buffer of at least `bytes`, kept between calls and grown when a case needs more.
static float* softmax_attention_workspace(size_t bytes) {
  static void* buffer = nullptr;
  static size_t have = 0;
  if (bytes > have) {
    cudaFree(buffer);
    cudaMalloc(&buffer, bytes);
    have = bytes;
  }
  return static_cast<float*>(buffer);
}

extern "C" void softmax_attention(float* Y, const float* Q, const float* K, const float* V, int q_seq_len,
                                  int kv_seq_len, int dim_qk, int dim_v) {
  size_t scores = size_t(q_seq_len) * kv_seq_len;
  float* S = softmax_attention_workspace(2 * scores * sizeof(float));
  float* P = S + scores;
  dim3 block(16, 16);
  dim3 grid_s((kv_seq_len + 15) / 16, (q_seq_len + 15) / 16), grid_y((dim_v + 15) / 16, (q_seq_len + 15) / 16);
  softmax_attention_scores_kernel<<<grid_s, block>>>(Q, K, S, q_seq_len, kv_seq_len, dim_qk);
  softmax_attention_softmax_kernel<<<(q_seq_len + 255) / 256, 256>>>(S, P, q_seq_len, kv_seq_len);
  softmax_attention_output_kernel<<<grid_y, block>>>(P, V, Y, q_seq_len, kv_seq_len, dim_v);
  cudaDeviceSynchronize();
}
