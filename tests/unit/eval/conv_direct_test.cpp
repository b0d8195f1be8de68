// tests/unit/eval/conv_direct_test.cpp — eval/worker/conv_direct.h, the arithmetic of the GPU convolution
// reference, on the CPU: forward outputs against hand-computed values (padding, stride, dilation, channels, output
// channels and batches, in 1, 2 and 3 spatial dimensions, with the filter packed or with k innermost); the data and
// filter gradients against hand-computed values, and all three kinds against each other through the adjoint
// identities <fprop(x, w), y> = <x, dgrad(y, w)> = <w, wgrad(y, x)> on random geometries.
#include "eval/worker/conv_direct.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace ucut::worker {
namespace {

ConvShape conv1d(int64_t width, int64_t taps, int64_t pad, int64_t stride, int64_t dilation) {
  ConvShape s;
  s.dims = 1;
  s.in = {1, 1, width};
  s.filter = {1, 1, taps};
  s.pad = {0, 0, pad};
  s.stride = {1, 1, stride};
  s.dilation = {1, 1, dilation};
  return s;
}

/// Every output element of Y as a row-major [pixels, k] list, with the filter packed.
std::vector<ConvSums> outputs(const std::vector<float>& x, const std::vector<float>& w, const ConvShape& s) {
  ConvDims g = conv_dims(s);
  std::vector<ConvSums> y;
  for (int64_t i = 0; i < s.out_pixels() * s.k; ++i)
    y.push_back(conv_fprop_element(x.data(), w.data(), packed_filter(g), g, i));
  return y;
}

TEST(ConvDirect, Conv1dPaddingAndStride) {
  ConvShape s = conv1d(5, 3, 1, 2, 1);
  ASSERT_EQ(s.out(2), 3);
  // q = 0 reads x[-1..1], q = 1 x[1..3], q = 2 x[3..5]; x[-1] and x[5] are padding.
  std::vector<ConvSums> y = outputs({1, -2, 3, -4, 5}, {1, 10, 100}, s);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0].acc, 1 * 10 + -2 * 100);
  EXPECT_EQ(y[0].abs_acc, 210);
  EXPECT_EQ(y[1].acc, -2 * 1 + 3 * 10 + -4 * 100);
  EXPECT_EQ(y[1].abs_acc, 432);
  EXPECT_EQ(y[2].acc, -4 * 1 + 5 * 10);
  EXPECT_EQ(y[2].abs_acc, 54);
}

TEST(ConvDirect, Conv1dDilation) {
  ConvShape s = conv1d(5, 2, 0, 1, 3);
  ASSERT_EQ(s.out(2), 2);  // taps 3 apart: x[q] and x[q + 3]
  std::vector<ConvSums> y = outputs({1, 2, 3, 4, 5}, {1, 10}, s);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_EQ(y[0].acc, 1 + 40);
  EXPECT_EQ(y[1].acc, 2 + 50);
}

/// Two 2x2 images of 2 channels and two 2x2 filters: all ones, and +1 on channel 0 / -1 on channel 1.
struct TwoImages {
  ConvShape s;
  std::vector<float> x, w;
  TwoImages(int64_t pad) {
    s.dims = 2;
    s.n = 2, s.c = 2, s.k = 2;
    s.in = {1, 2, 2};
    s.filter = {1, 2, 2};
    s.pad = {0, pad, pad};
    for (float scale : {1.f, 2.f})
      for (float v = 1; v <= 8; ++v) x.push_back(scale * v);  // x[n][h][w][c] = (n + 1) (1 + c + 2 w + 4 h)
    w.assign(8, 1.f);
    for (int tap = 0; tap < 4; ++tap) w.insert(w.end(), {1.f, -1.f});
  }
};

TEST(ConvDirect, Conv2dChannelsOutputChannelsAndBatch) {
  TwoImages t(0);
  std::vector<ConvSums> y = outputs(t.x, t.w, t.s);
  ASSERT_EQ(y.size(), 4u);  // [n][p = 0][q = 0][k]
  EXPECT_EQ(y[0].acc, 36);
  EXPECT_EQ(y[1].acc, -4);
  EXPECT_EQ(y[1].abs_acc, 36);
  EXPECT_EQ(y[2].acc, 72);
  EXPECT_EQ(y[3].acc, -8);
}

