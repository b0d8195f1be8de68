// tests/unit/eval/conv_direct_groups_test.cpp — eval/worker/conv_direct.h with channel groups, on the CPU: a grouped
// and a depthwise forward convolution against an independent naive loop (PyTorch's Conv2d(groups = G) written out
// over NHWC tensors), with the filter packed and with k innermost (the GPU reference's copy); a depthwise output
// by hand; and the data and filter gradients against the forward convolution through the adjoint identities on
// random grouped geometries.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "eval/worker/conv_direct.h"

namespace ucut::worker {
namespace {

ConvShape conv2d(int64_t n, int64_t h, int64_t w, int64_t c, int64_t k, int64_t groups, int64_t r, int64_t s) {
  ConvShape g;
  g.dims = 2;
  g.n = n, g.c = c, g.k = k, g.groups = groups;
  g.in = {1, h, w};
  g.filter = {1, r, s};
  return g;
}

/// Small integers, so that every sum is exact in double and results compare with ==.
std::vector<float> random_tensor(int64_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> value(-8, 8);
  std::vector<float> t(static_cast<size_t>(n));
  for (float& v : t) v = static_cast<float>(value(rng));
  return t;
}

/// Y[n][p][q][k] = Σ_{r, s, j < C/G} X[n][p stride - pad + r dil][q stride - pad + s dil][(k / (K/G)) C/G + j]
/// · W[k][r][s][j], written out without conv_direct.h (2D only).
std::vector<double> naive_grouped_conv2d(const std::vector<float>& x, const std::vector<float>& w, const ConvShape& s) {
  const int64_t H = s.in[1], W = s.in[2], R = s.filter[1], S = s.filter[2], P = s.out(1), Q = s.out(2);
  const int64_t cg = s.c / s.groups, kg = s.k / s.groups;
  std::vector<double> y(static_cast<size_t>(s.n * P * Q * s.k), 0.0);
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t p = 0; p < P; ++p)
      for (int64_t q = 0; q < Q; ++q)
        for (int64_t k = 0; k < s.k; ++k) {
          double sum = 0;
          for (int64_t r = 0; r < R; ++r)
            for (int64_t t = 0; t < S; ++t) {
              int64_t h = p * s.stride[1] - s.pad[1] + r * s.dilation[1];
              int64_t v = q * s.stride[2] - s.pad[2] + t * s.dilation[2];
              if (h < 0 || h >= H || v < 0 || v >= W) continue;
              for (int64_t j = 0; j < cg; ++j) {
                int64_t channel = (k / kg) * cg + j;
                sum += double(x[static_cast<size_t>(((n * H + h) * W + v) * s.c + channel)]) *
                       double(w[static_cast<size_t>(((k * R + r) * S + t) * cg + j)]);
              }
            }
          y[static_cast<size_t>(((n * P + p) * Q + q) * s.k + k)] = sum;
        }
  return y;
}

/// Every output of conv_fprop_element over the filter read with strides `ws`.
std::vector<double> direct(const std::vector<float>& x, const std::vector<float>& w, FilterStrides ws,
                           const ConvShape& s) {
  ConvDims g = conv_dims(s);
  std::vector<double> y;
  for (int64_t i = 0; i < s.y_elements(); ++i) y.push_back(conv_fprop_element(x.data(), w.data(), ws, g, i).acc);
  return y;
}

/// W[k][tap][c] → [tap][c][k], as conv_reference.cu's filter_k_innermost copies it, with its strides.
std::vector<float> k_innermost(const std::vector<float>& w, const ConvShape& s, FilterStrides* ws) {
  int64_t taps_c = s.filter_taps() * s.group_c();
  std::vector<float> out(w.size());
  for (int64_t i = 0; i < static_cast<int64_t>(w.size()); ++i)
    out[static_cast<size_t>((i % taps_c) * s.k + i / taps_c)] = w[static_cast<size_t>(i)];
  *ws = {1, s.group_c() * s.k, s.k};
  return out;
}

void expect_matches_naive(const ConvShape& s, uint32_t seed) {
  std::mt19937 rng(seed);
  ASSERT_EQ(s.w_elements(), s.k * s.filter_taps() * (s.c / s.groups));
  std::vector<float> x = random_tensor(s.x_elements(), rng), w = random_tensor(s.w_elements(), rng);
  std::vector<double> want = naive_grouped_conv2d(x, w, s);
  ConvDims g = conv_dims(s);
  EXPECT_EQ(direct(x, w, packed_filter(g), s), want);
  FilterStrides ws{};
  std::vector<float> wk = k_innermost(w, s, &ws);
  EXPECT_EQ(direct(x, wk, ws, s), want);
}

TEST(ConvDirectGroups, GroupedForwardMatchesANaiveLoop) {
  ConvShape s = conv2d(2, 7, 6, 6, 4, 2, 3, 2);  // 2 groups: 3 input and 2 output channels each
  s.pad = {0, 1, 0}, s.stride = {1, 2, 1}, s.dilation = {1, 1, 2};
  expect_matches_naive(s, 1);
  ConvShape shuffle = conv2d(1, 5, 5, 6, 9, 3, 1, 1);  // ShuffleNet's 1x1 group convolution
  expect_matches_naive(shuffle, 2);
}

TEST(ConvDirectGroups, DepthwiseForwardMatchesANaiveLoop) {
  ConvShape s = conv2d(2, 6, 5, 5, 5, 5, 3, 3);
  s.pad = {0, 1, 1};
  expect_matches_naive(s, 3);
  s.stride = {1, 2, 2}, s.dilation = {1, 2, 1};
  expect_matches_naive(s, 4);
}

TEST(ConvDirectGroups, DepthwiseReadsOnlyItsOwnChannel) {
  // One 2x2 image of 2 channels, 2x2 filters: y[c] = Σ_taps x[tap][c] w[c][tap], no mixing between channels.
  ConvShape s = conv2d(1, 2, 2, 2, 2, 2, 2, 2);
  std::vector<float> x = {1, 100, 2, 200, 3, 300, 4, 400};  // x[h][w][c]
  std::vector<float> w = {1, 10, 100, 1000, -1, -1, -1, -1};  // w[c][r][s][1]
  ConvDims g = conv_dims(s);
  EXPECT_EQ(conv_fprop_element(x.data(), w.data(), packed_filter(g), g, 0).acc, 1 + 20 + 300 + 4000);
  EXPECT_EQ(conv_fprop_element(x.data(), w.data(), packed_filter(g), g, 1).acc, -1000);
  EXPECT_EQ(conv_fprop_element(x.data(), w.data(), packed_filter(g), g, 1).abs_acc, 1000);
}

/// A random 1D-3D geometry with 1 to 3 groups of 1 to 3 input and output channels each.
ConvShape random_grouped_geometry(int dims, std::mt19937& rng) {
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  ConvShape s;
  s.dims = dims;
  s.groups = pick(1, 3);
  s.n = pick(1, 2), s.c = s.groups * pick(1, 3), s.k = s.groups * pick(1, 3);
  for (int i = 3 - dims; i < 3; ++i) {
    s.filter[i] = pick(1, 3), s.stride[i] = pick(1, 3), s.dilation[i] = pick(1, 2), s.pad[i] = pick(0, 2);
    int64_t span = s.dilation[i] * (s.filter[i] - 1) + 1;
    s.in[i] = std::max<int64_t>(1, span - 2 * s.pad[i]) + pick(0, 3);
  }
  return s;
}

std::vector<ConvSums> elements(const std::vector<float>& a, const std::vector<float>& b, ConvShape s, ConvKind kind) {
  s.kind = kind;
  ConvDims g = conv_dims(s);
  std::vector<ConvSums> out;
  for (int64_t i = 0; i < s.d_elements(); ++i) out.push_back(conv_element(a.data(), b.data(), g, i));
  return out;
}

double pairing(const std::vector<ConvSums>& d, const std::vector<float>& t, bool abs) {
  double sum = 0;
  for (size_t i = 0; i < d.size(); ++i) sum += abs ? d[i].abs_acc * std::fabs(t[i]) : d[i].acc * t[i];
  return sum;
}

// <fprop(x, w), y> = <x, dgrad(y, w)> = <w, wgrad(y, x)> over the same (pixel, tap, group channel) triples: a data
// or filter gradient that reads another group's channels breaks the identity.
TEST(ConvDirectGroups, GradientsAreTheAdjointsOfTheGroupedForward) {
  std::mt19937 rng(20250612);
  for (int dims = 1; dims <= 3; ++dims)
    for (int trial = 0; trial < 40; ++trial) {
      ConvShape s = random_grouped_geometry(dims, rng);
      SCOPED_TRACE("dims " + std::to_string(dims) + " trial " + std::to_string(trial) + " groups " +
                   std::to_string(s.groups) + " c " + std::to_string(s.c) + " k " + std::to_string(s.k));
      std::vector<float> x = random_tensor(s.x_elements(), rng), w = random_tensor(s.w_elements(), rng),
                         y = random_tensor(s.y_elements(), rng);
      std::vector<ConvSums> fwd = elements(x, w, s, ConvKind::fprop), data = elements(y, w, s, ConvKind::dgrad),
                            filter = elements(y, x, s, ConvKind::wgrad);
      ASSERT_EQ(filter.size(), w.size());
      for (bool abs : {false, true}) {
        EXPECT_EQ(pairing(fwd, y, abs), pairing(data, x, abs));
        EXPECT_EQ(pairing(fwd, y, abs), pairing(filter, w, abs));
      }
    }
}

}  // namespace
}  // namespace ucut::worker
