// MSKB matrix_mul, BF16 vendor reference: cublasGemmEx with BF16 A/B/C and FP32 compute. Row-major C = A·B is
// column-major Cᵀ = Bᵀ·Aᵀ, so cuBLAS gets B first.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_mul_bf16_vendor(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M,
                                       int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUBLAS(cublasGemmEx(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16BF, N, A,
                             CUDA_R_16BF, K, &zero, C, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  cudaDeviceSynchronize();
}
