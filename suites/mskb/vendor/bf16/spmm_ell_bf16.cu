// MSKB spmm_ell, BF16 vendor reference: cuSPARSE's ELL for SpMM is Blocked-ELL (tensor-core blocks; this ELL
// would be 1×1 blocks), so every call converts the ELL arrays to CSR with glue (a per-row count kernel, CUB's
// exclusive scan, a compaction kernel and a 4-byte nnz copy to the host; sparse_vendor.h) — that conversion
// is the honest cost — then runs cuSPARSE SpMM (generic API, CSR descriptor, CSR_ALG2 for row-major X and Y)
// on BF16 values, X and Y with FP32 compute. A's width is the bound of sparse_vendor.h.
#include <cuda_bf16.h>

#include "sparse_vendor.h"

extern "C" void spmm_ell_bf16_vendor(int rows, int max_nnz_per_row, int K, const __nv_bfloat16* values,
                                     const int* col_ids, const __nv_bfloat16* X, __nv_bfloat16* Y) {
  int64_t cols = vendor_cols_bound(K);
  vendor_spmm(vendor_ell_as_csr(rows, max_nnz_per_row, values, col_ids, cols, CUDA_R_16BF), rows, cols, K, X,
              Y, CUDA_R_16BF, CUSPARSE_SPMM_CSR_ALG2);
  cudaDeviceSynchronize();
}
