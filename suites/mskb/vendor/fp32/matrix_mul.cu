// MSKB matrix_mul, FP32 vendor reference: cuBLAS SGEMM (FP32, no TF32). Row-major C = A·B is column-major
// Cᵀ = Bᵀ·Aᵀ, so cuBLAS gets B first.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_mul_vendor(const float* A, const float* B, float* C, int M, int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUBLAS(cublasSgemm(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
  cudaDeviceSynchronize();
}
