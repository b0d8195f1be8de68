// MSKB spmv_csc, BF16 naive baseline: one thread per column adds value·x[col] atomically into an FP32 copy of
// y (zeroed first) for each of its entries, then a second kernel rounds it into y. MSKB allocates that buffer
// on every call; here it is kept and grown when a larger case needs more.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void spmv_csc_bf16_kernel(int columns, const __nv_bfloat16* values, const int* row_indices,
                                     const int* col_offsets, const __nv_bfloat16* x, float* acc) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= columns) return;
  float xc = __bfloat162float(x[col]);
  for (int j = col_offsets[col]; j < col_offsets[col + 1]; ++j)
    atomicAdd(&acc[row_indices[j]], __bfloat162float(values[j]) * xc);
}

__global__ void spmv_csc_bf16_round(const float* acc, __nv_bfloat16* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(acc[i]);
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

extern "C" void spmv_csc_bf16(int rows, int columns, const __nv_bfloat16* values, const int* row_indices,
                              const int* col_offsets, const __nv_bfloat16* x, __nv_bfloat16* y) {
  float* acc = accumulator(size_t(rows));
  cudaMemsetAsync(acc, 0, size_t(rows) * sizeof(float), 0);
  spmv_csc_bf16_kernel<<<(columns + 255) / 256, 256>>>(columns, values, row_indices, col_offsets, x, acc);
  spmv_csc_bf16_round<<<(rows + 255) / 256, 256>>>(acc, y, rows);
  cudaDeviceSynchronize();
}
