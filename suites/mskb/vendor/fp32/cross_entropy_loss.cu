// MSKB cross_entropy_loss, FP32 vendor reference: CUB DeviceReduce::TransformReduce sums -Y[i]·ln(max(X[i], 1e-8))
// (0 where Y[i] is 0) over a counting iterator of indices straight into *loss (temp storage in the shared vendor
// workspace). No glue.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include "vendor_util.h"

namespace {

struct CrossEntropyTerm {
  const float* x;
  const float* y;
  __device__ float operator()(int i) const { return y[i] != 0.0f ? -y[i] * logf(fmaxf(x[i], 1e-8f)) : 0.0f; }
};

}  // namespace

extern "C" void cross_entropy_loss_vendor(float* loss, const float* X, const float* Y, const int C) {
  thrust::counting_iterator<int> index(0);
  CrossEntropyTerm op{X, Y};
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, index, loss, C, cuda::std::plus<float>{}, op, 0.0f));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, index, loss, C,
                                                 cuda::std::plus<float>{}, op, 0.0f));
  cudaDeviceSynchronize();
}
