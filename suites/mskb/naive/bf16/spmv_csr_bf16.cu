// MSKB spmv_csr, BF16 naive baseline: one thread per row sums its entries in FP32. MSKB launches 32×32 blocks
// over row groups of 32, so the 32 threads of a block column compute the same row; kept so the time matches
// MSKB's.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void spmv_csr_bf16_kernel(int rows, const __nv_bfloat16* values, const int* col_indices,
                                     const int* row_offsets, const __nv_bfloat16* x, __nv_bfloat16* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int j = row_offsets[row]; j < row_offsets[row + 1]; ++j)
    sum += __bfloat162float(values[j]) * __bfloat162float(x[col_indices[j]]);
  y[row] = __float2bfloat16(sum);
}

extern "C" void spmv_csr_bf16(int rows, const __nv_bfloat16* values, const int* col_indices,
                              const int* row_offsets, const __nv_bfloat16* x, __nv_bfloat16* y) {
  spmv_csr_bf16_kernel<<<(rows + 31) / 32, dim3(32, 32)>>>(rows, values, col_indices, row_offsets, x, y);
  cudaDeviceSynchronize();
}
