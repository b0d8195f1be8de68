// eval/worker/conv_direct.h — the arithmetic of the convolution reference: one output element of a direct
// forward convolution (PyTorch's cross-correlation: zero padding, stride, dilation, 1 to 3 spatial dimensions)
// over packed channels-last tensors, summed in double. Host and device: conv_reference.cu runs it per output
// element on the GPU, and the unit tests run it on the CPU against hand-computed values.
#pragma once

#include <math.h>

#include <cstdint>

#include "eval/protocol.h"
#include "support/host_device.h"


namespace ucut::worker {

/// ConvShape in plain arrays (device code cannot call std::array), spatial arrays in [d, h, w] order.
struct ConvDims {
  int64_t n = 1, c = 1, k = 1;
  int64_t in[3] = {1, 1, 1}, filter[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0}, stride[3] = {1, 1, 1}, dilation[3] = {1, 1, 1};
};

inline ConvDims conv_dims(const ConvShape& s) {
  ConvDims g;
  g.n = s.n;
  g.c = s.c;
  g.k = s.k;
  for (int i = 0; i < 3; ++i) {
    g.in[i] = s.in[i];
    g.filter[i] = s.filter[i];
    g.out[i] = s.out(i);
    g.pad[i] = s.pad[i];
    g.stride[i] = s.stride[i];
    g.dilation[i] = s.dilation[i];
  }
  return g;
}

/// Where filter element W[k][tap][c] is (tap = (t R + r) S + s): k * k_stride + tap * tap_stride + c * c_stride.
/// Packed W[k][t][r][s][c] is {taps C, C, 1}; the GPU reference reads a copy with k innermost, {1, C K, K}, so
/// that neighbouring threads (neighbouring output channels) read neighbouring addresses.
struct FilterStrides {
  int64_t k_stride, tap_stride, c_stride;
};

inline FilterStrides packed_filter(const ConvDims& g) {
  return {g.filter[0] * g.filter[1] * g.filter[2] * g.c, g.c, 1};
}

struct ConvSums {
  double acc = 0;      // Σ x w over the taps inside the (unpadded) input
  double abs_acc = 0;  // Σ |x| |w| over the same taps: the scale of accumulation-order differences
};

/// Output element `i` of Y[n][z][p][q][k] (row-major: i = pixel * K + k) from X[n][d][h][w][c] and the filter.
UCUT_HD inline ConvSums conv_output_element(const float* x, const float* w, FilterStrides ws, const ConvDims& g,
                                            int64_t i) {
  int64_t k = i % g.k, pixel = i / g.k;
  int64_t q = pixel % g.out[2], p = pixel / g.out[2] % g.out[1], z = pixel / (g.out[2] * g.out[1]) % g.out[0];
  int64_t n = pixel / (g.out[2] * g.out[1] * g.out[0]);
  const float* wk = w + k * ws.k_stride;
  ConvSums sums;
  for (int64_t t = 0; t < g.filter[0]; ++t) {
    int64_t id = z * g.stride[0] - g.pad[0] + t * g.dilation[0];
    if (id < 0 || id >= g.in[0]) continue;
    for (int64_t r = 0; r < g.filter[1]; ++r) {
      int64_t ih = p * g.stride[1] - g.pad[1] + r * g.dilation[1];
      if (ih < 0 || ih >= g.in[1]) continue;
      for (int64_t s = 0; s < g.filter[2]; ++s) {
        int64_t iw = q * g.stride[2] - g.pad[2] + s * g.dilation[2];
        if (iw < 0 || iw >= g.in[2]) continue;
        const float* xs = x + (((n * g.in[0] + id) * g.in[1] + ih) * g.in[2] + iw) * g.c;
        const float* wt = wk + ((t * g.filter[1] + r) * g.filter[2] + s) * ws.tap_stride;
        for (int64_t c = 0; c < g.c; ++c) {
          double prod = static_cast<double>(xs[c]) * static_cast<double>(wt[c * ws.c_stride]);  // exact
          sums.acc += prod;
          sums.abs_acc += fabs(prod);
        }
      }
    }
  }
  return sums;
}

}  // namespace ucut::worker