TEST(ConvDirect, Conv2dPaddedCorners) {
  TwoImages t(1);
  ASSERT_EQ(t.s.out(1), 3);
  std::vector<ConvSums> y = outputs(t.x, t.w, t.s);
  ASSERT_EQ(y.size(), 2u * 9 * 2);
  // Output (0, 0) sees only x[0][0] through filter tap (1, 1); output (2, 2) only x[1][1] through tap (0, 0).
  EXPECT_EQ(y[0].acc, 1 + 2);
  EXPECT_EQ(y[1].acc, 1 - 2);
  EXPECT_EQ(y[8 * 2 + 1].acc, 7 - 8);
  // The centre (1, 1) sees the whole image, as the unpadded convolution of image 1 does.
  EXPECT_EQ(y[(9 + 4) * 2].acc, 72);
}

TEST(ConvDirect, FilterWithKInnermostGivesTheSameSums) {
  TwoImages t(1);
  ConvDims g = conv_dims(t.s);
  int64_t taps_c = 4 * t.s.c;
  std::vector<float> w_k_innermost(t.w.size());
  for (int64_t i = 0; i < static_cast<int64_t>(t.w.size()); ++i)
    w_k_innermost[(i % taps_c) * t.s.k + i / taps_c] = t.w[i];
  FilterStrides ws{1, t.s.c * t.s.k, t.s.k};
  std::vector<ConvSums> packed = outputs(t.x, t.w, t.s);
  for (int64_t i = 0; i < static_cast<int64_t>(packed.size()); ++i) {
    ConvSums sums = conv_fprop_element(t.x.data(), w_k_innermost.data(), ws, g, i);
    EXPECT_EQ(sums.acc, packed[i].acc) << i;
    EXPECT_EQ(sums.abs_acc, packed[i].abs_acc) << i;
  }
}

/// A 3x3x3 single-channel volume with x[d][h][w] = 100 d + 10 h + w.
std::vector<float> volume() {
  std::vector<float> x;
  for (int d = 0; d < 3; ++d)
    for (int h = 0; h < 3; ++h)
      for (int w = 0; w < 3; ++w) x.push_back(static_cast<float>(100 * d + 10 * h + w));
  return x;
}

TEST(ConvDirect, Conv3dStride) {
  ConvShape s;
  s.dims = 3;
  s.in = {3, 3, 3};
  s.stride = {2, 2, 2};
  ASSERT_EQ(s.out_pixels(), 8);
  std::vector<ConvSums> y = outputs(volume(), {2}, s);
  EXPECT_EQ(y[(1 * 2 + 1) * 2 + 0].acc, 2 * 220);  // y[1][1][0] = 2 x[2][2][0]
  EXPECT_EQ(y[7].acc, 2 * 222);
}

TEST(ConvDirect, Conv3dDilatedPaddedDepth) {
  ConvShape s;
  s.dims = 3;
  s.in = {3, 3, 3};
  s.filter = {2, 1, 1};
  s.pad = {1, 0, 0};
  s.dilation = {2, 1, 1};
  ASSERT_EQ(s.out(0), 3);  // y[z] = x[z - 1] + 1000 x[z + 1]
  std::vector<ConvSums> y = outputs(volume(), {1, 1000}, s);
  auto at = [&](int z, int p, int q) { return y[(z * 3 + p) * 3 + q].acc; };
  EXPECT_EQ(at(0, 1, 2), 1000 * 112);
  EXPECT_EQ(at(1, 0, 0), 0 + 1000 * 200);
  EXPECT_EQ(at(2, 2, 2), 122);
}

ConvShape with_kind(ConvShape s, ConvKind kind) {
  s.kind = kind;
  return s;
}

/// Every output element of kind s.kind (through the dispatcher), in the order of the output tensor.
std::vector<ConvSums> elements(const std::vector<float>& a, const std::vector<float>& b, const ConvShape& s) {
  ConvDims g = conv_dims(s);
  std::vector<ConvSums> d;
  for (int64_t i = 0; i < s.d_elements(); ++i) d.push_back(conv_element(a.data(), b.data(), g, i));
  return d;
}

