// The Math & Alg tasks (mskb/tasks/math.cpp): their FP64 references on hand-built inputs, top_k's tie-tolerant
// check, and the quadratures' drawn intervals.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

const Task& task(const std::string& name) {
  const Task* t = find_task(name);
  EXPECT_NE(t, nullptr) << name;
  return *t;
}

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

Instance fft_instance(std::vector<double> re, std::vector<double> im) {
  Instance in;
  in.scalars["N"] = double(re.size());
  in.arrays["output_real"].assign(re.size(), 0);
  in.arrays["output_img"].assign(re.size(), 0);
  in.arrays["input_real"] = std::move(re);
  in.arrays["input_img"] = std::move(im);
  return in;
}

TEST(Fft, ForwardUnnormalizedNegativeExponent) {
  Outputs out = task("FFT").reference(fft_instance({1, 2, 3, 4}, {0, 0, 0, 0}));
  expect_near_all(out.at("output_real"), {10, -2, -2, -2});
  expect_near_all(out.at("output_img"), {0, 2, 0, -2});
}

TEST(Fft, MatchesTheDirectDftOnSixteenPoints) {
  std::vector<double> re, im;
  for (int j = 0; j < 16; ++j) {
    re.push_back(std::sin(0.7 * j) + 0.1 * j);
    im.push_back(std::cos(1.3 * j * j));
  }
  Outputs out = task("FFT").reference(fft_instance(re, im));
  for (int k = 0; k < 16; ++k) {
    std::complex<double> s;
    for (int j = 0; j < 16; ++j) s += std::complex<double>(re[j], im[j]) * std::polar(1.0, -2 * std::numbers::pi * j * k / 16);
    EXPECT_NEAR(out.at("output_real")[k], s.real(), 1e-12) << k;
    EXPECT_NEAR(out.at("output_img")[k], s.imag(), 1e-12) << k;
  }
}

TEST(PrefixSum, InclusiveAndPricedLinearlyOnTheCpu) {
  const Task& t = task("prefix_sum");
  Instance in;
  in.arrays["input"] = {1, -2, 3, 0.5};
  in.arrays["output"].assign(4, 0);
  in.scalars["N"] = 4;
  expect_near_all(t.reference(in).at("output"), {1, -1, 2, 2.5});
  const Case& big = t.cases.back();
  EXPECT_DOUBLE_EQ(t.complexity(big), double(1 << 18) * double(1 << 18));
  EXPECT_DOUBLE_EQ(t.reference_cost(big), double(1 << 18));
}

TEST(Sorting, AscendingInPlace) {
  const Task& t = task("sorting");
  Instance in;
  in.arrays["data"] = {3, -1, 2, -1};
  in.scalars["N"] = 4;
  expect_near_all(t.reference(in).at("data"), {-1, -1, 2, 3});
  EXPECT_EQ(t.outputs, std::vector<std::string>{"data"});
  std::mt19937_64 rng(3);
  EXPECT_EQ(t.generate(t.cases.front(), rng).arrays.at("data").size(), 256u);
}

Instance top_k_instance() {
  Instance in;
  in.arrays["input"] = {0.5, 0.9, 0.5, -1, 0.9};
  in.arrays["top_k_values"].assign(3, 0);
  in.arrays["top_k_indices"].assign(3, 0);
  in.scalars = {{"N", 5}, {"k", 3}};
  return in;
}

TEST(TopK, DescendingWithLowerIndexFirstOnTies) {
  Outputs out = task("top_k").reference(top_k_instance());
  expect_near_all(out.at("top_k_values"), {0.9, 0.9, 0.5});
  expect_near_all(out.at("top_k_indices"), {1, 4, 0});
}

TEST(TopK, CheckAcceptsAnyValidIndicesAmongTies) {
  const Task& t = task("top_k");
  Instance in = top_k_instance();
  Outputs ref = t.reference(in);
  auto got = [](std::vector<double> v, std::vector<double> i) {
    return Outputs{{"top_k_values", std::move(v)}, {"top_k_indices", std::move(i)}};
  };
  EXPECT_EQ(t.check(in, ref, ref), "");
  EXPECT_EQ(t.check(in, got({0.9, 0.9, 0.5}, {4, 1, 2}), ref), "");
  EXPECT_NE(t.check(in, got({0.9, 0.9, 0.5}, {1, 1, 0}), ref).find("repeats"), std::string::npos);
  EXPECT_NE(t.check(in, got({0.9, 0.9, 0.5}, {1, 4, 3}), ref).find("points at"), std::string::npos);
  EXPECT_NE(t.check(in, got({0.9, 0.5, 0.5}, {1, 0, 2}), ref).find("top_k_values[1]"), std::string::npos);
  EXPECT_NE(t.check(in, got({0.9, 0.9, 0.5}, {1, 4, 5}), ref).find("not an index"), std::string::npos);
}

Instance quadrature_instance(std::vector<double> y, double a, double b) {
  Instance in;
  in.scalars = {{"a", a}, {"b", b}, {"N", double(y.size())}};
  in.arrays["y_samples"] = std::move(y);
  in.arrays["result"] = {0};
  return in;
}

TEST(MonteCarloInt, IntervalTimesTheMeanSample) {
  expect_near_all(task("monte_carlo_int").reference(quadrature_instance({1, 2, 3, 6}, -1, 3)).at("result"), {12});
}

TEST(SimpsonInt, ExactOnAQuadraticWithAnOddCount) {
  // y = x² at x = 0..4 (h = 1): ∫₀⁴ x² dx = 64/3.
  expect_near_all(task("simpson_int").reference(quadrature_instance({0, 1, 4, 9, 16}, 0, 4)).at("result"), {64.0 / 3});
}

TEST(SimpsonInt, AnEvenCountLeavesTheLastIntervalOut) {
  // y = x + 1 at x = 0..5: only [0, 4] is integrated, 12; the last interval's 5.5 is not.
  expect_near_all(task("simpson_int").reference(quadrature_instance({1, 2, 3, 4, 5, 6}, 0, 5)).at("result"), {12});
}

TEST(Quadrature, GenerateDrawsAnOrderedIntervalAndBoundedSamples) {
  for (const char* name : {"monte_carlo_int", "simpson_int"}) {
    const Task& t = task(name);
    EXPECT_EQ(t.cases.size(), 5u);
    std::mt19937_64 rng(11);
    Instance in = t.generate(t.cases.front(), rng);
    EXPECT_LT(in.scalar("a"), in.scalar("b"));
    EXPECT_GE(in.scalar("a"), -1000);
    EXPECT_LE(in.scalar("b"), 1000);
    ASSERT_EQ(in.array("y_samples").size(), size_t(1) << 14);
    for (double y : in.array("y_samples")) ASSERT_TRUE(y >= -10 && y < 10);
    EXPECT_EQ(in.array("result").size(), 1u);
  }
}

TEST(MathTasks, CasesFollowMskbSweeps) {
  EXPECT_EQ(task("FFT").cases.size(), 5u);
  EXPECT_EQ(task("sorting").cases.size(), 5u);
  const Task& t = task("top_k");
  ASSERT_EQ(t.cases.size(), 15u);
  EXPECT_EQ(t.cases.back().label(), "N=65536 k=128");
  EXPECT_DOUBLE_EQ(t.complexity(t.cases.back()), 65536.0 * 16);
  EXPECT_EQ(t.tolerance.kind, Tolerance::Kind::absolute);
  EXPECT_EQ(task("FFT").tolerance.kind, Tolerance::Kind::relative);
}

}  // namespace
}  // namespace ucut::mskb
