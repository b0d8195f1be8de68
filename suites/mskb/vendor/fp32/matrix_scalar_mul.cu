// MSKB matrix_scalar_mul, FP32 vendor reference: cuBLAS geam, B = scalar·A + 0·B over the M×N matrix seen as
// column-major N×M.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_scalar_mul_vendor(const float* A, float* B, float scalar, int M, int N) {
  const float zero = 0.0f;
  VENDOR_CUBLAS(cublasSgeam(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, &scalar, A, N, &zero, B, N, B, N));
  cudaDeviceSynchronize();
}
