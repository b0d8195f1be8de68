// tests/unit/eval/conv_direct_test.cpp — eval/worker/conv_direct.h, the arithmetic of the GPU convolution
// reference, on the CPU against hand-computed outputs: padding, stride, dilation, channels, output channels and
// batches, in 1, 2 and 3 spatial dimensions, with the filter packed or with k innermost.
#include "eval/worker/conv_direct.h"

#include <gtest/gtest.h>

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
    y.push_back(conv_output_element(x.data(), w.data(), packed_filter(g), g, i));
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
    ConvSums sums = conv_output_element(t.x.data(), w_k_innermost.data(), ws, g, i);
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

}  // namespace
}  // namespace ucut::worker
