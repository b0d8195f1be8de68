// MSKB spmm_coo, FP32 naive baseline: one thread per (entry, k) (16×16 blocks, x over entries, y over K) adds
// value·X[col][k] to Y[row][k] atomically; X and Y are row-major with K columns. MSKB's test zeroes Y before
// every call; this launcher does it itself so that repeated calls stay correct.
#include <cuda_runtime.h>

__global__ void spmm_coo_kernel(int nnz, int K, const float* values, const int* row_indices,
                                const int* col_indices, const float* X, float* Y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nnz || k >= K) return;
  atomicAdd(&Y[size_t(row_indices[i]) * K + k], values[i] * X[size_t(col_indices[i]) * K + k]);
}

extern "C" void spmm_coo(int row, int nnz, int K, const float* values, const int* row_indices,
                         const int* col_indices, const float* X, float* Y) {
  cudaMemsetAsync(Y, 0, size_t(row) * K * sizeof(float), 0);
  dim3 block(16, 16), grid((nnz + 15) / 16, (K + 15) / 16);
  spmm_coo_kernel<<<grid, block>>>(nnz, K, values, row_indices, col_indices, X, Y);
  cudaDeviceSynchronize();
}
