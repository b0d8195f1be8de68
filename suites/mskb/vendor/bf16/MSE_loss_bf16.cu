// MSKB MSE_loss, BF16 vendor reference (FP32 loss): CUB DeviceReduce::TransformReduce sums (X[i]-Y[i])², read from
// BF16 and computed in FP32, over a counting iterator of indices straight into *loss (temp storage in the shared
// vendor workspace). Glue: a one-thread kernel divides the sum by N.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include "vendor_util.h"

namespace {

struct SquaredDifference {
  const __nv_bfloat16* x;
  const __nv_bfloat16* y;
  __device__ float operator()(int i) const {
    float d = __bfloat162float(x[i]) - __bfloat162float(y[i]);
    return d * d;
  }
};

}  // namespace

__global__ void MSE_loss_bf16_vendor_divide_kernel(float* loss, float n) { *loss /= n; }

extern "C" void MSE_loss_bf16_vendor(float* loss, const __nv_bfloat16* X, const __nv_bfloat16* Y, const int N) {
  thrust::counting_iterator<int> index(0);
  SquaredDifference op{X, Y};
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, index, loss, N, cuda::std::plus<float>{}, op, 0.0f));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, index, loss, N,
                                                 cuda::std::plus<float>{}, op, 0.0f));
  MSE_loss_bf16_vendor_divide_kernel<<<1, 1>>>(loss, float(N));
  cudaDeviceSynchronize();
}
