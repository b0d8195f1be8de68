// eval/worker/cuda_check.h — every CUDA/cuBLAS call in the worker goes through these: a failure becomes
// an exception naming the call, file and line, which the worker turns into a per-shape error.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace ucut::worker {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void cuda_fail(const char* expr, const char* file, int line, const std::string& what) {
  throw CudaError(std::string(expr) + " failed at " + file + ":" + std::to_string(line) + ": " + what);
}

}  // namespace ucut::worker

#define CUDA_OK(expr)                                                                          \
  do {                                                                                         \
    cudaError_t ucut_e_ = (expr);                                                              \
    if (ucut_e_ != cudaSuccess) ::ucut::worker::cuda_fail(#expr, __FILE__, __LINE__, cudaGetErrorString(ucut_e_)); \
  } while (0)

#define CUBLAS_OK(expr)                                                                        \
  do {                                                                                         \
    cublasStatus_t ucut_s_ = (expr);                                                           \
    if (ucut_s_ != CUBLAS_STATUS_SUCCESS)                                                      \
      ::ucut::worker::cuda_fail(#expr, __FILE__, __LINE__, cublasGetStatusString(ucut_s_));    \
  } while (0)
