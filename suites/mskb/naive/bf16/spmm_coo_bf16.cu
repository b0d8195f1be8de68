// MSKB spmm_coo, BF16 naive baseline: one thread per (entry, k) (16×16 blocks, x over entries, y over K) adds
// value·X[col][k] atomically into an FP32 copy of Y (zeroed first), then a second kernel rounds it into Y; X
// and Y are row-major with K columns. MSKB allocates that buffer on every call; here it is kept and grown
// when needed.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void spmm_coo_bf16_kernel(int nnz, int K, const __nv_bfloat16* values, const int* row_indices,
                                     const int* col_indices, const __nv_bfloat16* X, float* acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nnz || k >= K) return;
  float product = __bfloat162float(values[i]) * __bfloat162float(X[size_t(col_indices[i]) * K + k]);
  atomicAdd(&acc[size_t(row_indices[i]) * K + k], product);
}

__global__ void spmm_coo_bf16_round(const float* acc, __nv_bfloat16* Y, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) Y[i] = __float2bfloat16(acc[i]);
}

static float* accumulator(size_t n) {
  static float* buf = nullptr;
  static size_t capacity = 0;
  if (n > capacity) {
    cudaFree(buf);
    cudaMalloc(&buf, n * sizeof(float));
    capacity = n;
  }
  return buf;
}

extern "C" void spmm_coo_bf16(int rows, int nnz, int K, const __nv_bfloat16* values, const int* row_indices,
                              const int* col_indices, const __nv_bfloat16* X, __nv_bfloat16* Y) {
  size_t n = size_t(rows) * K;
  float* acc = accumulator(n);
  cudaMemsetAsync(acc, 0, n * sizeof(float), 0);
  dim3 block(16, 16), grid((nnz + 15) / 16, (K + 15) / 16);
  spmm_coo_bf16_kernel<<<grid, block>>>(nnz, K, values, row_indices, col_indices, X, acc);
  spmm_coo_bf16_round<<<unsigned((n + 255) / 256), 256>>>(acc, Y, n);
  cudaDeviceSynchronize();
}
