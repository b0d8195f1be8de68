// MSKB dot_product, FP32 vendor reference: cublasDotEx (FP32 in, out and compute) writing *loss on the device;
// the shared handle's pointer mode is set to device for the call and restored to host after it.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void dot_product_vendor(float* loss, const float* X, const float* Y, const int N) {
  cublasHandle_t h = vendor_cublas();
  VENDOR_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  VENDOR_CUBLAS(cublasDotEx(h, N, X, CUDA_R_32F, 1, Y, CUDA_R_32F, 1, loss, CUDA_R_32F, CUDA_R_32F));
  VENDOR_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  cudaDeviceSynchronize();
}
