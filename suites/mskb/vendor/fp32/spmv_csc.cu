// MSKB spmv_csc, FP32 vendor reference: cuSPARSE SpMV (generic API, CSC descriptor, default algorithm). nnz
// is not a launcher parameter: it is read back from col_offsets[columns] (a 4-byte copy and sync per call).
#include "sparse_vendor.h"

extern "C" void spmv_csc_vendor(int rows, int columns, const float* values, const int* row_indices,
                                const int* col_offsets, const float* x, float* y) {
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsc(&a, rows, columns, vendor_read_int(col_offsets + columns),
                                         col_offsets, row_indices, values, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  vendor_spmv(a, rows, columns, x, y, CUDA_R_32F);
  cudaDeviceSynchronize();
}
