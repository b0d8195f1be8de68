// MSKB spmv_ell, FP32 naive baseline: one thread per row sums its max_nnz_per_row slots, skipping padding
// (column -1).
#include <cuda_runtime.h>

__global__ void spmv_ell_kernel(int rows, int max_nnz_per_row, const float* values, const int* col_ids,
                                const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (size_t e = size_t(row) * max_nnz_per_row, end = e + max_nnz_per_row; e < end; ++e)
    if (col_ids[e] != -1) sum += values[e] * x[col_ids[e]];
  y[row] = sum;
}

extern "C" void spmv_ell(int rows, int max_nnz_per_row, const float* values, const int* col_ids,
                         const float* x, float* y) {
  spmv_ell_kernel<<<(rows + 255) / 256, 256>>>(rows, max_nnz_per_row, values, col_ids, x, y);
  cudaDeviceSynchronize();
}
