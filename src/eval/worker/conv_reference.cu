// eval/worker/conv_reference.cu — the direct convolution kernel behind conv_reference.h. The filter is first
// copied with the output channel innermost, so a warp's threads (consecutive output channels of one pixel)
// read one input row together and consecutive filter addresses.
#include "eval/worker/conv_reference.h"

#include <algorithm>

#include "eval/worker/conv_direct.h"
#include "eval/worker/device_buffer.h"

namespace ucut::worker {
namespace {

constexpr int kThreads = 256;

unsigned grid_for(int64_t n) {
  return static_cast<unsigned>(std::min<int64_t>((n + kThreads - 1) / kThreads, 132 * 64));
}

/// out[tap][c][k] = w[k][tap][c].
__global__ void filter_k_innermost(const float* w, float* out, int64_t k, int64_t taps_c) {
  int64_t total = k * taps_c;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x)
    out[(i % taps_c) * k + i / taps_c] = w[i];
}

__global__ void direct_conv(const float* x, const float* w, FilterStrides ws, ConvDims g, float* acc,
                            float* abs_acc) {
  int64_t total = g.n * g.out[0] * g.out[1] * g.out[2] * g.k;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    ConvSums sums = conv_output_element(x, w, ws, g, i);
    acc[i] = static_cast<float>(sums.acc);
    abs_acc[i] = static_cast<float>(sums.abs_acc);
  }
}

}  // namespace

void conv_reference_gpu(const float* x, const float* w, const ConvShape& shape, float* acc, float* abs_acc,
                        cudaStream_t s) {
  ConvDims g = conv_dims(shape);
  int64_t taps_c = shape.filter_taps() * shape.c, outputs = shape.out_pixels() * shape.k;
  if (outputs <= 0) return;
  DeviceBuffer w_k_innermost(static_cast<size_t>(shape.w_elements()) * sizeof(float));
  filter_k_innermost<<<grid_for(shape.w_elements()), kThreads, 0, s>>>(w, w_k_innermost.as<float>(), shape.k, taps_c);
  CUDA_OK(cudaGetLastError());
  FilterStrides ws{1, shape.c * shape.k, shape.k};
  direct_conv<<<grid_for(outputs), kThreads, 0, s>>>(x, w_k_innermost.as<const float>(), ws, g, acc, abs_acc);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaStreamSynchronize(s));  // the filter copy is freed on return
}

}  // namespace ucut::worker
