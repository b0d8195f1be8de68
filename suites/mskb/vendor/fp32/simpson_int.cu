// MSKB simpson_int, FP32 vendor reference: CUB DeviceReduce::TransformReduce over the indices 0..2S of the points
// MSKB's S = (N − 1)/2 segments use, summing Simpson's weight (1, 4, 2, …, 4, 1) · h/3 · y straight into *result,
// h = (b − a)/(N − 1); no glue. Temporary storage in the shared vendor workspace.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include "vendor_util.h"

namespace {

struct SimpsonTerm {
  const float* y;
  int last;  // 2S, the last point used
  float h_third;
  __device__ float operator()(int i) const {
    float weight = (i == 0 || i == last) ? 1.0f : (i % 2 ? 4.0f : 2.0f);
    return weight * h_third * y[i];
  }
};

}  // namespace

extern "C" void simpson_int_vendor(const float* y_samples, float* result, float a, float b, int N) {
  int last = (N - 1) / 2 * 2;
  int points = last > 0 ? last + 1 : 0;
  SimpsonTerm op{y_samples, last, float((double(b) - double(a)) / (N - 1) / 3)};
  thrust::counting_iterator<int> index(0);
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(nullptr, bytes, index, result, points, cuda::std::plus<float>{}, op,
                                                 0.0f));
  VENDOR_CUDA(cub::DeviceReduce::TransformReduce(vendor_workspace(bytes), bytes, index, result, points,
                                                 cuda::std::plus<float>{}, op, 0.0f));
  cudaDeviceSynchronize();
}
