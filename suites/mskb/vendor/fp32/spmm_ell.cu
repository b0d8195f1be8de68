// MSKB spmm_ell, FP32 vendor reference: cuSPARSE's ELL for SpMM is Blocked-ELL (tensor-core blocks; this ELL
// would be 1×1 blocks), so every call converts the ELL arrays to CSR with glue (a per-row count kernel, CUB's
// exclusive scan, a compaction kernel and a 4-byte nnz copy to the host; sparse_vendor.h) — that conversion
// is the honest cost — then runs cuSPARSE SpMM (generic API, CSR descriptor, CSR_ALG2 for row-major X and Y).
// A's width is the bound of sparse_vendor.h.
#include "sparse_vendor.h"

extern "C" void spmm_ell_vendor(int rows, int max_nnz_per_row, int K, const float* values, const int* col_ids,
                                const float* X, float* Y) {
  int64_t cols = vendor_cols_bound(K);
  vendor_spmm(vendor_ell_as_csr(rows, max_nnz_per_row, values, col_ids, cols, CUDA_R_32F), rows, cols, K, X,
              Y, CUDA_R_32F, CUSPARSE_SPMM_CSR_ALG2);
  cudaDeviceSynchronize();
}
