// eval/worker/conv_reference.cu — the direct convolution kernels behind conv_reference.h, one thread per output
// element, each arranged so that a warp's threads (consecutive elements) read neighbouring addresses of one operand
// and one shared address of the other:
//   fprop  threads run over output channels k of one pixel; the filter is first copied with k innermost.
//   dgrad  threads run over input channels c of one pixel; the packed filter already has c innermost.
//   wgrad  threads run over input channels c of one filter tap; each element sums over every output pixel, so
//          that long sum is split into ranges of output rows summed by separate threads, then added in order.
#include "eval/worker/conv_reference.h"

#include <algorithm>

#include "eval/worker/conv_direct.h"
#include "eval/worker/device_buffer.h"

namespace ucut::worker {
namespace {

constexpr int kThreads = 256;
/// wgrad: about this many (element, row range) threads fill a GPU; a range holds at least kMinRangePixels output
/// pixels, so that writing and adding its partial sums costs little beside computing them.
constexpr int64_t kWgradThreads = int64_t(1) << 21;
constexpr int64_t kMinRangePixels = 1024;

unsigned grid_for(int64_t n) {
  return static_cast<unsigned>(std::min<int64_t>((n + kThreads - 1) / kThreads, 132 * 64));
}

#define UCUT_GRID_STRIDE(i, total) \
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < (total); i += int64_t(gridDim.x) * blockDim.x)

/// out[tap][c][k] = w[k][tap][c].
__global__ void filter_k_innermost(const float* w, float* out, int64_t k, int64_t taps_c) {
  UCUT_GRID_STRIDE(i, k * taps_c) out[(i % taps_c) * k + i / taps_c] = w[i];
}

struct FpropElement {
  const float *x, *w;
  FilterStrides ws;
  ConvDims g;
  __device__ ConvSums operator()(int64_t i) const { return conv_fprop_element(x, w, ws, g, i); }
};

struct DgradElement {
  const float *dy, *w;
  ConvDims g;
  __device__ ConvSums operator()(int64_t i) const { return conv_dgrad_element(dy, w, g, i); }
};

template <class Element>
__global__ void each_output(Element element, int64_t total, float* acc, float* abs_acc) {
  UCUT_GRID_STRIDE(i, total) {
    ConvSums sums = element(i);
    acc[i] = static_cast<float>(sums.acc);
    abs_acc[i] = static_cast<float>(sums.abs_acc);
  }
}

/// Thread j sums element `first + j % count` over the output rows of range j / count; partial sums [range][count].
__global__ void wgrad_partials(const float* dy, const float* x, ConvDims g, int64_t first, int64_t count,
                               int64_t range_rows, int64_t ranges, double* part_acc, double* part_abs) {
  int64_t rows = output_rows(g);
  UCUT_GRID_STRIDE(j, count * ranges) {
    int64_t range = j / count, row_begin = range * range_rows;
    int64_t row_end = row_begin + range_rows < rows ? row_begin + range_rows : rows;
    ConvSums sums = conv_wgrad_element(dy, x, g, first + j % count, row_begin, row_end);
    part_acc[j] = sums.acc;
    part_abs[j] = sums.abs_acc;
  }
}

/// acc[i] and abs_acc[i] ← the partial sums of element i added in range order (the same order every run).
__global__ void add_partials(const double* part_acc, const double* part_abs, int64_t count, int64_t ranges,
                             float* acc, float* abs_acc) {
  UCUT_GRID_STRIDE(i, count) {
    double a = 0, b = 0;
    for (int64_t r = 0; r < ranges; ++r) {
      a += part_acc[r * count + i];
      b += part_abs[r * count + i];
    }
    acc[i] = static_cast<float>(a);
    abs_acc[i] = static_cast<float>(b);
  }
}

#undef UCUT_GRID_STRIDE

void check_launch() { CUDA_OK(cudaGetLastError()); }

void fprop_reference(const float* x, const float* w, const ConvDims& g, float* acc, float* abs_acc, cudaStream_t s) {
  int64_t taps_c = filter_taps(g) * group_c(g), outputs = output_rows(g) * g.out[2] * g.k;
  DeviceBuffer w_k_innermost(static_cast<size_t>(g.k * taps_c) * sizeof(float));
  filter_k_innermost<<<grid_for(g.k * taps_c), kThreads, 0, s>>>(w, w_k_innermost.as<float>(), g.k, taps_c);
  check_launch();
  FpropElement element{x, w_k_innermost.as<const float>(), {1, group_c(g) * g.k, g.k}, g};
  each_output<<<grid_for(outputs), kThreads, 0, s>>>(element, outputs, acc, abs_acc);
  check_launch();
  CUDA_OK(cudaStreamSynchronize(s));  // the filter copy is freed on return
}

void dgrad_reference(const float* dy, const float* w, const ConvDims& g, float* acc, float* abs_acc, cudaStream_t s) {
  int64_t outputs = g.n * g.in[0] * g.in[1] * g.in[2] * g.c;
  each_output<<<grid_for(outputs), kThreads, 0, s>>>(DgradElement{dy, w, g}, outputs, acc, abs_acc);
  check_launch();
}

/// The output in slices of at most kWgradThreads elements, each element's sum in `ranges` row ranges, so that a
/// small filter with a long sum still occupies the GPU; slice x ranges < 2^22, so the partial sums take <= 64 MiB.
void wgrad_reference(const float* dy, const float* x, const ConvDims& g, float* acc, float* abs_acc, cudaStream_t s) {
  int64_t outputs = g.k * filter_taps(g) * group_c(g), rows = output_rows(g);
  int64_t slice = std::min(outputs, kWgradThreads);
  int64_t most_ranges = std::max<int64_t>(1, std::min(rows, rows * g.out[2] / kMinRangePixels));
  int64_t wanted = std::clamp((kWgradThreads + slice - 1) / slice, int64_t(1), most_ranges);
  int64_t range_rows = std::max<int64_t>(1, (rows + wanted - 1) / wanted);
  int64_t ranges = std::max<int64_t>(1, (rows + range_rows - 1) / range_rows);
  DeviceBuffer part_acc(static_cast<size_t>(slice * ranges) * sizeof(double)),
      part_abs(static_cast<size_t>(slice * ranges) * sizeof(double));
  for (int64_t first = 0; first < outputs; first += slice) {
    int64_t count = std::min(slice, outputs - first);
    wgrad_partials<<<grid_for(count * ranges), kThreads, 0, s>>>(dy, x, g, first, count, range_rows, ranges,
                                                                 part_acc.as<double>(), part_abs.as<double>());
    check_launch();
    add_partials<<<grid_for(count), kThreads, 0, s>>>(part_acc.as<const double>(), part_abs.as<const double>(), count,
                                                      ranges, acc + first, abs_acc + first);
    check_launch();
  }
  CUDA_OK(cudaStreamSynchronize(s));  // the partial sums are freed on return
}

}  // namespace

void conv_reference_gpu(const float* a, const float* b, const ConvShape& shape, float* acc, float* abs_acc,
                        cudaStream_t s) {
  if (shape.d_elements() <= 0) return;
  ConvDims g = conv_dims(shape);
  switch (shape.kind) {
    case ConvKind::fprop: return fprop_reference(a, b, g, acc, abs_acc, s);
    case ConvKind::dgrad: return dgrad_reference(a, b, g, acc, abs_acc, s);
    case ConvKind::wgrad: return wgrad_reference(a, b, g, acc, abs_acc, s);
  }
}

}  // namespace ucut::worker
