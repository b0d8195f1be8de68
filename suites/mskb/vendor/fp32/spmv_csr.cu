// MSKB spmv_csr, FP32 vendor reference: cuSPARSE SpMV (generic API, CSR descriptor, default algorithm). The
// launcher is told neither nnz nor A's width: nnz is read back from row_offsets[rows] (a 4-byte copy and sync
// per call) and the width is the bound of sparse_vendor.h.
#include "sparse_vendor.h"

extern "C" void spmv_csr_vendor(int rows, const float* values, const int* col_indices, const int* row_offsets,
                                const float* x, float* y) {
  int64_t cols = vendor_cols_bound(1);
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsr(&a, rows, cols, vendor_read_int(row_offsets + rows), row_offsets,
                                         col_indices, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  vendor_spmv(a, rows, cols, x, y, CUDA_R_32F);
  cudaDeviceSynchronize();
}
