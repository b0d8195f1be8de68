// MSKB spmm_csr, BF16 vendor reference: cuSPARSE SpMM (generic API, CSR descriptor, CSR_ALG2 — its algorithm
// for row-major X and Y) on BF16 values, X and Y with FP32 compute. The launcher is told neither nnz nor A's
// width: nnz is read back from row_offsets[rows] (a 4-byte copy and sync per call) and the width is the bound
// of sparse_vendor.h.
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmm_csr_bf16_vendor(int rows, int K, const __nv_bfloat16* values, const int* col_indices,
                                     const int* row_offsets, const __nv_bfloat16* X, __nv_bfloat16* Y) {
  int64_t cols = vendor_cols_bound(K);
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsr(&a, rows, cols, vendor_read_int(row_offsets + rows), row_offsets,
                                         col_indices, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_16BF));
  vendor_spmm(a, rows, cols, K, X, Y, CUDA_R_16BF, CUSPARSE_SPMM_CSR_ALG2);
  cudaDeviceSynchronize();
}
