// MSKB spmm_csr, FP32 naive baseline: one thread per output Y[row][k] (16×16 blocks, x over K, y over rows)
// sums value·X[col][k] over the row's entries; X and Y are row-major with K columns.
#include <cuda_runtime.h>

__global__ void spmm_csr_kernel(int rows, int K, const float* values, const int* col_indices,
                                const int* row_offsets, const float* X, float* Y) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows || k >= K) return;
  float sum = 0.0f;
  for (int j = row_offsets[row]; j < row_offsets[row + 1]; ++j)
    sum += values[j] * X[size_t(col_indices[j]) * K + k];
  Y[size_t(row) * K + k] = sum;
}

extern "C" void spmm_csr(int rows, int K, const float* values, const int* col_indices, const int* row_offsets,
                         const float* X, float* Y) {
  dim3 block(16, 16), grid((K + 15) / 16, (rows + 15) / 16);
  spmm_csr_kernel<<<grid, block>>>(rows, K, values, col_indices, row_offsets, X, Y);
  cudaDeviceSynchronize();
}
