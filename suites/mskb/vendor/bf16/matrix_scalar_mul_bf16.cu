// MSKB matrix_scalar_mul, BF16 vendor reference: cuBLAS has no BF16 geam, so a device copy B = A and then
// cublasScalEx (FP32 scalar and compute, BF16 data) scales B in place.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_scalar_mul_bf16_vendor(const __nv_bfloat16* A, __nv_bfloat16* B, __nv_bfloat16 scalar, int M,
                                              int N) {
  const float s = __bfloat162float(scalar);
  size_t n = size_t(M) * N;
  VENDOR_CUDA(cudaMemcpyAsync(B, A, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToDevice, 0));
  VENDOR_CUBLAS(cublasScalEx(vendor_cublas(), int(n), &s, CUDA_R_32F, B, CUDA_R_16BF, 1, CUDA_R_32F));
  cudaDeviceSynchronize();
}
