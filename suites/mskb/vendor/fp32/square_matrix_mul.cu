// MSKB square_matrix_mul, FP32 vendor reference: cuBLAS SGEMM (FP32, no TF32). Row-major C = A·B is column-major
// Cᵀ = Bᵀ·Aᵀ, so cuBLAS gets B first.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void square_matrix_mul_vendor(float* A, float* B, float* C, int M) {
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUBLAS(cublasSgemm(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, M, M, M, &one, B, M, A, M, &zero, C, M));
  cudaDeviceSynchronize();
}
