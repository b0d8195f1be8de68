// MSKB matrix_vector_mul, BF16 vendor reference: cuBLAS's BF16 GEMV (cublasTSTgemvStridedBatched: BF16 A/x/y,
// FP32 compute) with one batch. Row-major A (M×N) is column-major Aᵀ (N×M, ld N), so y = A·x is the transposed
// GEMV.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_vector_mul_bf16_vendor(const __nv_bfloat16* A, const __nv_bfloat16* x, __nv_bfloat16* y,
                                              int M, int N) {
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUBLAS(cublasTSTgemvStridedBatched(vendor_cublas(), CUBLAS_OP_T, N, M, &one, A, N, (long long)M * N, x, 1,
                                            N, &zero, y, 1, M, 1));
  cudaDeviceSynchronize();
}