TEST(ConvDirect, Dgrad1dPaddingAndStride) {
  ConvShape s = with_kind(conv1d(5, 3, 1, 2, 1), ConvKind::dgrad);
  // The forward y[q] reads x[2q - 1 + s]; dx[i] gathers dy[q] w[s] over every (q, s) with 2q - 1 + s = i.
  std::vector<ConvSums> dx = elements({1, -2, 3}, {1, 10, 100}, s);
  ASSERT_EQ(dx.size(), 5u);
  EXPECT_EQ(dx[0].acc, 1 * 10);  // (q, s) = (0, 1); (0, 0) reads the padding x[-1]
  EXPECT_EQ(dx[1].acc, 1 * 100 + -2 * 1);  // (0, 2) and (1, 0)
  EXPECT_EQ(dx[1].abs_acc, 102);
  EXPECT_EQ(dx[2].acc, -2 * 10);
  EXPECT_EQ(dx[3].acc, -2 * 100 + 3 * 1);
  EXPECT_EQ(dx[3].abs_acc, 203);
  EXPECT_EQ(dx[4].acc, 3 * 10);  // (2, 2) reads the padding x[5]
}

TEST(ConvDirect, DgradTapsBetweenStridesAndInputsNoOutputReads) {
  ConvShape s = with_kind(conv1d(7, 2, 0, 2, 3), ConvKind::dgrad);
  ASSERT_EQ(s.out(2), 2);  // y[q] = x[2q] w0 + x[2q + 3] w1: nothing reads x[1], x[4] or x[6]
  std::vector<ConvSums> dx = elements({1, 10}, {2, 3}, s);
  std::vector<double> want = {1 * 2, 0, 10 * 2, 1 * 3, 0, 10 * 3, 0};
  ASSERT_EQ(dx.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(dx[i].acc, want[i]) << i;
}

TEST(ConvDirect, DgradChannelsOutputChannelsAndBatch) {
  // A 1x1 filter: dx[n][w][c] = Σ_k dy[n][w][k] W[k][c], a matrix product per pixel.
  ConvShape s = with_kind(conv1d(2, 1, 0, 1, 1), ConvKind::dgrad);
  s.n = 2, s.c = 2, s.k = 2;
  std::vector<float> dy = {1, 10, 2, 20, 3, 30, 4, 40}, w = {1, 2, 3, 4};  // W[k][c] = {{1, 2}, {3, 4}}
  std::vector<ConvSums> dx = elements(dy, w, s);
  std::vector<double> want = {31, 42, 62, 84, 93, 126, 124, 168};
  ASSERT_EQ(dx.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(dx[i].acc, want[i]) << i;
}

TEST(ConvDirect, Wgrad1dPaddingAndStride) {
  ConvShape s = with_kind(conv1d(5, 3, 1, 2, 1), ConvKind::wgrad);
  // dw[s] = Σ_q dy[q] x[2q - 1 + s], without the padding x[-1] and x[5].
  std::vector<ConvSums> dw = elements({1, 10, 100}, {1, -2, 3, -4, 5}, s);
  ASSERT_EQ(dw.size(), 3u);
  EXPECT_EQ(dw[0].acc, 10 * -2 + 100 * -4);
  EXPECT_EQ(dw[0].abs_acc, 420);
  EXPECT_EQ(dw[1].acc, 1 * 1 + 10 * 3 + 100 * 5);
  EXPECT_EQ(dw[2].acc, 1 * -2 + 10 * -4);
  EXPECT_EQ(dw[2].abs_acc, 42);
}

TEST(ConvDirect, Wgrad2dSumsOverTheBatch) {
  TwoImages t(0);  // one output pixel per image; image 1 is twice image 0
  t.s.kind = ConvKind::wgrad;
  std::vector<float> dy = {1, 2, 1, 3};  // dy[n][k]
  std::vector<ConvSums> dw = elements(dy, t.x, t.s);
  ASSERT_EQ(dw.size(), 16u);  // [k][r][s][c]
  for (size_t j = 0; j < 8; ++j) {
    EXPECT_EQ(dw[j].acc, 1 * t.x[j] + 1 * t.x[8 + j]) << j;
    EXPECT_EQ(dw[8 + j].acc, 2 * t.x[j] + 3 * t.x[8 + j]) << j;
  }
}

TEST(ConvDirect, WgradRowRangesAddUpToTheWholeSum) {
  TwoImages t(1);
  t.s.kind = ConvKind::wgrad;
  ConvDims g = conv_dims(t.s);
  ASSERT_EQ(output_rows(g), 2 * 3);
  std::vector<float> dy(static_cast<size_t>(t.s.y_elements()));
  for (size_t i = 0; i < dy.size(); ++i) dy[i] = static_cast<float>(i % 7) - 3;
  for (int64_t i = 0; i < t.s.w_elements(); ++i) {
    ConvSums whole = conv_wgrad_element(dy.data(), t.x.data(), g, i, 0, output_rows(g));
    for (int64_t split = 0; split <= output_rows(g); ++split) {
      ConvSums lo = conv_wgrad_element(dy.data(), t.x.data(), g, i, 0, split);
      ConvSums hi = conv_wgrad_element(dy.data(), t.x.data(), g, i, split, output_rows(g));
      EXPECT_EQ(lo.acc + hi.acc, whole.acc) << i << " split at " << split;
      EXPECT_EQ(lo.abs_acc + hi.abs_acc, whole.abs_acc) << i << " split at " << split;
    }
  }
}

/// A geometry with random extents, channels, filter, stride, padding and dilation in `dims` spatial dimensions,
/// with at least one output pixel.
ConvShape random_geometry(int dims, std::mt19937& rng) {
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  ConvShape s;
  s.dims = dims;
  s.n = pick(1, 2), s.c = pick(1, 3), s.k = pick(1, 3);
  for (int i = 3 - dims; i < 3; ++i) {
    s.filter[i] = pick(1, 3), s.stride[i] = pick(1, 3), s.dilation[i] = pick(1, 2), s.pad[i] = pick(0, 2);
    int64_t span = s.dilation[i] * (s.filter[i] - 1) + 1;
    s.in[i] = std::max<int64_t>(1, span - 2 * s.pad[i]) + pick(0, 4);
  }
  return s;
}

std::string geometry_text(const ConvShape& s) {
  std::string t = "n " + std::to_string(s.n) + " c " + std::to_string(s.c) + " k " + std::to_string(s.k);
  for (int i = 0; i < 3; ++i)
    t += " | in " + std::to_string(s.in[i]) + " filter " + std::to_string(s.filter[i]) + " pad " +
         std::to_string(s.pad[i]) + " stride " + std::to_string(s.stride[i]) + " dilation " +
         std::to_string(s.dilation[i]);
  return t;
}

/// Small integers, so that every sum below is exact in double and the identities hold with ==.
std::vector<float> random_tensor(int64_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> value(-8, 8);
  std::vector<float> t(static_cast<size_t>(n));
  for (float& v : t) v = static_cast<float>(value(rng));
  return t;
}

/// <d, t> = Σ d_i t_i over an output and a tensor of its shape, and Σ |d|_i |t_i| with the output's abs_acc.
struct Pairing {
  double signed_sum = 0, abs_sum = 0;
};

Pairing pairing(const std::vector<ConvSums>& d, const std::vector<float>& t) {
  Pairing p;
  for (size_t i = 0; i < d.size(); ++i) {
    p.signed_sum += d[i].acc * t[i];
    p.abs_sum += d[i].abs_acc * std::fabs(t[i]);
  }
  return p;
}

// dgrad and wgrad are the adjoints of fprop in its two operands: <fprop(x, w), y> = <x, dgrad(y, w)> =
// <w, wgrad(y, x)>, each side a sum of x w y over the same (pixel, tap, channel) triples, so the Σ|x||w||y|
// pairings agree too (which also catches a product counted in one kind and dropped in another).
TEST(ConvDirect, AdjointIdentitiesOnRandomGeometries) {
  std::mt19937 rng(20250611);
  for (int dims = 1; dims <= 3; ++dims)
    for (int trial = 0; trial < 40; ++trial) {
      ConvShape s = random_geometry(dims, rng);
      SCOPED_TRACE(geometry_text(s));
      std::vector<float> x = random_tensor(s.x_elements(), rng), w = random_tensor(s.w_elements(), rng),
                         y = random_tensor(s.y_elements(), rng);
      Pairing forward = pairing(elements(x, w, with_kind(s, ConvKind::fprop)), y);
      Pairing data = pairing(elements(y, w, with_kind(s, ConvKind::dgrad)), x);
      Pairing filter = pairing(elements(y, x, with_kind(s, ConvKind::wgrad)), w);
      EXPECT_EQ(forward.signed_sum, data.signed_sum);
      EXPECT_EQ(forward.signed_sum, filter.signed_sum);
      EXPECT_EQ(forward.abs_sum, data.abs_sum);
      EXPECT_EQ(forward.abs_sum, filter.abs_sum);
    }
}

}  // namespace
}  // namespace ucut::worker
