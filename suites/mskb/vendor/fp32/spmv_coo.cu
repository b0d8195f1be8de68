// MSKB spmv_coo, FP32 vendor reference: cuSPARSE SpMV (generic API, COO descriptor, default algorithm;
// its COO input must be sorted by row, which MSKB's is not: vendor_coo_sorted's
// CUB sort glue runs first, every call). A's width is not a launcher parameter: the bound of sparse_vendor.h.
#include "sparse_vendor.h"

extern "C" void spmv_coo_vendor(int rows, int nnz, const float* values, const int* row_indices,
                                const int* col_indices, const float* x, float* y) {
  int64_t cols = vendor_cols_bound(1);
  cusparseConstSpMatDescr_t a = vendor_coo_sorted<float>(rows, nnz, row_indices, col_indices, values, cols, CUDA_R_32F);
  vendor_spmv(a, rows, cols, x, y, CUDA_R_32F);
  cudaDeviceSynchronize();
}
