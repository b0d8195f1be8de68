// eval/worker/conv_direct.h — the arithmetic of the convolution reference: one output element of a direct
// convolution (PyTorch's cross-correlation: zero padding, stride, dilation, 1 to 3 spatial dimensions) over packed
// channels-last tensors, summed in double, for each kind (ir/types.h ConvKind): the forward convolution, its data
// gradient (the transposed convolution) and its filter gradient, each with channel groups (W[K][taps][C/G]; output
// channel k reads the C/G input channels of group k / (K/G); depthwise is G = C = K). Host and device:
// conv_reference.cu runs it per output element on the GPU, and the unit tests run it on the CPU against
// hand-computed values and an independent loop.
#pragma once

#include <math.h>

#include <cstdint>

#include "eval/protocol.h"
#include "support/host_device.h"

namespace ucut::worker {

/// ConvShape in plain arrays (device code cannot call std::array), spatial arrays in [d, h, w] order. The geometry
/// is always the forward convolution's: X[n][in][c] * W[k][filter][c / groups] -> Y[n][out][k].
struct ConvDims {
  ConvKind kind = ConvKind::fprop;
  int64_t n = 1, c = 1, k = 1, groups = 1;
  int64_t in[3] = {1, 1, 1}, filter[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0}, stride[3] = {1, 1, 1}, dilation[3] = {1, 1, 1};
};

inline ConvDims conv_dims(const ConvShape& s) {
  ConvDims g;
  g.kind = s.kind;
  g.n = s.n;
  g.c = s.c;
  g.k = s.k;
  g.groups = s.groups;
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

UCUT_HD inline int64_t filter_taps(const ConvDims& g) { return g.filter[0] * g.filter[1] * g.filter[2]; }
UCUT_HD inline int64_t group_c(const ConvDims& g) { return g.c / g.groups; }  // W's channels
UCUT_HD inline int64_t group_k(const ConvDims& g) { return g.k / g.groups; }

/// Rows of Y: its pixels without the innermost spatial dimension (n, z, p), each holding out[2] pixels.
UCUT_HD inline int64_t output_rows(const ConvDims& g) { return g.n * g.out[0] * g.out[1]; }

/// The input index that output index `o` reads through filter tap `tap` along `dim`, or -1 in the padding.
UCUT_HD inline int64_t input_index(const ConvDims& g, int dim, int64_t o, int64_t tap) {
  int64_t i = o * g.stride[dim] - g.pad[dim] + tap * g.dilation[dim];
  return i >= 0 && i < g.in[dim] ? i : -1;
}

/// The output index whose tap `tap` reads input index `i` along `dim` (input_index's inverse), or -1 when no output
/// does: i + pad - tap dilation must be a multiple of the stride, and the output inside Y.
UCUT_HD inline int64_t output_index(const ConvDims& g, int dim, int64_t i, int64_t tap) {
  int64_t shifted = i + g.pad[dim] - tap * g.dilation[dim];
  if (shifted < 0 || shifted % g.stride[dim] != 0) return -1;
  int64_t o = shifted / g.stride[dim];
  return o < g.out[dim] ? o : -1;
}

/// Where filter element W[k][tap][c] is (tap = (t R + r) S + s, c within the group): k * k_stride + tap * tap_stride
/// + c * c_stride. Packed W[k][t][r][s][c] is {taps CG, CG, 1} (CG = C / groups); the GPU's forward reference reads
/// a copy with k innermost, {1, CG K, K}, so that neighbouring threads (neighbouring output channels) read
/// neighbouring addresses.
struct FilterStrides {
  int64_t k_stride, tap_stride, c_stride;
};

UCUT_HD inline FilterStrides packed_filter(const ConvDims& g) {
  return {filter_taps(g) * group_c(g), group_c(g), 1};
}

struct ConvSums {
  double acc = 0;      // Σ a b over the products that do not read padding
  double abs_acc = 0;  // Σ |a| |b| over the same products: the scale of accumulation-order differences

  UCUT_HD void add(float a, float b) {
    double prod = static_cast<double>(a) * static_cast<double>(b);  // exact
    acc += prod;
    abs_acc += fabs(prod);
  }
};

/// fprop: element `i` of Y[n][z][p][q][k] (i = out pixel * K + k) from X[n][d][h][w][c] over the channels c of k's
/// group, and the filter.
UCUT_HD inline ConvSums conv_fprop_element(const float* x, const float* w, FilterStrides ws, const ConvDims& g,
                                           int64_t i) {
  int64_t k = i % g.k, pixel = i / g.k;
  int64_t cg = group_c(g), c0 = k / group_k(g) * cg;
  int64_t q = pixel % g.out[2], p = pixel / g.out[2] % g.out[1], z = pixel / (g.out[2] * g.out[1]) % g.out[0];
  int64_t n = pixel / (g.out[2] * g.out[1] * g.out[0]);
  const float* wk = w + k * ws.k_stride;
  ConvSums sums;
  for (int64_t t = 0; t < g.filter[0]; ++t) {
    int64_t id = input_index(g, 0, z, t);
    if (id < 0) continue;
    for (int64_t r = 0; r < g.filter[1]; ++r) {
      int64_t ih = input_index(g, 1, p, r);
      if (ih < 0) continue;
      for (int64_t s = 0; s < g.filter[2]; ++s) {
        int64_t iw = input_index(g, 2, q, s);
        if (iw < 0) continue;
        const float* xs = x + (((n * g.in[0] + id) * g.in[1] + ih) * g.in[2] + iw) * g.c + c0;
        const float* wt = wk + ((t * g.filter[1] + r) * g.filter[2] + s) * ws.tap_stride;
        for (int64_t c = 0; c < cg; ++c) sums.add(xs[c], wt[c * ws.c_stride]);
      }
    }
  }
  return sums;
}

/// dgrad: element `i` of DX[n][d][h][w][c] (i = in pixel * C + c) = Σ DY[n][z][p][q][k] W[k][t][r][s][c] over the
/// output pixels and taps that read input pixel (d, h, w) in the forward convolution and the output channels k of
/// c's group; W packed.
UCUT_HD inline ConvSums conv_dgrad_element(const float* dy, const float* w, const ConvDims& g, int64_t i) {
  int64_t c = i % g.c, pixel = i / g.c;
  int64_t iw = pixel % g.in[2], ih = pixel / g.in[2] % g.in[1], id = pixel / (g.in[2] * g.in[1]) % g.in[0];
  int64_t n = pixel / (g.in[2] * g.in[1] * g.in[0]);
  int64_t cg = group_c(g), kg = group_k(g), k0 = c / cg * kg;
  int64_t k_stride = filter_taps(g) * cg;
  ConvSums sums;
  for (int64_t t = 0; t < g.filter[0]; ++t) {
    int64_t z = output_index(g, 0, id, t);
    if (z < 0) continue;
    for (int64_t r = 0; r < g.filter[1]; ++r) {
      int64_t p = output_index(g, 1, ih, r);
      if (p < 0) continue;
      for (int64_t s = 0; s < g.filter[2]; ++s) {
        int64_t q = output_index(g, 2, iw, s);
        if (q < 0) continue;
        const float* dys = dy + (((n * g.out[0] + z) * g.out[1] + p) * g.out[2] + q) * g.k + k0;
        const float* wt = w + k0 * k_stride + ((t * g.filter[1] + r) * g.filter[2] + s) * cg + c % cg;
        for (int64_t k = 0; k < kg; ++k) sums.add(dys[k], wt[k * k_stride]);
      }
    }
  }
  return sums;
}

/// wgrad: element `i` of DW[k][t][r][s][c] (i = (k taps + tap) CG + c, c within k's group) = Σ DY[n][z][p][q][k]
/// X[n][d][h][w][group c] over the output pixels whose tap (t, r, s) reads input pixel (d, h, w), summed over output
/// rows [row_begin, row_end) of output_rows(g) (the GPU splits the long sum into row ranges; the whole element is
/// rows 0 to output_rows(g)).
UCUT_HD inline ConvSums conv_wgrad_element(const float* dy, const float* x, const ConvDims& g, int64_t i,
                                           int64_t row_begin, int64_t row_end) {
  int64_t cg = group_c(g);
  int64_t tap = i / cg % filter_taps(g), k = i / (cg * filter_taps(g));
  int64_t c = k / group_k(g) * cg + i % cg;  // X's channel
  int64_t s = tap % g.filter[2], r = tap / g.filter[2] % g.filter[1], t = tap / (g.filter[2] * g.filter[1]);
  ConvSums sums;
  for (int64_t row = row_begin; row < row_end; ++row) {
    int64_t p = row % g.out[1], z = row / g.out[1] % g.out[0], n = row / (g.out[1] * g.out[0]);
    int64_t id = input_index(g, 0, z, t), ih = input_index(g, 1, p, r);
    if (id < 0 || ih < 0) continue;
    const float* dy_row = dy + row * g.out[2] * g.k + k;
    const float* x_row = x + ((n * g.in[0] + id) * g.in[1] + ih) * g.in[2] * g.c + c;
    for (int64_t q = 0; q < g.out[2]; ++q) {
      int64_t iw = input_index(g, 2, q, s);
      if (iw >= 0) sums.add(dy_row[q * g.k], x_row[iw * g.c]);
    }
  }
  return sums;
}

/// Element `i` of the output of kind g.kind, from the kind's operands a and b packed channels-last.
UCUT_HD inline ConvSums conv_element(const float* a, const float* b, const ConvDims& g, int64_t i) {
  switch (g.kind) {
    case ConvKind::fprop: return conv_fprop_element(a, b, packed_filter(g), g, i);
    case ConvKind::dgrad: return conv_dgrad_element(a, b, g, i);
    case ConvKind::wgrad: return conv_wgrad_element(a, b, g, i, 0, output_rows(g));
  }
  return {};
}

}  // namespace ucut::worker
