// MSKB matrix_vector_mul, FP32 vendor reference: cuBLAS SGEMV. Row-major A (M×N) is column-major Aᵀ (N×M, ld N),
// so y = A·x is the transposed GEMV.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_vector_mul_vendor(const float* A, const float* x, float* y, int M, int N) {
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUBLAS(cublasSgemv(vendor_cublas(), CUBLAS_OP_T, N, M, &one, A, N, x, 1, &zero, y, 1));
  cudaDeviceSynchronize();
}
