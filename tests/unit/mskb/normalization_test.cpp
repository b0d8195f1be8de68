// The Normalization tasks' FP64 references against hand-computed values, and what their inputs look like.
#include <gtest/gtest.h>

#include <cmath>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

const Task& task(const std::string& name) {
  const Task* t = find_task(name);
  if (!t) throw std::runtime_error("no task " + name);
  return *t;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

TEST(BatchNorm, NormalizesEachFeatureOverTheBatchWithBiasedVariance) {
  // 2 samples × 2 features. Feature 0 holds {1, 3}: mean 2, variance 1. Feature 1 holds {2, 6}: mean 4,
  // variance 4.
  Instance in;
  in.arrays = {{"input", {1, 2, 3, 6}}, {"gamma", {2, 0.5}}, {"beta", {1, -1}}, {"output", {0, 0, 0, 0}}};
  in.scalars = {{"epsilon", 0}, {"N", 2}, {"C", 2}};
  expect_near(task("batch_norm").reference(in).at("output"), {-1, -1.5, 3, -0.5});
}

TEST(BatchNorm, ConstantFeatureGivesBetaAndEpsilonEntersUnderTheRoot) {
  Instance in;
  // Feature 0 is constant; feature 1 holds {-1, 1}: variance 1, plus ε = 3 gives a standard deviation of 2.
  in.arrays = {{"input", {5, -1, 5, 1}}, {"gamma", {7, 4}}, {"beta", {0.25, 0}}, {"output", {0, 0, 0, 0}}};
  in.scalars = {{"epsilon", 3}, {"N", 2}, {"C", 2}};
  expect_near(task("batch_norm").reference(in).at("output"), {0.25, -2, 0.25, 2});
}

TEST(BatchNorm, SweepsMskbSizesAndDrawsPerFeatureParameters) {
  const Task& t = task("batch_norm");
  ASSERT_EQ(t.cases.size(), 16u);
  EXPECT_EQ(t.cases.front().label(), "N=16 C=16");
  EXPECT_EQ(t.cases.back().label(), "N=1024 C=1024");
  std::mt19937_64 rng(1);
  Instance in = t.generate(t.cases[1], rng);  // N=16 C=64
  EXPECT_EQ(in.array("input").size(), 16u * 64);
  EXPECT_EQ(in.array("gamma").size(), 64u);
  EXPECT_EQ(in.array("beta").size(), 64u);
  EXPECT_EQ(in.array("output"), std::vector<double>(16 * 64, 0.0));
  EXPECT_DOUBLE_EQ(in.scalar("epsilon"), 1e-5);
  for (double v : in.array("input")) {
    EXPECT_GE(v, -1);
    EXPECT_LT(v, 1);
  }
}

TEST(LayerNorm, NormalizesTheVectorThenAppliesPerElementWeightAndBias) {
  // Mean 2.5, biased variance 1.25; with ε = 2.75 the standard deviation is 2.
  Instance in;
  in.arrays = {
      {"input", {1, 2, 3, 4}}, {"weight", {1, 2, -4, 4}}, {"bias", {0, 1, 0, -1}}, {"output", {0, 0, 0, 0}}};
  in.scalars = {{"epsilon", 2.75}, {"N", 4}};
  expect_near(task("layer_norm").reference(in).at("output"), {-0.75, 0.5, -1, 2});
}

TEST(RmsNorm, DividesByRootMeanSquareWithEpsilonThenScalesAndShifts) {
  // mean(x²) = 12.5; with ε = 3.5 the RMS is 4.
  Instance in;
  in.arrays = {{"input", {3, -4}}, {"weight", {2, 1}}, {"bias", {1, 0.5}}, {"output", {0, 0}}};
  in.scalars = {{"epsilon", 3.5}, {"N", 2}};
  expect_near(task("rms_norm").reference(in).at("output"), {2.5, -0.5});
}

TEST(NormOfOneVector, SweepsMskbSizesWithInputsWeightsAndBiasesInUnitRange) {
  for (const char* name : {"layer_norm", "rms_norm"}) {
    const Task& t = task(name);
    ASSERT_EQ(t.cases.size(), 5u) << name;
    EXPECT_EQ(t.cases.front().at("N"), 64) << name;
    EXPECT_EQ(t.cases.back().at("N"), 1024) << name;
    std::mt19937_64 rng(2);
    Instance in = t.generate(t.cases.back(), rng);
    for (const char* a : {"input", "weight", "bias"}) {
      ASSERT_EQ(in.array(a).size(), 1024u) << name << " " << a;
      for (double v : in.array(a)) {
        EXPECT_GE(v, -1);
        EXPECT_LT(v, 1);
      }
    }
    EXPECT_DOUBLE_EQ(in.scalar("epsilon"), 1e-5) << name;
  }
}

TEST(Softmax, NormalizesEachRowAndSurvivesLargeInputs) {
  double ln3 = std::log(3.0);
  Instance in;
  in.arrays = {{"input", {0, ln3, 5, 5, 1000, 1000 + ln3}}, {"out", std::vector<double>(6, 0.0)}};
  in.scalars = {{"N", 3}, {"C", 2}};
  expect_near(task("softmax").reference(in).at("out"), {0.25, 0.75, 0.5, 0.5, 0.25, 0.75});
}

TEST(Softmax, SweepsRowsTimesColumns) {
  const Task& t = task("softmax");
  ASSERT_EQ(t.cases.size(), 16u);
  EXPECT_EQ(t.cases.front().label(), "N=16 C=256");
  EXPECT_EQ(t.cases.back().label(), "N=128 C=16384");
  EXPECT_DOUBLE_EQ(t.complexity(t.cases.back()), 128.0 * 16384);
}

}  // namespace
}  // namespace ucut::mskb
