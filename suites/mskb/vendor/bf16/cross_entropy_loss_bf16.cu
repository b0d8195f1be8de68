// MSKB cross_entropy_loss, BF16 vendor reference (FP32 loss): CUB DeviceReduce::TransformReduce sums
// -Y[i]·ln(max(X[i], 1e-8)) (0 where Y[i] is 0), read from BF16 and computed in FP32, over a counting iterator of
// indices straight into *loss (temp storage in the shared vendor workspace). No glue.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include "vendor_util.h"

namespace {

struct CrossEntropyTerm {
  const __nv_bfloat16* x;
  const __nv_bfloat16* y;
  __device__ float operator()(int i) const {
    float yv = __bfloat162float(y[i]);
    return yv != 0.0f ? -yv * logf(fmaxf(__bfloat162float(x[i]), 1e-8f)) : 0.0f;
  }
};

}  // namespace

extern "C" void cross_entropy_loss_bf16_vendor(float* loss, const __nv_bfloat16* X, const __nv_bfloat16* Y,
                                               const int C) {
  thrust::counting_iterator<int> index(0);
  CrossEntropyTerm op{X, Y};
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, index, loss, C, cuda::std::plus<float>{}, op, 0.0f));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, index, loss, C,
                                                 cuda::std::plus<float>{}, op, 0.0f));
  cudaDeviceSynchronize();
}
