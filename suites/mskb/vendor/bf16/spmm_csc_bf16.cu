// MSKB spmm_csc, BF16 vendor reference: cuSPARSE SpMM (generic API, CSC descriptor, CSR_ALG2 — its CSR/CSC
// algorithm for row-major X and Y, or cuSPARSE's default where it refuses that for BF16) on BF16 values, X
// and Y with FP32 compute. nnz is not a launcher parameter: it is read back from col_offsets[columns] (a
// 4-byte copy and sync per call).
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmm_csc_bf16_vendor(int rows, int columns, int K, const __nv_bfloat16* values,
                                     const int* row_indices, const int* col_offsets, const __nv_bfloat16* X,
                                     __nv_bfloat16* Y) {
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsc(&a, rows, columns, vendor_read_int(col_offsets + columns),
                                         col_offsets, row_indices, values, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_16BF));
  vendor_spmm(a, rows, columns, K, X, Y, CUDA_R_16BF, CUSPARSE_SPMM_CSR_ALG2);
  cudaDeviceSynchronize();
}
