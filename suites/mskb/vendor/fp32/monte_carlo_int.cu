// MSKB monte_carlo_int, FP32 vendor reference: CUB DeviceReduce::TransformReduce sums y·(b − a)/N straight into
// *result (the scale folded into the transform, so no glue); temporary storage in the shared vendor workspace.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>

#include "vendor_util.h"

namespace {

struct Scaled {
  float scale;
  __device__ float operator()(float y) const { return y * scale; }
};

}  // namespace

extern "C" void monte_carlo_int_vendor(const float* y_samples, float* result, float a, float b, int N) {
  Scaled op{float((double(b) - double(a)) / N)};
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, y_samples, result, N, cuda::std::plus<float>{}, op,
                                                 0.0f));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, y_samples, result, N,
                                                 cuda::std::plus<float>{}, op, 0.0f));
  cudaDeviceSynchronize();
}
