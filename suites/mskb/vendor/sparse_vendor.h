// suites/mskb/vendor/sparse_vendor.h — what the cuSPARSE launchers of the Sparse tasks share: y = A·x and Y =
// A·X (X, Y row-major with K columns) through cuSPARSE's generic API with FP32 compute, device buffers grown
// on demand, and the ELL-to-CSR glue of spmv_ell / spmm_ell (cuSPARSE has no plain ELL: SELL for SpMV and
// Blocked-ELL for SpMM have other layouts). Descriptors depend on sizes and pointers, so each call makes and
// destroys its own.
#pragma once

#include <climits>
#include <cstdint>
#include <cub/cub.cuh>

#include "vendor_util.h"

// A device buffer kept between calls and grown when a bigger case needs more; one per use.
struct VendorBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  void* at_least(size_t need) {
    if (need > bytes) {
      if (ptr) VENDOR_CUDA(cudaFree(ptr));
      VENDOR_CUDA(cudaMalloc(&ptr, need));
      bytes = need;
    }
    return ptr;
  }
};

// The width declared to cuSPARSE for A when the launcher is not told it (CSR, COO, ELL). Finding it would
// cost a pass over the column indices and a host sync; cuSPARSE reads only the rows of X the indices name, so
// declare the widest A the interface can address: MSKB indexes X[col·K + k] with int, so col·K < 2^31.
inline int64_t vendor_cols_bound(int64_t k) { return INT_MAX / k; }

// One int from device memory (a CSR or CSC matrix's nnz, its last offset, which the descriptor needs on the
// host).
inline int vendor_read_int(const int* device) {
  int value = 0;
  VENDOR_CUDA(cudaMemcpy(&value, device, sizeof(int), cudaMemcpyDeviceToHost));
  return value;
}

// y (rows) = A·x (cols) with values, x and y of `type`, FP32 compute, cuSPARSE's default algorithm for A's
// format; destroys A's descriptor.
inline void vendor_spmv(cusparseConstSpMatDescr_t a, int64_t rows, int64_t cols, const void* x, void* y,
                        cudaDataType type) {
  static VendorBuffer work;
  cusparseHandle_t h = vendor_cusparse();
  cusparseConstDnVecDescr_t vx = nullptr;
  cusparseDnVecDescr_t vy = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstDnVec(&vx, cols, x, type));
  VENDOR_CUSPARSE(cusparseCreateDnVec(&vy, rows, y, type));
  const float one = 1.0f, zero = 0.0f;
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
  size_t bytes = 0;
  VENDOR_CUSPARSE(
      cusparseSpMV_bufferSize(h, n, &one, a, vx, &zero, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  VENDOR_CUSPARSE(cusparseSpMV(h, n, &one, a, vx, &zero, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                               work.at_least(bytes)));
  VENDOR_CUSPARSE(cusparseDestroyDnVec(vx));
  VENDOR_CUSPARSE(cusparseDestroyDnVec(vy));
  VENDOR_CUSPARSE(cusparseDestroySpMat(a));
}

// Y (rows × k) = A·X (cols × k), both row-major of `type`, FP32 compute, by `alg`, or by cuSPARSE's default
// where it refuses `alg` for this type (its mixed-precision SpMM takes fewer algorithms); destroys A's
// descriptor.
inline void vendor_spmm(cusparseConstSpMatDescr_t a, int64_t rows, int64_t cols, int64_t k, const void* X,
                        void* Y, cudaDataType type, cusparseSpMMAlg_t alg) {
  static VendorBuffer work;
  cusparseHandle_t h = vendor_cusparse();
  cusparseConstDnMatDescr_t mx = nullptr;
  cusparseDnMatDescr_t my = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstDnMat(&mx, cols, k, k, X, type, CUSPARSE_ORDER_ROW));
  VENDOR_CUSPARSE(cusparseCreateDnMat(&my, rows, k, k, Y, type, CUSPARSE_ORDER_ROW));
  const float one = 1.0f, zero = 0.0f;
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
  size_t bytes = 0;
  cusparseStatus_t st = cusparseSpMM_bufferSize(h, n, n, &one, a, mx, &zero, my, CUDA_R_32F, alg, &bytes);
  if (st == CUSPARSE_STATUS_NOT_SUPPORTED) {
    alg = CUSPARSE_SPMM_ALG_DEFAULT;
    st = cusparseSpMM_bufferSize(h, n, n, &one, a, mx, &zero, my, CUDA_R_32F, alg, &bytes);
  }
  if (st != CUSPARSE_STATUS_SUCCESS) VENDOR_FAIL("cusparseSpMM_bufferSize", st);
  VENDOR_CUSPARSE(cusparseSpMM(h, n, n, &one, a, mx, &zero, my, CUDA_R_32F, alg, work.at_least(bytes)));
  VENDOR_CUSPARSE(cusparseDestroyDnMat(mx));
  VENDOR_CUSPARSE(cusparseDestroyDnMat(my));
  VENDOR_CUSPARSE(cusparseDestroySpMat(a));
}

// Glue: the entries (column ≠ -1) of each ELL row; counts[rows] = 0 closes the array for the exclusive scan.
static __global__ void vendor_ell_count(int rows, int width, const int* col_ids, int* counts) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r > rows) return;
  int n = 0;
  if (r < rows)
    for (size_t e = size_t(r) * width, end = e + width; e < end; ++e) n += col_ids[e] != -1;
  counts[r] = n;
}

