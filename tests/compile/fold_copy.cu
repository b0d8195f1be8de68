// tests/compile/fold_copy.cu — a convolution's `pad` and `fold(n)` copies (emit/templates/convert_runtime.inc),
// checked on the host: for random conv1d/2d/3d geometries over few channels (stride, padding and dilation included),
// X copied through ucut_copied_conv / ucut_fold_pixel (what each thread of the device kernel runs for its pixel, with
// and without 16-byte vector stores) and W copied as rows of the folded taps' channels
// (ucut_pad_rows' layout), then convolved over the copied geometry, must give the caller's convolution. nvcc
// compiles the helpers as host-device code, so this checks the geometry without a GPU (GPU runs verify the kernels
// themselves). Exit 0 when every output matches.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include "abi/kernel_abi.h"
#include "emit/templates/convert_runtime.inc"

namespace {

/// Y = conv(X, W) over geometry `c` (channels-last X [n, d, h, w, c], W [k, t, r, s, c], Y [n, z, p, q, k]).
std::vector<double> convolve(const ucut_conv_args& c, const std::vector<double>& x, const std::vector<double>& w) {
  std::vector<double> y(size_t(c.n) * c.z * c.p * c.q * c.k, 0.0);
  const int in[3] = {c.d, c.h, c.w}, out[3] = {c.z, c.p, c.q}, filter[3] = {c.t, c.r, c.s};
  size_t at = 0;
  for (int n = 0; n < c.n; ++n)
    for (int o0 = 0; o0 < out[0]; ++o0)
      for (int o1 = 0; o1 < out[1]; ++o1)
        for (int o2 = 0; o2 < out[2]; ++o2)
          for (int k = 0; k < c.k; ++k, ++at)
            for (int f0 = 0; f0 < filter[0]; ++f0)
              for (int f1 = 0; f1 < filter[1]; ++f1)
                for (int f2 = 0; f2 < filter[2]; ++f2) {
                  const int o[3] = {o0, o1, o2}, f[3] = {f0, f1, f2};
                  int i[3];
                  bool inside = true;
                  for (int a = 0; a < 3; ++a) {
                    i[a] = o[a] * c.stride[a] - c.pad[a] + f[a] * c.dilation[a];
                    inside = inside && i[a] >= 0 && i[a] < in[a];
                  }
                  if (!inside) continue;
                  for (int ch = 0; ch < c.c; ++ch)
                    y[at] += x[((size_t(n * in[0] + i[0]) * in[1] + i[1]) * in[2] + i[2]) * c.c + ch] *
                             w[((size_t(k * filter[0] + f0) * filter[1] + f1) * filter[2] + f2) * c.c + ch];
                }
  return y;
}

int failures = 0;

/// One geometry, folded `fold` times into channels padded to `pad_to`.
void check(const ucut_conv_args& c, int fold, int pad_to, std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> x(size_t(c.n) * c.d * c.h * c.w * c.c), w(size_t(c.k) * c.t * c.r * c.s * c.c);
  for (double& v : x) v = float(value(rng));  // exact in the f32 copy below
  for (double& v : w) v = value(rng);
  const ucut_conv_args f = ucut_copied_conv(c, fold, pad_to);
  // X's copy as the device kernel makes it: every pixel through ucut_fold_pixel (f32, the values exact in float),
  // with 16-byte vector stores where the copy's rows allow them and on odd pixels element by element; every element
  // must be written (NaN marks one never written) and none past its pixel's row.
  std::vector<float> xs(x.begin(), x.end()), copied(size_t(f.n) * f.d * f.h * f.w * f.c, NAN);
  const int64_t pixels = int64_t(f.n) * f.d * f.h * f.w;
  const bool vector = f.c % 4 == 0 && reinterpret_cast<uintptr_t>(copied.data()) % 16 == 0;
  for (int64_t p = pixels - 1; p >= 0; --p)  // last first: a store past its own row clobbers a finished one
    ucut_fold_pixel<float, float>(xs.data(), copied.data(), c, f, fold, p, vector && p % 2 == 0);
  std::vector<double> xf(copied.begin(), copied.end());
  for (double v : xf)
    if (std::isnan(v)) {
      if (++failures <= 20) std::printf("FAIL fold %d: an element of X's copy was never written\n", fold);
      return;
    }
  // W's copy: rows of the folded taps' channels (W's innermost elements), padded to f.c with zeros.
  const size_t rows = size_t(f.k) * f.t * f.r * f.s, cols = w.size() / rows;
  std::vector<double> wf(rows * f.c, 0.0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t j = 0; j < cols; ++j) wf[r * f.c + j] = w[r * cols + j];
  std::vector<double> want = convolve(c, x, w), got = convolve(f, xf, wf);
  if (f.z != c.z || f.p != c.p || f.q != c.q || got.size() != want.size()) {
    if (++failures <= 20) std::printf("FAIL fold %d: the copied geometry changes the output's extents\n", fold);
    return;
  }
  for (size_t i = 0; i < want.size(); ++i)
    if (std::abs(got[i] - want[i]) > 1e-9 * (1 + std::abs(want[i]))) {
      if (++failures <= 20)
        std::printf("FAIL fold %d, dims %d (in %d %d %d, filter %d %d %d, stride %d %d %d, pad %d %d %d, dilation %d %d %d,"
                    " c %d): output %zu is %.12g, want %.12g\n",
                    fold, c.spatial_dims, c.d, c.h, c.w, c.t, c.r, c.s, c.stride[0], c.stride[1], c.stride[2], c.pad[0],
                    c.pad[1], c.pad[2], c.dilation[0], c.dilation[1], c.dilation[2], c.c, i, got[i], want[i]);
      return;
    }
}

}  // namespace

int main() {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> small(0, 2);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    ucut_conv_args c{};
    c.spatial_dims = 1 + trial % 3;
    c.n = 2;
    c.c = 1 + trial % 5;  // 1..5 channels: never a whole 16-byte vector of f32 at 4 per vector but 4
    c.k = 3;
    c.groups = 1;
    int32_t* in[3] = {&c.d, &c.h, &c.w};
    int32_t* filter[3] = {&c.t, &c.r, &c.s};
    int32_t* out[3] = {&c.z, &c.p, &c.q};
    for (int i = 0; i < 3; ++i) {
      bool spatial = i >= 3 - c.spatial_dims;
      *in[i] = spatial ? 5 + small(rng) * 3 : 1;
      *filter[i] = spatial ? 1 + small(rng) + (trial % 2) : 1;
      c.stride[i] = spatial ? 1 + small(rng) % 2 * (trial % 4 == 1 ? 2 : 1) : 1;
      c.dilation[i] = spatial ? 1 + (trial % 3 == 2 ? small(rng) % 2 : 0) : 1;
      c.pad[i] = spatial ? small(rng) : 0;
      *out[i] = (*in[i] + 2 * c.pad[i] - c.dilation[i] * (*filter[i] - 1) - 1) / c.stride[i] + 1;
    }
    if (c.z < 1 || c.p < 1 || c.q < 1) continue;
    for (int fold = 0; fold <= c.spatial_dims; ++fold)
      for (int pad_to : {4, 8}) {
        check(c, fold, pad_to, rng);
        ++checked;
      }
  }
  std::printf("%d geometries checked, %d failed\n", checked, failures);
  return failures == 0 && checked > 100 ? 0 : 1;
}
