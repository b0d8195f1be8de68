// MSKB spmm_coo, BF16 vendor reference: cuSPARSE SpMM (generic API, COO descriptor, COO_ALG4 — its algorithm
// for row-major X and Y, or cuSPARSE's default where it refuses that for BF16; its COO input must be sorted by
// row, which MSKB's is not: vendor_coo_sorted's CUB sort glue runs first, every call) on BF16 values, X and Y with FP32 compute. A's width is not a launcher parameter: the bound of
// sparse_vendor.h.
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmm_coo_bf16_vendor(int rows, int nnz, int K, const __nv_bfloat16* values,
                                     const int* row_indices, const int* col_indices, const __nv_bfloat16* X,
                                     __nv_bfloat16* Y) {
  int64_t cols = vendor_cols_bound(K);
  cusparseConstSpMatDescr_t a = vendor_coo_sorted<__nv_bfloat16>(rows, nnz, row_indices, col_indices, values, cols, CUDA_R_16BF);
  vendor_spmm(a, rows, cols, K, X, Y, CUDA_R_16BF, CUSPARSE_SPMM_COO_ALG4);
  cudaDeviceSynchronize();
}
