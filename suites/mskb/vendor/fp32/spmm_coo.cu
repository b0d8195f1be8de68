// MSKB spmm_coo, FP32 vendor reference: cuSPARSE SpMM (generic API, COO descriptor, COO_ALG4 — its algorithm
// for row-major X and Y; its COO input must be sorted by row, which MSKB's is not: vendor_coo_sorted's
// CUB sort glue runs first, every call). A's width is not a launcher parameter: the
// bound of sparse_vendor.h.
#include "sparse_vendor.h"

extern "C" void spmm_coo_vendor(int row, int nnz, int K, const float* values, const int* row_indices,
                                const int* col_indices, const float* X, float* Y) {
  int64_t cols = vendor_cols_bound(K);
  cusparseConstSpMatDescr_t a = vendor_coo_sorted<float>(row, nnz, row_indices, col_indices, values, cols, CUDA_R_32F);
  vendor_spmm(a, row, cols, K, X, Y, CUDA_R_32F, CUSPARSE_SPMM_COO_ALG4);
  cudaDeviceSynchronize();
}
