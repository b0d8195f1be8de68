// MSKB matrix_power, FP32 vendor reference: P-1 cuBLAS SGEMMs (FP32, no TF32), product i = product i-1 · A,
// ping-ponging between B and one scratch matrix from the shared workspace so that the last product lands in B.
// Row-major X·A is column-major Aᵀ·Xᵀ, so cuBLAS gets A first.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_power_vendor(const float* A, float* B, int N, int P) {
  size_t bytes = size_t(N) * N * sizeof(float);
  if (P < 2) {
    VENDOR_CUDA(cudaMemcpyAsync(B, A, bytes, cudaMemcpyDeviceToDevice, 0));
    cudaDeviceSynchronize();
    return;
  }
  float* scratch = static_cast<float*>(vendor_workspace(bytes));
  const float one = 1.0f, zero = 0.0f;
  const float* prev = A;
  for (int i = 1; i < P; ++i) {
    float* out = (P - 1 - i) % 2 == 0 ? B : scratch;
    VENDOR_CUBLAS(cublasSgemm(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, A, N, prev, N, &zero, out, N));
    prev = out;
  }
  cudaDeviceSynchronize();
}
