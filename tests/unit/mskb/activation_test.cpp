// The Activation tasks' FP64 references against hand-computed values, and the parameters their inputs carry.
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

/// The reference output of `name` on `x`, with the given float parameters.
std::vector<double> apply(const std::string& name, const std::vector<double>& x,
                          const std::map<std::string, double>& params = {}) {
  const Task& t = task(name);
  Instance in;
  in.arrays["input"] = x;
  in.arrays[t.outputs.front()].assign(x.size(), 0.0);
  in.scalars = params;
  in.scalars["N"] = double(x.size());
  return t.reference(in).at(t.outputs.front());
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

const double ln2 = std::log(2.0), ln3 = std::log(3.0);

TEST(Relu, ClampsNegativesToZero) { expect_near(apply("RELU", {-1, 0, 2.5}), {0, 0, 2.5}); }

TEST(LeakyRelu, ScalesNegativesByAlpha) {
  expect_near(apply("leaky_RELU", {-2, 0, 3}, {{"alpha", 0.01}}), {-0.02, 0, 3});
  expect_near(apply("leaky_RELU", {-2, 4}, {{"alpha", 0.5}}), {-1, 4});
}

TEST(Elu, IsAlphaTimesExpMinusOneBelowZero) {
  expect_near(apply("elu", {-ln2, 0, 1.5}, {{"alpha", 2}}), {-1, 0, 1.5});
}

TEST(Selu, IsLambdaTimesEluWithAlpha) {
  expect_near(apply("selu", {-ln2, 0, 3}, {{"alpha", 1.67}, {"lambda", 2}}), {-1.67, 0, 6});
}

TEST(Gelu, IsTheErfFormXTimesNormalCdf) {
  // Φ(1) = 0.8413447460685429.
  expect_near(apply("gelu", {0, 1, -1}), {0, 0.8413447460685429, -0.15865525393145707});
}

TEST(Sigmoid, IsTheLogistic) { expect_near(apply("sigmoid", {0, ln3, -ln3}), {0.5, 0.75, 0.25}); }

TEST(RowTanh, IsTanhOfEachElement) { expect_near(apply("row_tanh", {0, ln3 / 2, -ln3 / 2}), {0, 0.5, -0.5}); }

TEST(Activations, SweepMskbSizesWithUnitRangeInputsAndMskbDefaultParameters) {
  const std::map<std::string, std::map<std::string, double>> params = {
      {"RELU", {}},
      {"leaky_RELU", {{"alpha", 0.01}}},
      {"elu", {{"alpha", 1.0}}},
      {"selu", {{"alpha", 1.67}, {"lambda", 1.0}}},
      {"gelu", {}},
      {"sigmoid", {}},
      {"row_tanh", {}}};
  for (const auto& [name, want] : params) {
    const Task& t = task(name);
    EXPECT_EQ(t.category, "Activation");
    ASSERT_EQ(t.cases.size(), 5u) << name;
    EXPECT_EQ(t.cases.front().at("N"), 1 << 10) << name;
    EXPECT_EQ(t.cases.back().at("N"), 1 << 18) << name;
    std::mt19937_64 rng(3);
    Instance in = t.generate(t.cases.front(), rng);
    ASSERT_EQ(in.array("input").size(), 1024u) << name;
    for (double v : in.array("input")) {
      EXPECT_GE(v, -1);
      EXPECT_LT(v, 1);
    }
    EXPECT_EQ(in.array(t.outputs.front()), std::vector<double>(1024, 0.0)) << name;
    for (const auto& [p, value] : want) EXPECT_DOUBLE_EQ(in.scalar(p), value) << name << " " << p;
    EXPECT_EQ(in.scalars.size(), want.size() + 1) << name;  // N and the float parameters
  }
}

}  // namespace
}  // namespace ucut::mskb