// Glue: each ELL row's entries, in order, at its CSR offset.
template <typename T>
__global__ void vendor_ell_compact(int rows, int width, const T* values, const int* col_ids,
                                   const int* offsets, int* csr_cols, T* csr_values) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int at = offsets[r];
  for (size_t e = size_t(r) * width, end = e + width; e < end; ++e)
    if (col_ids[e] != -1) {
      csr_cols[at] = col_ids[e];
      csr_values[at++] = values[e];
    }
}

// The ELL arrays (rows × width, row-major, padding column -1) as a rows × cols CSR descriptor, rebuilt on
// every call: per-row counts, CUB's exclusive scan into row offsets, the entries compacted in order, and nnz
// copied to the host for the descriptor.
template <typename T>
cusparseConstSpMatDescr_t vendor_ell_as_csr(int rows, int width, const T* values, const int* col_ids,
                                            int64_t cols, cudaDataType type) {
  static VendorBuffer counts_buf, offsets_buf, cols_buf, values_buf, scan_buf;
  size_t slots = size_t(rows) * width;
  auto counts = static_cast<int*>(counts_buf.at_least((rows + 1) * sizeof(int)));
  auto offsets = static_cast<int*>(offsets_buf.at_least((rows + 1) * sizeof(int)));
  auto csr_cols = static_cast<int*>(cols_buf.at_least(slots * sizeof(int)));
  auto csr_values = static_cast<T*>(values_buf.at_least(slots * sizeof(T)));
  vendor_ell_count<<<(rows + 256) / 256, 256>>>(rows, width, col_ids, counts);
  size_t scan_bytes = 0;
  VENDOR_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts, offsets, rows + 1));
  VENDOR_CUDA(
      cub::DeviceScan::ExclusiveSum(scan_buf.at_least(scan_bytes), scan_bytes, counts, offsets, rows + 1));
  vendor_ell_compact<T>
      <<<(rows + 255) / 256, 256>>>(rows, width, values, col_ids, offsets, csr_cols, csr_values);
  VENDOR_CUDA(cudaGetLastError());
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCsr(&a, rows, cols, vendor_read_int(offsets + rows), offsets, csr_cols,
                                         csr_values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, type));
  return a;
}

// Glue: the (row, column) sort key of each COO entry, and its position.
static __global__ void vendor_coo_keys(int nnz, const int* row_indices, const int* col_indices,
                                       unsigned long long* keys, int* positions) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nnz) return;
  keys[i] = (static_cast<unsigned long long>(static_cast<unsigned>(row_indices[i])) << 32) |
            static_cast<unsigned>(col_indices[i]);
  positions[i] = i;
}

// Glue: the entries in sorted order, from their sorted keys and positions.
template <typename T>
__global__ void vendor_coo_gather(int nnz, const unsigned long long* keys, const int* order, const T* values,
                                  int* rows_out, int* cols_out, T* values_out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nnz) return;
  rows_out[i] = static_cast<int>(keys[i] >> 32);
  cols_out[i] = static_cast<int>(keys[i] & 0xffffffffu);
  values_out[i] = values[order[i]];
}

// cuSPARSE's COO routines need the entries sorted by row (then column); MSKB's are not (its generator puts entry
// i < rows in row i and the rest anywhere). Every call sorts (row, column) keys with CUB's radix sort, gathers the
// values in that order, and describes the sorted copy: the honest cost of handing MSKB's COO to cuSPARSE.
template <typename T>
cusparseConstSpMatDescr_t vendor_coo_sorted(int rows, int nnz, const int* row_indices, const int* col_indices,
                                            const T* values, int64_t cols, cudaDataType type) {
  static VendorBuffer keys_buf, sorted_keys_buf, positions_buf, order_buf, rows_buf, cols_buf, values_buf, sort_buf;
  size_t n = size_t(nnz);
  auto keys = static_cast<unsigned long long*>(keys_buf.at_least(n * 8));
  auto sorted_keys = static_cast<unsigned long long*>(sorted_keys_buf.at_least(n * 8));
  auto positions = static_cast<int*>(positions_buf.at_least(n * 4));
  auto order = static_cast<int*>(order_buf.at_least(n * 4));
  auto sorted_rows = static_cast<int*>(rows_buf.at_least(n * 4));
  auto sorted_cols = static_cast<int*>(cols_buf.at_least(n * 4));
  auto sorted_values = static_cast<T*>(values_buf.at_least(n * sizeof(T)));
  int blocks = (nnz + 255) / 256;
  vendor_coo_keys<<<blocks, 256>>>(nnz, row_indices, col_indices, keys, positions);
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, positions, order, nnz));
  VENDOR_CUDA(cub::DeviceRadixSort::SortPairs(sort_buf.at_least(bytes), bytes, keys, sorted_keys, positions, order, nnz));
  vendor_coo_gather<T><<<blocks, 256>>>(nnz, sorted_keys, order, values, sorted_rows, sorted_cols, sorted_values);
  VENDOR_CUDA(cudaGetLastError());
  cusparseConstSpMatDescr_t a = nullptr;
  VENDOR_CUSPARSE(cusparseCreateConstCoo(&a, rows, cols, nnz, sorted_rows, sorted_cols, sorted_values,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type));
  return a;
}
