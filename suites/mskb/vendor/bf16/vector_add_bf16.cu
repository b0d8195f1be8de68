// MSKB vector_add, BF16 vendor reference: cuBLAS has no BF16 geam, so cublasAxpyEx (FP32 compute) on a copy:
// C = A, then C += 1·B.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void vector_add_bf16_vendor(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int N) {
  const float one = 1.0f;
  cudaMemcpyAsync(C, A, size_t(N) * sizeof(__nv_bfloat16), cudaMemcpyDeviceToDevice, 0);
  VENDOR_CUBLAS(cublasAxpyEx(vendor_cublas(), N, &one, CUDA_R_32F, B, CUDA_R_16BF, 1, C, CUDA_R_16BF, 1, CUDA_R_32F));
  cudaDeviceSynchronize();
}
