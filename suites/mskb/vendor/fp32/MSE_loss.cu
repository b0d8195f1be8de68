// MSKB MSE_loss, FP32 vendor reference: CUB DeviceReduce::TransformReduce sums (X[i]-Y[i])² over a counting
// iterator of indices straight into *loss (temp storage in the shared vendor workspace). Glue: a one-thread kernel
// divides the sum by N.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include "vendor_util.h"

namespace {

struct SquaredDifference {
  const float* x;
  const float* y;
  __device__ float operator()(int i) const {
    float d = x[i] - y[i];
    return d * d;
  }
};

}  // namespace

__global__ void MSE_loss_vendor_divide_kernel(float* loss, float n) { *loss /= n; }

extern "C" void MSE_loss_vendor(float* loss, const float* X, const float* Y, int N) {
  thrust::counting_iterator<int> index(0);
  SquaredDifference op{X, Y};
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, index, loss, N, cuda::std::plus<float>{}, op, 0.0f));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, index, loss, N,
                                                 cuda::std::plus<float>{}, op, 0.0f));
  MSE_loss_vendor_divide_kernel<<<1, 1>>>(loss, float(N));
  cudaDeviceSynchronize();
}
