// MSKB matrix_copy, BF16 vendor reference: the CUDA runtime's cudaMemcpy2DAsync (device to device, M rows of N).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void matrix_copy_bf16_vendor(__nv_bfloat16* A, __nv_bfloat16* B, int M, int N) {
  size_t row = size_t(N) * sizeof(__nv_bfloat16);
  VENDOR_CUDA(cudaMemcpy2DAsync(B, row, A, row, row, M, cudaMemcpyDeviceToDevice, 0));
  cudaDeviceSynchronize();
}
