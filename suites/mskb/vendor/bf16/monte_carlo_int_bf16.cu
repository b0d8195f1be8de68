// MSKB monte_carlo_int, BF16 vendor reference: CUB DeviceReduce::TransformReduce sums y·(b − a)/N, widened to FP32,
// in FP32 and stores the total rounded to BF16 into *result (the scale folded into the transform, so no glue);
// temporary storage in the shared vendor workspace.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

namespace {

struct Scaled {
  float scale;
  __device__ float operator()(__nv_bfloat16 y) const { return __bfloat162float(y) * scale; }
};

}  // namespace

extern "C" void monte_carlo_int_bf16_vendor(const __nv_bfloat16* y_samples, __nv_bfloat16* result, float a, float b,
                                            int N) {
  Scaled op{float((double(b) - double(a)) / N)};
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, y_samples, result, N, cuda::std::plus<float>{}, op,
                                                 0.0f));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, y_samples, result, N,
                                                 cuda::std::plus<float>{}, op, 0.0f));
  cudaDeviceSynchronize();
}
