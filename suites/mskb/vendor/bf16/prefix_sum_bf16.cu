// MSKB prefix_sum, BF16 vendor reference: CUB DeviceScan::InclusiveSum over the input read through a widening
// iterator, so the running sum is FP32 and only the stores round to BF16; temporary storage in the shared vendor
// workspace.
#include <cub/device/device_scan.cuh>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/transform_iterator.h>

#include "vendor_util.h"

namespace {

struct Widen {
  __device__ float operator()(__nv_bfloat16 v) const { return __bfloat162float(v); }
};

}  // namespace

extern "C" void prefix_sum_bf16_vendor(__nv_bfloat16* output, const __nv_bfloat16* input, const int N) {
  auto in = thrust::make_transform_iterator(input, Widen{});
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, output, N));
  VENDOR_CUDA(cub::DeviceScan::InclusiveSum(vendor_workspace(bytes), bytes, in, output, N));
  cudaDeviceSynchronize();
}
