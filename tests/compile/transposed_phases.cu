// tests/compile/transposed_phases.cu — how the SM90 kernel runs a transposed convolution
// (abi/transposed_phases.h), checked on the host: for random conv_transpose1d/2d/3d geometries (stride 1-5,
// dilation 1-3, padding up to one past dilation x (filter - 1), output padding, 1-5 channels) every output phase's
// filter built element by element as the staging kernel builds it (ucut_phase_filter_source, at the phase's
// filter_offset), convolved as CUTLASS's stride-1 forward convolution over the phase's cropped input (its first row
// and row count, X's strides) with the phase's padding and dilation, written through the phase's strided view of Y
// (ucut_phase_y_offset, the stride times Y's strides), must give the transposed convolution computed directly; every
// element of Y must be written exactly once, the phases' filters must tile the staged buffer, and every phase's
// padding must be non-negative (CUTLASS refuses negative padding). nvcc compiles the helpers as host-device code, so
// this checks the geometry without a GPU (GPU runs verify the kernels). Exit 0 when every check passes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "abi/kernel_abi.h"
#include "abi/transposed_phases.h"

namespace {

int failures = 0, checked = 0, launches = 0;

void fail(const ucut_conv_args& c, const char* what) {
  if (++failures <= 10)
    std::printf("FAIL %s: n %d x [%d %d %d] k %d -> [%d %d %d] c %d, filter [%d %d %d], stride [%d %d %d], pad [%d %d %d], "
                "dilation [%d %d %d]\n",
                what, c.n, c.z, c.p, c.q, c.k, c.d, c.h, c.w, c.c, c.t, c.r, c.s, c.stride[0], c.stride[1], c.stride[2],
                c.pad[0], c.pad[1], c.pad[2], c.dilation[0], c.dilation[1], c.dilation[2]);
}

/// y [n, d, h, w, c] = conv_transpose(x [n, z, p, q, k], W [k, t, r, s, c]): y[o] += x[i] W[tap], o = i s - pad + tap dil.
std::vector<double> transposed(const ucut_conv_args& c, const std::vector<double>& x, const std::vector<double>& w) {
  std::vector<double> y(size_t(c.n) * c.d * c.h * c.w * c.c, 0.0);
  const int in[3] = {c.z, c.p, c.q}, out[3] = {c.d, c.h, c.w}, filter[3] = {c.t, c.r, c.s};
  for (int n = 0; n < c.n; ++n)
    for (int i0 = 0; i0 < in[0]; ++i0)
      for (int i1 = 0; i1 < in[1]; ++i1)
        for (int i2 = 0; i2 < in[2]; ++i2)
          for (int f0 = 0; f0 < filter[0]; ++f0)
            for (int f1 = 0; f1 < filter[1]; ++f1)
              for (int f2 = 0; f2 < filter[2]; ++f2) {
                const int i[3] = {i0, i1, i2}, f[3] = {f0, f1, f2};
                int o[3];
                bool inside = true;
                for (int a = 0; a < 3; ++a) {
                  o[a] = i[a] * c.stride[a] - c.pad[a] + f[a] * c.dilation[a];
                  inside = inside && o[a] >= 0 && o[a] < out[a];
                }
                if (!inside) continue;
                for (int k = 0; k < c.k; ++k)
                  for (int ch = 0; ch < c.c; ++ch)
                    y[((size_t(n * out[0] + o[0]) * out[1] + o[1]) * out[2] + o[2]) * c.c + ch] +=
                        x[((size_t(n * in[0] + i0) * in[1] + i1) * in[2] + i2) * c.k + k] *
                        w[((size_t(k * filter[0] + f0) * filter[1] + f1) * filter[2] + f2) * c.c + ch];
              }
  return y;
}

/// Phase p as the kernel runs it: CUTLASS's cross-correlation (stride 1, the phase's dilation and padding) over the
/// cropped input that starts at ucut_phase_x_offset with X's strides, its filter read from the staged buffer f at
/// its offset, written through the phase's view of Y. `writes` counts the writes per element of Y.
void run_phase(const ucut_conv_args& c, const ucut_phase& p, const std::vector<double>& x,
               const std::vector<double>& f, std::vector<double>& y, std::vector<int>& writes) {
  const int64_t x_stride[3] = {int64_t(c.p) * c.q * c.k, int64_t(c.q) * c.k, c.k};
  const int64_t y_stride[3] = {int64_t(c.stride[0]) * c.h * c.w * c.c, int64_t(c.stride[1]) * c.w * c.c,
                               int64_t(c.stride[2]) * c.c};
  const int64_t x_image = int64_t(c.z) * c.p * c.q * c.k, y_image = int64_t(c.d) * c.h * c.w * c.c;
  const int64_t x0 = ucut_phase_x_offset(c, p), y0 = ucut_phase_y_offset(c, p);
  const ucut_phase_dim* d = p.dim;
  for (int n = 0; n < c.n; ++n)
    for (int j0 = 0; j0 < d[0].rows; ++j0)
      for (int j1 = 0; j1 < d[1].rows; ++j1)
        for (int j2 = 0; j2 < d[2].rows; ++j2)
          for (int ch = 0; ch < c.c; ++ch) {
            double sum = 0;
            for (int a0 = 0; a0 < d[0].window; ++a0)
              for (int a1 = 0; a1 < d[1].window; ++a1)
                for (int a2 = 0; a2 < d[2].window; ++a2) {
                  // Row of the cropped input: j + a * dilation - pad_lo, inside [0, in_rows).
                  const int i[3] = {j0 + a0 * d[0].dilation - d[0].pad_lo, j1 + a1 * d[1].dilation - d[1].pad_lo,
                                    j2 + a2 * d[2].dilation - d[2].pad_lo};
                  bool inside = true;
                  for (int e = 0; e < 3; ++e) inside = inside && i[e] >= 0 && i[e] < d[e].in_rows;
                  if (!inside) continue;
                  for (int k = 0; k < c.k; ++k)
                    sum += x[size_t(x0 + n * x_image + i[0] * x_stride[0] + i[1] * x_stride[1] + i[2] * x_stride[2] + k)] *
                           f[size_t(p.filter_offset +
                                    (((int64_t(ch) * d[0].window + a0) * d[1].window + a1) * d[2].window + a2) * c.k + k)];
                }
            const int64_t at = y0 + n * y_image + j0 * y_stride[0] + j1 * y_stride[1] + j2 * y_stride[2] + ch;
            if (at < 0 || at >= int64_t(y.size())) return fail(c, "a phase writes outside Y");
            y[size_t(at)] = sum;
            ++writes[size_t(at)];
          }
}

void check(const ucut_conv_args& c, std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> x(size_t(c.n) * c.z * c.p * c.q * c.k), w(size_t(c.k) * c.t * c.r * c.s * c.c);
  for (double& v : x) v = value(rng);
  for (double& v : w) v = value(rng);
  if (ucut_phases_error(c)) return fail(c, "refused");
  ++checked;
  const int in[3] = {c.z, c.p, c.q};
  // The staged buffer: every phase's filter at its offset, the phases tiling it in order.
  std::vector<double> f(size_t(ucut_phases_filter_elements(c)), 1e300);
  int64_t next = 0;
  for (int32_t index = 0; index < ucut_phase_count(c); ++index) {
    const ucut_phase p = ucut_phase_of(c, index);
    if (p.filter_offset != next) return fail(c, "a phase's filter offset");
    next += ucut_phase_filter_elements(c, p);
    if (next > int64_t(f.size())) return fail(c, "the phases' filters overrun the staged buffer");
    for (int64_t i = 0; i < ucut_phase_filter_elements(c, p); ++i) {
      const int64_t from = ucut_phase_filter_source(c, p, i);
      f[size_t(p.filter_offset + i)] = from < 0 ? 0.0 : w[size_t(from)];
    }
    for (int i = 0; i < 3; ++i) {
      const ucut_phase_dim& d = p.dim[i];
      if (d.rows == 0) continue;
      // What CUTLASS checks and computes: padding >= 0, a non-empty input inside X, the output rows.
      if (d.pad_lo < 0 || d.pad_hi < 0) return fail(c, "negative padding");
      if (d.in_first < 0 || d.in_rows < 1 || d.in_first + d.in_rows > in[i]) return fail(c, "cropped input outside X");
      if (d.in_rows + d.pad_lo + d.pad_hi - d.dilation * (d.window - 1) != d.rows) return fail(c, "output rows");
    }
  }
  if (next != int64_t(f.size())) return fail(c, "the phases' filters leave part of the staged buffer");
  std::vector<double> y(size_t(c.n) * c.d * c.h * c.w * c.c, 0.0);
  std::vector<int> writes(y.size(), 0);
  for (int32_t index = 0; index < ucut_phase_count(c); ++index) {
    const ucut_phase p = ucut_phase_of(c, index);
    if (p.empty) continue;
    ++launches;
    run_phase(c, p, x, f, y, writes);
  }
  for (int v : writes)
    if (v != 1) return fail(c, "a Y element written other than once");
  const std::vector<double> want = transposed(c, x, w);
  for (size_t i = 0; i < y.size(); ++i)
    if (std::abs(y[i] - want[i]) > 1e-9 * (1 + std::abs(want[i]))) return fail(c, "value");
}

}  // namespace

