// tests/compile/subpixel_conv.cu — how the SM90 kernel runs a strided transposed convolution
// (emit/templates/subpixel_geometry.h), checked on the host: for random conv_transpose1d/2d/3d geometries (stride 1-5,
// dilation, padding, output padding, 1-5 channels) the sub-pixel filter built element by element as the staging
// kernel builds it (ucut_subpixel_filter_source), convolved as CUTLASS's stride-1 forward convolution with the
// geometry's own padding below and above, then scattered into Y line by line as the pixel shuffle does
// (ucut_subpixel_line_at / ucut_subpixel_line_big), must give the transposed convolution computed directly, with
// every phase computed and with the phases without a tap sharing one channel set; every element of Y must be written
// exactly once, and (every phase computed) the inverse copy (a residual C into the kernel's layout) must put
// every element where ucut_subpixel_source says and zeros elsewhere. nvcc compiles the helpers as host-device code,
// so this checks the geometry without a GPU (GPU runs verify the kernels). Exit 0 when every check passes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "emit/templates/kernel_abi.h"
#include "emit/templates/subpixel_geometry.h"

namespace {

int failures = 0, checked = 0, refused = 0;

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

/// CUTLASS's cross-correlation (stride 1, dilation 1, padding lo/hi) of x with F [co, window..., k] over g's extents.
std::vector<double> forward(const ucut_conv_args& c, const ucut_subpixel& g, const std::vector<double>& x,
                            const std::vector<double>& f) {
  const int in[3] = {c.z, c.p, c.q}, co = g.phases * c.c;
  std::vector<double> big(size_t(c.n) * g.extent[0] * g.extent[1] * g.extent[2] * co, 0.0);
  size_t at = 0;
  for (int n = 0; n < c.n; ++n)
    for (int j0 = 0; j0 < g.extent[0]; ++j0)
      for (int j1 = 0; j1 < g.extent[1]; ++j1)
        for (int j2 = 0; j2 < g.extent[2]; ++j2)
          for (int o = 0; o < co; ++o, ++at)
            for (int a0 = 0; a0 < g.window[0]; ++a0)
              for (int a1 = 0; a1 < g.window[1]; ++a1)
                for (int a2 = 0; a2 < g.window[2]; ++a2) {
                  const int i[3] = {j0 - g.pad_lo[0] + a0, j1 - g.pad_lo[1] + a1, j2 - g.pad_lo[2] + a2};
                  if (i[0] < 0 || i[0] >= in[0] || i[1] < 0 || i[1] >= in[1] || i[2] < 0 || i[2] >= in[2]) continue;
                  for (int k = 0; k < c.k; ++k)
                    big[at] += x[((size_t(n * in[0] + i[0]) * in[1] + i[1]) * in[2] + i[2]) * c.k + k] *
                               f[(((size_t(o) * g.window[0] + a0) * g.window[1] + a1) * g.window[2] + a2) * c.k + k];
                }
  return big;
}

/// One geometry with every phase computed (`compact` 0: the inverse copy is checked too) or the phases without a tap
/// sharing one channel set.
void check(const ucut_conv_args& c, int compact, std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> x(size_t(c.n) * c.z * c.p * c.q * c.k), w(size_t(c.k) * c.t * c.r * c.s * c.c);
  for (double& v : x) v = value(rng);
  for (double& v : w) v = value(rng);
  const ucut_subpixel g = ucut_subpixel_of(c, compact);
  if (ucut_subpixel_error(g, c)) {
    ++refused;
    return;
  }
  ++checked;
  if (g.phases > c.stride[0] * c.stride[1] * c.stride[2] || (!compact && g.shared)) return fail(c, "phase count");
  // The forward convolution's output extents, as CUTLASS computes them from the padding, are the geometry's.
  const int in[3] = {c.z, c.p, c.q};
  for (int i = 0; i < 3; ++i)
    if (in[i] + g.pad_lo[i] + g.pad_hi[i] - g.window[i] + 1 != g.extent[i]) return fail(c, "extent");
  std::vector<double> f(size_t(ucut_subpixel_filter_elements(g, c)));
  for (size_t i = 0; i < f.size(); ++i) {
    int64_t from = ucut_subpixel_filter_source(g, c, int64_t(i));
    f[i] = from < 0 ? 0.0 : w[size_t(from)];
  }
  const std::vector<double> big = forward(c, g, x, f);
  std::vector<double> y(size_t(c.n) * c.d * c.h * c.w * c.c, 0.0), gathered(big.size(), 1e300);
  std::vector<int> writes(y.size(), 0);
  const int64_t length = ucut_subpixel_line_length(g, c);
  for (int64_t line = 0; line < ucut_subpixel_line_count(g, c); ++line) {
    const ucut_subpixel_line l = ucut_subpixel_line_at(g, c, line);
    for (int32_t e = 0; e < length; ++e) {
      const int32_t o2 = l.origin + e / c.c;
      const int64_t b = l.big + ucut_subpixel_line_big(g, c, l, e);
      if (b < 0 || b >= int64_t(big.size())) return fail(c, "line element outside the kernel's output");
      const bool inside = l.inside && o2 >= 0 && o2 < c.w;
      if (inside) {
        y[size_t(l.y + e)] = big[size_t(b)];
        ++writes[size_t(l.y + e)];
      }
      gathered[size_t(b)] = inside ? -1.0 - double(l.y + e) : 0.0;  // which y element the inverse copy reads
    }
  }
  for (int v : writes)
    if (v != 1) return fail(c, "a Y element written other than once");
  const std::vector<double> want = transposed(c, x, w);
  for (size_t i = 0; i < y.size(); ++i)
    if (std::abs(y[i] - want[i]) > 1e-9 * (1 + std::abs(want[i]))) return fail(c, "value");
  if (compact) return;  // the inverse copy (a residual C) runs on the full layout only
  // The inverse copy: every kernel-layout element is written; Y's elements land where ucut_subpixel_source says.
  size_t zeros = 0;
  for (double v : gathered) {
    if (v == 1e300) return fail(c, "a kernel-layout element the inverse copy leaves unwritten");
    zeros += v == 0.0;
  }
  if (zeros != gathered.size() - y.size()) return fail(c, "inverse copy zero count");
  for (int n = 0; n < c.n; ++n)
    for (int o0 = 0; o0 < c.d; ++o0)
      for (int o1 = 0; o1 < c.h; ++o1)
        for (int o2 = 0; o2 < c.w; ++o2)
          for (int ch = 0; ch < c.c; ++ch) {
            const int32_t o[3] = {o0, o1, o2};
            const int64_t yi = (((int64_t(n) * c.d + o0) * c.h + o1) * c.w + o2) * c.c + ch;
            if (gathered[size_t(ucut_subpixel_source(g, c, n, o, ch))] != -1.0 - double(yi))
              return fail(c, "ucut_subpixel_source disagrees with the line copy");
          }
}

}  // namespace

int main() {
  std::mt19937 rng(20261203);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 400; ++trial) {
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
      c.pad[i] = pick(0, reach + 1);  // now and then beyond what the geometry allows (refused, not wrong)
      const int output_padding = pick(0, std::max(c.stride[i], c.dilation[i]) - 1);
      *out[i] = (*in[i] - 1) * c.stride[i] - 2 * c.pad[i] + reach + 1 + output_padding;
    }
    if (c.d < 1 || c.h < 1 || c.w < 1) continue;
    check(c, 0, rng);
    check(c, 1, rng);
  }
  std::printf("subpixel_conv: %d geometries checked, %d refused by ucut_subpixel_error, %d failures\n", checked, refused,
              failures);
  return failures == 0 && checked >= 400 ? 0 : 1;
}
