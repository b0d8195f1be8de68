// MSKB vector_add, FP32 vendor reference: cuBLAS geam (C = 1·A + 1·B as an N×1 matrix).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void vector_add_vendor(const float* A, const float* B, float* C, int N) {
  const float one = 1.0f;
  VENDOR_CUBLAS(cublasSgeam(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, N, 1, &one, A, N, &one, B, N, C, N));
  cudaDeviceSynchronize();
}
