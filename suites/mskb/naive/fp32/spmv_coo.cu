// MSKB spmv_coo, FP32 naive baseline: one thread per entry adds value·x[col] to y[row] atomically. MSKB's
// test zeroes y before every call; this launcher does it itself so that repeated calls stay correct.
#include <cuda_runtime.h>

__global__ void spmv_coo_kernel(int nnz, const float* values, const int* row_indices, const int* col_indices,
                                const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz) atomicAdd(&y[row_indices[i]], values[i] * x[col_indices[i]]);
}

extern "C" void spmv_coo(int rows, int nnz, const float* values, const int* row_indices,
                         const int* col_indices, const float* x, float* y) {
  cudaMemsetAsync(y, 0, size_t(rows) * sizeof(float), 0);
  spmv_coo_kernel<<<(nnz + 255) / 256, 256>>>(nnz, values, row_indices, col_indices, x, y);
  cudaDeviceSynchronize();
}