int main() {
  std::mt19937 rng(20261204);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 700; ++trial) {
    const int dims = 1 + trial % 3;
    ucut_conv_args c{};
    c.spatial_dims = dims;
    c.n = pick(1, 2);
    c.k = pick(1, 5);
    c.c = pick(1, 5);
    c.groups = 1;
    int32_t* in[3] = {&c.z, &c.p, &c.q};
    int32_t* out[3] = {&c.d, &c.h, &c.w};
    int32_t* filter[3] = {&c.t, &c.r, &c.s};
    for (int i = 0; i < 3; ++i) {
      *in[i] = 1, *out[i] = 1, *filter[i] = 1;
      c.pad[i] = 0, c.stride[i] = 1, c.dilation[i] = 1;
      if (i < 3 - dims) continue;
      *in[i] = pick(1, dims == 3 ? 4 : 7);
      *filter[i] = pick(1, 5);
      c.stride[i] = pick(1, 5);
      c.dilation[i] = pick(1, 3);
      const int reach = c.dilation[i] * (*filter[i] - 1);
      c.pad[i] = pick(0, reach + 1);  // now and then past the filter's reach: the phases crop X
      const int output_padding = pick(0, std::max(c.stride[i], c.dilation[i]) - 1);
      *out[i] = (*in[i] - 1) * c.stride[i] - 2 * c.pad[i] + reach + 1 + output_padding;
    }
    if (c.d < 1 || c.h < 1 || c.w < 1) continue;
    check(c, rng);
  }
  std::printf("transposed_phases: %d geometries checked (%d phase launches), %d failures\n", checked, launches,
              failures);
  return failures == 0 && checked >= 500 ? 0 : 1;
}
