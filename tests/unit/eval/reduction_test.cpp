// tests/unit/eval/reduction_test.cpp — eval/reduction.h and compare_reduction (eval/compare.h): the host
// reference of row_sum, row_max, col_sum and col_max on hand-computed cases (per batch, with their accumulation
// bounds, NaN propagation), the sum and max tolerances at their edges, and the constant-output check every output
// gets.
#include "eval/reduction.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace ucut {
namespace {

// Two batches of a 2 x 3 matrix, row-major [batch, m, n].
const std::vector<float> kX = {1, -2, 3,  //
                               4, 5, -6,  //
                               -1, 0, 2,  //
                               7, -8, 0.5f};
const std::vector<float> kBound = {1, 2, 3,  //
                                   4, 5, 6,  //
                                   10, 20, 30,  //
                                   40, 50, 60};

TEST(ReduceReference, RowSumPerBatch) {
  ReducedReference r = reduce_reference(kX.data(), kBound.data(), 2, 3, 2, Axis::row, false);
  EXPECT_FALSE(r.max);
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.value, (std::vector<float>{2, 3, 1, -0.5f}));
  EXPECT_EQ(r.abs_sum, (std::vector<double>{6, 15, 3, 15.5}));
  EXPECT_EQ(r.bound, (std::vector<float>{6, 15, 60, 150}));
}

TEST(ReduceReference, RowMaxPerBatch) {
  ReducedReference r = reduce_reference(kX.data(), kBound.data(), 2, 3, 2, Axis::row, true);
  EXPECT_TRUE(r.max);
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.value, (std::vector<float>{3, 5, 2, 7}));
  EXPECT_TRUE(r.abs_sum.empty());
  EXPECT_EQ(r.bound, (std::vector<float>{3, 6, 30, 60}));  // the largest bound among the reduced elements
}

TEST(ReduceReference, ColSumAndColMaxPerBatch) {
  ReducedReference s = reduce_reference(kX.data(), nullptr, 2, 3, 2, Axis::col, false);
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.value, (std::vector<float>{5, 3, -3, 6, -8, 2.5f}));
  EXPECT_EQ(s.abs_sum, (std::vector<double>{5, 7, 9, 8, 8, 2.5}));
  EXPECT_TRUE(s.bound.empty());
  ReducedReference m = reduce_reference(kX.data(), nullptr, 2, 3, 2, Axis::col, true);
  EXPECT_EQ(m.value, (std::vector<float>{4, 5, 3, 7, 0, 2}));
}

TEST(ReduceReference, SumsInDouble) {
  // 2^24 + 1 + 1 - 2^24 is 2 in double; a float accumulator would lose both ones.
  std::vector<float> x = {16777216.f, 1.f, 1.f, -16777216.f};
  EXPECT_EQ(reduce_reference(x.data(), nullptr, 1, 4, 1, Axis::row, false).value[0], 2.f);
}

TEST(ReduceReference, NonFiniteValuesMakeTheirElementNonFinite) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {1, nan, 2, 3, inf, 4};  // 2 x 3
  ReducedReference sum = reduce_reference(x.data(), nullptr, 2, 3, 1, Axis::row, false);
  EXPECT_TRUE(std::isnan(sum.value[0]));
  EXPECT_TRUE(std::isinf(sum.value[1]));
  ReducedReference max = reduce_reference(x.data(), nullptr, 2, 3, 1, Axis::col, true);
  EXPECT_EQ(max.value[0], 3.f);
  EXPECT_TRUE(std::isnan(max.value[1]));  // a NaN is not skipped by the max
  EXPECT_EQ(max.value[2], 4.f);
}

// ---- the tolerances ----

