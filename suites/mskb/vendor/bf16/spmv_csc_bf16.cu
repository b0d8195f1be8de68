// MSKB spmv_csc, BF16 vendor reference: cuSPARSE SpMV (generic API, CSC descriptor, default algorithm) on
// BF16 values, x and y with FP32 compute. nnz is not a launcher parameter: it is read back from
// col_offsets[columns] (a 4-byte copy and sync per call).
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmv_csc_bf16_vendor(int rows, int columns, const __nv_bfloat16* values,
                                     const int* row_indices, const int* col_offsets, const __nv_bfloat16* x,
                                     __nv_bfloat16* y) {
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsc(&a, rows, columns, vendor_read_int(col_offsets + columns),
                                         col_offsets, row_indices, values, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_16BF));
  vendor_spmv(a, rows, columns, x, y, CUDA_R_16BF);
  cudaDeviceSynchronize();
}
