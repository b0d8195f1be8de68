// The Loss tasks (mskb/tasks/loss.cpp): each reference against hand-computed values on a tiny instance, and what
// their generators promise (probability distributions, 0/1 targets).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

const Task& task(const std::string& name) {
  const Task* t = find_task(name);
  if (!t) throw std::out_of_range(name + " is not registered");
  return *t;
}

TEST(LossTasks, RegisteredInMskbOrder) {
  std::vector<std::string> names;
  for (const Task& t : all_tasks())
    if (t.category == "Loss") names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"MSE_loss", "cross_entropy_loss", "hinge_loss"}));
}

TEST(MseLoss, ReferenceIsTheMeanSquaredDifference) {
  Instance in;
  in.arrays = {{"X", {1, 2, 3}}, {"Y", {1, 0, 0}}, {"loss", {0}}};
  in.scalars = {{"N", 3}};
  EXPECT_NEAR(task("MSE_loss").reference(in).at("loss")[0], 13.0 / 3, 1e-12);
  EXPECT_EQ(task("MSE_loss").cases.size(), 5u);
}

TEST(CrossEntropyLoss, ReferenceIsMinusSumOfYLnX) {
  Instance in;
  in.arrays = {{"X", {0.5, 0.25, 0, 0.25}}, {"Y", {0.5, 0.5, 0, 0}}, {"loss", {0}}};
  in.scalars = {{"C", 4}};
  EXPECT_NEAR(task("cross_entropy_loss").reference(in).at("loss")[0], 1.5 * std::log(2.0), 1e-12);
}

TEST(CrossEntropyLoss, ClampsTheProbabilityAt1em8) {
  Instance in;
  in.arrays = {{"X", {0, 1}}, {"Y", {1, 0}}, {"loss", {0}}};
  in.scalars = {{"C", 2}};
  EXPECT_NEAR(task("cross_entropy_loss").reference(in).at("loss")[0], -std::log(double(1e-8f)), 1e-12);
}

TEST(CrossEntropyLoss, GeneratesTwoDistributions) {
  const Task& t = task("cross_entropy_loss");
  ASSERT_EQ(t.cases.size(), 5u);
  std::mt19937_64 rng(3);
  Instance in = t.generate(t.cases[0], rng);
  for (const char* name : {"X", "Y"}) {
    const auto& p = in.array(name);
    ASSERT_EQ(p.size(), 1u << 14);
    EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-12) << name;
    EXPECT_GE(*std::min_element(p.begin(), p.end()), 0.0) << name;
  }
}

TEST(HingeLoss, ReferenceIsPerSampleWithTargetOneMeaningPlusOne) {
  Instance in;
  in.arrays = {{"predictions", {0.5, 0.5, -2, 3, 1.5}}, {"targets", {1, 0, 1, 0, 1}}, {"loss", std::vector<double>(5)}};
  in.scalars = {{"N", 5}};
  EXPECT_EQ(task("hinge_loss").reference(in).at("loss"), (std::vector<double>{0.5, 1.5, 3, 4, 0}));
}

TEST(HingeLoss, GeneratesZeroOneTargetsAndPredictionsInPlusMinusTwo) {
  const Task& t = task("hinge_loss");
  std::mt19937_64 rng(5);
  Instance in = t.generate(t.cases[0], rng);
  const auto &tg = in.array("targets"), &p = in.array("predictions");
  EXPECT_TRUE(std::all_of(tg.begin(), tg.end(), [](double v) { return v == 0 || v == 1; }));
  EXPECT_GT(std::count(tg.begin(), tg.end(), 1.0), 400);
  EXPECT_GT(std::count(tg.begin(), tg.end(), 0.0), 400);
  EXPECT_TRUE(std::all_of(p.begin(), p.end(), [](double v) { return v >= -2 && v < 2; }));
  EXPECT_EQ(in.array("loss").size(), tg.size());
}

}  // namespace
}  // namespace ucut::mskb
