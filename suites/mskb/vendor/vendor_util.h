// suites/mskb/vendor/vendor_util.h — what the vendor launchers share: library handles made once per process
// (the harness's warm-up calls absorb their creation) on the legacy default stream MSKB's launchers use, and
// checks that report a failing library call on stderr and abort, so the harness records a crash naming it.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cublas_v2.h>

#define VENDOR_FAIL(what, code)                                                                  \
  do {                                                                                           \
    std::fprintf(stderr, "%s:%d: %s failed with status %d\n", __FILE__, __LINE__, what, int(code)); \
    std::abort();                                                                                \
  } while (0)

#define VENDOR_CUBLAS(call)                                 \
  do {                                                      \
    cublasStatus_t st_ = (call);                            \
    if (st_ != CUBLAS_STATUS_SUCCESS) VENDOR_FAIL(#call, st_); \
  } while (0)

inline cublasHandle_t vendor_cublas() {
  static cublasHandle_t h = [] {
    cublasHandle_t made = nullptr;
    VENDOR_CUBLAS(cublasCreate(&made));
    return made;
  }();
  return h;
}

#include <cuda_runtime.h>
#include <cudnn.h>

#define VENDOR_CUDA(call)                                \
  do {                                                   \
    cudaError_t st_ = (call);                            \
    if (st_ != cudaSuccess) VENDOR_FAIL(#call, st_);     \
  } while (0)

#define VENDOR_CUDNN(call)                                 \
  do {                                                     \
    cudnnStatus_t st_ = (call);                            \
    if (st_ != CUDNN_STATUS_SUCCESS) VENDOR_FAIL(#call, st_); \
  } while (0)

inline cudnnHandle_t vendor_cudnn() {
  static cudnnHandle_t h = [] {
    cudnnHandle_t made = nullptr;
    VENDOR_CUDNN(cudnnCreate(&made));
    return made;
  }();
  return h;
}

// One device buffer of at least `bytes` (library temp storage, intermediates), kept between calls and grown when a
// bigger case needs more. Shared by the launchers of a process: take everything one call needs from one request.
inline void* vendor_workspace(size_t bytes) {
  static void* buffer = nullptr;
  static size_t have = 0;
  if (bytes > have) {
    if (buffer) VENDOR_CUDA(cudaFree(buffer));
    VENDOR_CUDA(cudaMalloc(&buffer, bytes));
    have = bytes;
  }
  return buffer;
}

#include <cublasLt.h>

inline cublasLtHandle_t vendor_cublaslt() {
  static cublasLtHandle_t h = [] {
    cublasLtHandle_t made = nullptr;
    VENDOR_CUBLAS(cublasLtCreate(&made));
    return made;
  }();
  return h;
}

#include <cusparse.h>

#define VENDOR_CUSPARSE(call)                                 \
  do {                                                        \
    cusparseStatus_t st_ = (call);                            \
    if (st_ != CUSPARSE_STATUS_SUCCESS) VENDOR_FAIL(#call, st_); \
  } while (0)

inline cusparseHandle_t vendor_cusparse() {
  static cusparseHandle_t h = [] {
    cusparseHandle_t made = nullptr;
    VENDOR_CUSPARSE(cusparseCreate(&made));
    return made;
  }();
  return h;
}

#include <cufft.h>

#define VENDOR_CUFFT(call)                                 \
  do {                                                     \
    cufftResult st_ = (call);                              \
    if (st_ != CUFFT_SUCCESS) VENDOR_FAIL(#call, st_);     \
  } while (0)
