// MSKB spmv_csr, BF16 vendor reference: cuSPARSE SpMV (generic API, CSR descriptor, default algorithm) on
// BF16 values, x and y with FP32 compute. The launcher is told neither nnz nor A's width: nnz is read back
// from row_offsets[rows] (a 4-byte copy and sync per call) and the width is the bound of sparse_vendor.h.
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmv_csr_bf16_vendor(int rows, const __nv_bfloat16* values, const int* col_indices,
                                     const int* row_offsets, const __nv_bfloat16* x, __nv_bfloat16* y) {
  int64_t cols = vendor_cols_bound(1);
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsr(&a, rows, cols, vendor_read_int(row_offsets + rows), row_offsets,
                                         col_indices, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_16BF));
  vendor_spmv(a, rows, cols, x, y, CUDA_R_16BF);
  cudaDeviceSynchronize();
}
