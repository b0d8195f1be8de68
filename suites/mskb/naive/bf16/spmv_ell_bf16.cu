// MSKB spmv_ell, BF16 naive baseline: one thread per row sums its max_nnz_per_row slots in FP32, skipping
// padding (column -1).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void spmv_ell_bf16_kernel(int rows, int max_nnz_per_row, const __nv_bfloat16* values,
                                     const int* col_ids, const __nv_bfloat16* x, __nv_bfloat16* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (size_t e = size_t(row) * max_nnz_per_row, end = e + max_nnz_per_row; e < end; ++e)
    if (col_ids[e] != -1) sum += __bfloat162float(values[e]) * __bfloat162float(x[col_ids[e]]);
  y[row] = __float2bfloat16(sum);
}

extern "C" void spmv_ell_bf16(int rows, int max_nnz_per_row, const __nv_bfloat16* values, const int* col_ids,
                              const __nv_bfloat16* x, __nv_bfloat16* y) {
  spmv_ell_bf16_kernel<<<(rows + 255) / 256, 256>>>(rows, max_nnz_per_row, values, col_ids, x, y);
  cudaDeviceSynchronize();
}
