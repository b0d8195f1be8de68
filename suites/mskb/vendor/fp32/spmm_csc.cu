// MSKB spmm_csc, FP32 vendor reference: cuSPARSE SpMM (generic API, CSC descriptor, CSR_ALG2 — its CSR/CSC
// algorithm for row-major X and Y). nnz is not a launcher parameter: it is read back from
// col_offsets[columns] (a 4-byte copy and sync per call).
#include "sparse_vendor.h"

extern "C" void spmm_csc_vendor(int rows, int columns, int K, const float* values, const int* row_indices,
                                const int* col_offsets, const float* X, float* Y) {
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsc(&a, rows, columns, vendor_read_int(col_offsets + columns),
                                         col_offsets, row_indices, values, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  vendor_spmm(a, rows, columns, K, X, Y, CUDA_R_32F, CUSPARSE_SPMM_CSR_ALG2);
  cudaDeviceSynchronize();
}
