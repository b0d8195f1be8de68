// MSKB spmv_coo, BF16 vendor reference: cuSPARSE SpMV (generic API, COO descriptor, default algorithm;
// its COO input must be sorted by row, which MSKB's is not: vendor_coo_sorted's
// CUB sort glue runs first, every call) on BF16 values, x and y with FP32 compute. A's width is not a launcher
// parameter: the bound of sparse_vendor.h.
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmv_coo_bf16_vendor(int rows, int nnz, const __nv_bfloat16* values, const int* row_indices,
                                     const int* col_indices, const __nv_bfloat16* x, __nv_bfloat16* y) {
  int64_t cols = vendor_cols_bound(1);
  cusparseConstSpMatDescr_t a = vendor_coo_sorted<__nv_bfloat16>(rows, nnz, row_indices, col_indices, values, cols, CUDA_R_16BF);
  vendor_spmv(a, rows, cols, x, y, CUDA_R_16BF);
  cudaDeviceSynchronize();
}
