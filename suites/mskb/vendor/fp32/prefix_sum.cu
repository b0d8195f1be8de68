// MSKB prefix_sum, FP32 vendor reference: CUB DeviceScan::InclusiveSum, temporary storage in the shared vendor
// workspace.
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void prefix_sum_vendor(float* output, const float* input, const int N) {
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceScan::InclusiveSum(nullptr, bytes, input, output, N));
  VENDOR_CUDA(cub::DeviceScan::InclusiveSum(vendor_workspace(bytes), bytes, input, output, N));
  cudaDeviceSynchronize();
}
