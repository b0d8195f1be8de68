// MSKB spmm_csr, BF16 naive baseline: one thread per output Y[row][k] (16×16 blocks, x over K, y over rows)
// sums value·X[col][k] in FP32 over the row's entries; X and Y are row-major with K columns.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void spmm_csr_bf16_kernel(int rows, int K, const __nv_bfloat16* values, const int* col_indices,
                                     const int* row_offsets, const __nv_bfloat16* X, __nv_bfloat16* Y) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows || k >= K) return;
  float sum = 0.0f;
  for (int j = row_offsets[row]; j < row_offsets[row + 1]; ++j)
    sum += __bfloat162float(values[j]) * __bfloat162float(X[size_t(col_indices[j]) * K + k]);
  Y[size_t(row) * K + k] = __float2bfloat16(sum);
}

extern "C" void spmm_csr_bf16(int rows, int K, const __nv_bfloat16* values, const int* col_indices,
                              const int* row_offsets, const __nv_bfloat16* X, __nv_bfloat16* Y) {
  dim3 block(16, 16), grid((K + 15) / 16, (rows + 15) / 16);
  spmm_csr_bf16_kernel<<<grid, block>>>(rows, K, values, col_indices, row_offsets, X, Y);
  cudaDeviceSynchronize();
}
