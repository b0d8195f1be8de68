// MSKB spmv_ell, BF16 vendor reference: cuSPARSE has no plain ELL (its Sliced-ELL has another layout), so
// every call converts the ELL arrays to CSR with glue (a per-row count kernel, CUB's exclusive scan, a
// compaction kernel and a 4-byte nnz copy to the host; sparse_vendor.h) — that conversion is the honest cost
// — then runs cuSPARSE SpMV (generic API, CSR descriptor, default algorithm) on BF16 values, x and y with
// FP32 compute. A's width is the bound of sparse_vendor.h.
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmv_ell_bf16_vendor(int rows, int max_nnz_per_row, const __nv_bfloat16* values,
                                     const int* col_ids, const __nv_bfloat16* x, __nv_bfloat16* y) {
  int64_t cols = vendor_cols_bound(1);
  vendor_spmv(vendor_ell_as_csr(rows, max_nnz_per_row, values, col_ids, cols, CUDA_R_16BF), rows, cols, x, y,
              CUDA_R_16BF);
  cudaDeviceSynchronize();
}
