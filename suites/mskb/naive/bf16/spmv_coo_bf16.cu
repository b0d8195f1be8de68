// MSKB spmv_coo, BF16 naive baseline: one thread per entry adds value·x[col] atomically into an FP32 copy of
// y (zeroed first), then a second kernel rounds it into y. MSKB allocates that buffer on every call; here it
// is kept and grown when a larger case needs more.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void spmv_coo_bf16_kernel(int nnz, const __nv_bfloat16* values, const int* row_indices,
                                     const int* col_indices, const __nv_bfloat16* x, float* acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz)
    atomicAdd(&acc[row_indices[i]], __bfloat162float(values[i]) * __bfloat162float(x[col_indices[i]]));
}

__global__ void spmv_coo_bf16_round(const float* acc, __nv_bfloat16* y, int n) {
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

extern "C" void spmv_coo_bf16(int rows, int nnz, const __nv_bfloat16* values, const int* row_indices,
                              const int* col_indices, const __nv_bfloat16* x, __nv_bfloat16* y) {
  float* acc = accumulator(size_t(rows));
  cudaMemsetAsync(acc, 0, size_t(rows) * sizeof(float), 0);
  spmv_coo_bf16_kernel<<<(nnz + 255) / 256, 256>>>(nnz, values, row_indices, col_indices, x, acc);
  spmv_coo_bf16_round<<<(rows + 255) / 256, 256>>>(acc, y, rows);
  cudaDeviceSynchronize();
}
