// MSKB dot_product, BF16 vendor reference: CUB DeviceReduce::TransformReduce summing X[i]·Y[i] in FP32 straight
// into the FP32 *loss (cublasDotEx would round its BF16 result to BF16, coarser than the 1e-3 relative
// tolerance). Its temporary storage comes from the shared workspace.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include "vendor_util.h"

namespace {

struct BfProduct {
  const __nv_bfloat16* x;
  const __nv_bfloat16* y;
  __device__ float operator()(int i) const { return __bfloat162float(x[i]) * __bfloat162float(y[i]); }
};

}  // namespace

extern "C" void dot_product_bf16_vendor(float* loss, const __nv_bfloat16* X, const __nv_bfloat16* Y, const int N) {
  thrust::counting_iterator<int> index(0);
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, index, loss, N, cuda::std::plus<float>{},
                                                 BfProduct{X, Y}, 0.0f, 0));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, index, loss, N,
                                                 cuda::std::plus<float>{}, BfProduct{X, Y}, 0.0f, 0));
  cudaDeviceSynchronize();
}
