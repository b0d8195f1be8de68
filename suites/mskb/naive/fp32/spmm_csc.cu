// MSKB spmm_csc, FP32 naive baseline: one thread per (column, k) (16×16 blocks, x over columns, y over K)
// adds value·X[col][k] to Y[row][k] atomically for each of the column's entries; X and Y are row-major with K
// columns. MSKB's test zeroes Y before every call; this launcher does it itself so that repeated calls stay
// correct.
#include <cuda_runtime.h>

__global__ void spmm_csc_kernel(int columns, int K, const float* values, const int* row_indices,
                                const int* col_offsets, const float* X, float* Y) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int k = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= columns || k >= K) return;
  float xk = X[size_t(col) * K + k];
  for (int j = col_offsets[col]; j < col_offsets[col + 1]; ++j)
    atomicAdd(&Y[size_t(row_indices[j]) * K + k], values[j] * xk);
}

extern "C" void spmm_csc(int rows, int columns, int K, const float* values, const int* row_indices,
                         const int* col_offsets, const float* X, float* Y) {
  cudaMemsetAsync(Y, 0, size_t(rows) * K * sizeof(float), 0);
  dim3 block(16, 16), grid((columns + 15) / 16, (K + 15) / 16);
  spmm_csc_kernel<<<grid, block>>>(columns, K, values, row_indices, col_offsets, X, Y);
  cudaDeviceSynchronize();
}
