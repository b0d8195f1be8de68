// MSKB matrix_transpose, FP32 vendor reference: cuBLAS geam with op(A) = Aᵀ. Row-major A (M×N) is column-major
// N×M (ld N); row-major B (N×M) is column-major M×N (ld M). The unused second operand is B itself (beta = 0).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_transpose_vendor(const float* A, float* B, int M, int N) {
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUBLAS(cublasSgeam(vendor_cublas(), CUBLAS_OP_T, CUBLAS_OP_N, M, N, &one, A, N, &zero, B, M, B, M));
  cudaDeviceSynchronize();
}