// A sum of count = 4 values with Σ|x| = 100: atol 1e-2, rtol 1e-2 allow 4·1e-2 + 1e-2·100 + √4·2^-22·100 = 1.04005.
TEST(ReductionTolerance, SumScalesWithCountAndMagnitudes) {
  Tolerance tol{1e-2, 1e-2};
  double abs_sum[] = {100, 100};
  ReductionScale s{false, 4, abs_sum, nullptr};
  std::vector<float> ref = {0.5f, 0.5f};  // the values cancel: |ref| says nothing about the error a sum may carry
  std::vector<float> x = {0.5f + 1.04f, 0.5f + 1.041f};
  Comparison c = compare_reduction(x.data(), ref.data(), 2, tol, s);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(c.worst_index, 1);
  EXPECT_NEAR(c.max_rel_err, 1.041 / 100, 1e-6);  // relative to Σ|x|, the scale rtol multiplies
  // D's elementwise tolerance would reject both: 1e-2 + 1e-2·0.5.
  EXPECT_EQ(compare(x.data(), ref.data(), 2, tol).mismatches, 2u);
}

TEST(ReductionTolerance, SumAddsTheAccumulationBoundsOfItsElements) {
  Tolerance tol{0, 0, 1e-3};
  double abs_sum[] = {0};
  float bound[] = {1000};  // Σ_j Σ_k |a||b| over the reduced elements
  ReductionScale s{false, 1, abs_sum, bound};
  float ref[] = {0}, inside[] = {0.999f}, outside[] = {1.001f};
  EXPECT_TRUE(compare_reduction(inside, ref, 1, tol, s).pass);
  EXPECT_FALSE(compare_reduction(outside, ref, 1, tol, s).pass);
}

TEST(ReductionTolerance, MaxIsElementwiseLikeD) {
  Tolerance tol{1e-3, 1e-2, 1e-3};
  float bound[] = {100, 0};
  ReductionScale s{true, 1000, nullptr, bound};  // the count does not widen a max
  std::vector<float> ref = {10, 10};
  // Element 0: 1e-3 + 1e-2·10 + 1e-3·100 = 0.201; element 1: 0.101.
  std::vector<float> x = {10.2f, 10.11f};
  EXPECT_EQ(compare_reduction(x.data(), ref.data(), 2, tol, s).mismatches, 1u);
  s.bound = nullptr;  // without the accumulation bound element 0 is outside too
  EXPECT_EQ(compare_reduction(x.data(), ref.data(), 2, tol, s).mismatches, 2u);
}

TEST(ReductionTolerance, PoisonAndSkippedReferences) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tolerance tol{1e-2, 1e-2};
  double abs_sum[] = {1, 1, 1};
  ReductionScale s{false, 2, abs_sum, nullptr};
  float ref[] = {1, nan, 1}, x[] = {1, 5, nan};  // a NaN reference is skipped; an unwritten element fails
  Comparison c = compare_reduction(x, ref, 3, tol, s);
  EXPECT_EQ(c.nonfinite, 1u);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_FALSE(c.pass);
}

TEST(ReductionTolerance, CompareReducedUsesTheReferencesScales) {
  ReducedReference r = reduce_reference(kX.data(), nullptr, 2, 3, 2, Axis::row, false);
  std::vector<float> got = r.value;
  EXPECT_TRUE(compare_reduced(got, r, {1e-4, 1e-4}).pass);
  got[3] += 0.1f;  // Σ|x| = 15.5: allowed 3·1e-4 + 1e-4·15.5 + ...≈ 0.0019
  Comparison c = compare_reduced(got, r, {1e-4, 1e-4});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.worst_index, 3);
}

// ---- integrity ----

TEST(ConstantOutput, FlagsAnOutputFilledWithOneValue) {
  EXPECT_TRUE(constant_while_reference_varies({0, 0, 0}, {1, 2, 3}));
  EXPECT_FALSE(constant_while_reference_varies({0, 0, 0}, {0, 0, 0}));  // the right answer is constant
  EXPECT_FALSE(constant_while_reference_varies({1, 2, 3}, {1, 2, 3}));
  EXPECT_FALSE(constant_while_reference_varies({7}, {1}));  // one element says nothing
  EXPECT_FALSE(constant_while_reference_varies({0.f, -0.f}, {1, 2}));  // bit-identical only
}

}  // namespace
}  // namespace ucut
