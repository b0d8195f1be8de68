// MSKB spmm_ell, BF16 naive baseline: one thread per output Y[row][k] (16×16 blocks, x over rows, y over K)
// sums value·X[col][k] in FP32 over the row's max_nnz_per_row slots, skipping padding (column -1); X and Y
// are row-major with K columns.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void spmm_ell_bf16_kernel(int rows, int max_nnz_per_row, int K, const __nv_bfloat16* values,
                                     const int* col_ids, const __nv_bfloat16* X, __nv_bfloat16* Y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int k = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || k >= K) return;
  float sum = 0.0f;
  for (size_t e = size_t(row) * max_nnz_per_row, end = e + max_nnz_per_row; e < end; ++e)
    if (col_ids[e] != -1)
      sum += __bfloat162float(values[e]) * __bfloat162float(X[size_t(col_ids[e]) * K + k]);
  Y[size_t(row) * K + k] = __float2bfloat16(sum);
}

extern "C" void spmm_ell_bf16(int rows, int max_nnz_per_row, int K, const __nv_bfloat16* values,
                              const int* col_ids, const __nv_bfloat16* X, __nv_bfloat16* Y) {
  dim3 block(16, 16), grid((rows + 15) / 16, (K + 15) / 16);
  spmm_ell_bf16_kernel<<<grid, block>>>(rows, max_nnz_per_row, K, values, col_ids, X, Y);
  cudaDeviceSynchronize();
}
