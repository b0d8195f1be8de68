// MSKB matrix_power, BF16 vendor reference: P-1 cublasGemmEx calls (BF16 A/B/C, FP32 compute; every product
// rounded to BF16 like the naive), product i = product i-1 · A, ping-ponging between B and one scratch matrix from
// the shared workspace so that the last product lands in B. Row-major X·A is column-major Aᵀ·Xᵀ, so cuBLAS gets A
// first.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_power_bf16_vendor(const __nv_bfloat16* A, __nv_bfloat16* B, int N, int P) {
  size_t bytes = size_t(N) * N * sizeof(__nv_bfloat16);
  if (P < 2) {
    VENDOR_CUDA(cudaMemcpyAsync(B, A, bytes, cudaMemcpyDeviceToDevice, 0));
    cudaDeviceSynchronize();
    return;
  }
  auto* scratch = static_cast<__nv_bfloat16*>(vendor_workspace(bytes));
  const float one = 1.0f, zero = 0.0f;
  const __nv_bfloat16* prev = A;
  for (int i = 1; i < P; ++i) {
    __nv_bfloat16* out = (P - 1 - i) % 2 == 0 ? B : scratch;
    VENDOR_CUBLAS(cublasGemmEx(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, A, CUDA_R_16BF, N, prev,
                               CUDA_R_16BF, N, &zero, out, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    prev = out;
  }
  cudaDeviceSynchronize();
}
