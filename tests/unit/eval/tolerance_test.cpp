// tests/unit/eval/tolerance_test.cpp — eval/compare.h: the elementwise bound, NaN poison, skipped
// non-finite references, relative L2, the worst element, merge() and the default tolerances.
#include "eval/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace ucut {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Comparison cmp(const std::vector<float>& x, const std::vector<float>& ref, Tolerance tol) {
  EXPECT_EQ(x.size(), ref.size());
  return compare(x.data(), ref.data(), x.size(), tol);
}

TEST(Tolerance, ExactMatchPasses) {
  std::vector<float> ref = {1.f, -2.5f, 0.f, 1e6f, -3e-7f};
  Comparison c = cmp(ref, ref, {1e-4, 1e-4});
  EXPECT_TRUE(c.pass);
  EXPECT_EQ(c.checked, 5u);
  EXPECT_EQ(c.mismatches, 0u);
  EXPECT_EQ(c.nonfinite, 0u);
  EXPECT_EQ(c.max_abs_err, 0.0);
  EXPECT_EQ(c.max_rel_err, 0.0);
  EXPECT_EQ(c.rel_l2, 0.0);
}

TEST(Tolerance, EmptyInputDoesNotPass) {
  Comparison c = compare(nullptr, nullptr, 0, {});
  EXPECT_FALSE(c.pass);  // nothing checked is no evidence of correctness
  EXPECT_EQ(c.checked, 0u);
  EXPECT_EQ(c.worst_index, -1);
}

// The bound is atol + rtol·|ref|: with atol = 1e-3, rtol = 1e-2 and ref = 100 it is 1.001.
TEST(Tolerance, OneElementJustOutsideTheBoundIsOneMismatch) {
  Tolerance tol{1e-3, 1e-2};
  // 101.0 is inside only thanks to rtol (atol alone would reject an error of 1.0);
  // 101 + 1/128 (exact in float) is 0.0068 beyond the bound.
  std::vector<float> ref = {100.f, 100.f, 100.f, -7.f};
  std::vector<float> x = {100.f, 101.f, 101.0078125f, -7.f};
  Comparison c = cmp(x, ref, tol);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(c.nonfinite, 0u);
  EXPECT_EQ(c.checked, 4u);
  EXPECT_DOUBLE_EQ(c.max_abs_err, 1.0078125);
  EXPECT_EQ(c.worst_index, 2);
  EXPECT_FLOAT_EQ(static_cast<float>(c.worst_value), 101.0078125f);
  EXPECT_FLOAT_EQ(static_cast<float>(c.worst_reference), 100.f);

  // Dropping the outlier makes the same data pass.
  x[2] = 101.f;
  EXPECT_TRUE(cmp(x, ref, tol).pass);
}

TEST(Tolerance, ErrorEqualToTheBoundPasses) {
  Tolerance tol{0.5, 0.25};  // binary-exact: the bound at ref = 4 is exactly 1.5
  EXPECT_TRUE(cmp({5.5f}, {4.f}, tol).pass);
  EXPECT_TRUE(cmp({2.5f}, {4.f}, tol).pass);
  EXPECT_FALSE(cmp({5.5000005f}, {4.f}, tol).pass);
  EXPECT_FALSE(cmp({2.4999998f}, {4.f}, tol).pass);
}

TEST(Tolerance, NaNInTheCandidateFailsAsNonFinite) {
  // The harness poisons outputs with NaN, so an element the kernel never wrote reads NaN.
  std::vector<float> ref = {1.f, 2.f, 3.f, 4.f};
  std::vector<float> x = {1.f, kNaN, 3.f, kNaN};
  Comparison c = cmp(x, ref, {1e-2, 1e-2});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nonfinite, 2u);
  EXPECT_EQ(c.mismatches, 2u);
  EXPECT_TRUE(std::isinf(c.max_abs_err) && c.max_abs_err > 0);
  EXPECT_TRUE(std::isinf(c.max_rel_err) && c.max_rel_err > 0);
  EXPECT_TRUE(std::isinf(c.rel_l2) && c.rel_l2 > 0);
  EXPECT_EQ(c.worst_index, 1);  // the first non-finite element
  EXPECT_TRUE(std::isnan(c.worst_value));
  EXPECT_EQ(c.worst_reference, 2.0);
}

TEST(Tolerance, AllNaNCandidateFailsEvenWithHugeTolerance) {
  std::vector<float> ref = {1.f, 2.f, 3.f};
  std::vector<float> x = {kNaN, kNaN, kNaN};
  Comparison c = cmp(x, ref, {1e30, 1e30});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nonfinite, 3u);
  EXPECT_EQ(c.mismatches, 3u);
  EXPECT_EQ(c.worst_index, 0);
}

TEST(Tolerance, InfinityInTheCandidateFailsAsNonFinite) {
  Comparison c = cmp({1.f, -kInf}, {1.f, 2.f}, {1e-2, 1e-2});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nonfinite, 1u);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_TRUE(std::isinf(c.max_abs_err));
  EXPECT_EQ(c.worst_index, 1);
  EXPECT_EQ(c.worst_value, -INFINITY);
}

TEST(Tolerance, NonFiniteReferenceElementsAreSkipped) {
  // Where the reference overflowed there is nothing to hold the candidate to, whatever it holds.
  std::vector<float> ref = {1.f, kInf, kNaN, -kInf, 2.f};
  std::vector<float> x = {1.f, 5.f, kNaN, 123.f, 2.f};
  Comparison c = cmp(x, ref, {1e-4, 1e-4});
  EXPECT_TRUE(c.pass);
  EXPECT_EQ(c.mismatches, 0u);
  EXPECT_EQ(c.nonfinite, 0u);
  EXPECT_EQ(c.max_abs_err, 0.0);
  EXPECT_EQ(c.rel_l2, 0.0);
  EXPECT_EQ(c.worst_index, 0);

  // The skipped elements do not hide a real error elsewhere.
  x[4] = 3.f;
  Comparison d = cmp(x, ref, {1e-4, 1e-4});
  EXPECT_FALSE(d.pass);
  EXPECT_EQ(d.mismatches, 1u);
  EXPECT_EQ(d.worst_index, 4);
  EXPECT_DOUBLE_EQ(d.max_abs_err, 1.0);
}

TEST(Tolerance, RelL2HandComputed) {
  // err = (0, 0, 1), ref = (1, 2, 4): ||err|| / ||ref|| = 1 / sqrt(21).
  Comparison c = cmp({1.f, 2.f, 3.f}, {1.f, 2.f, 4.f}, {1e-2, 1e-2});
  EXPECT_NEAR(c.rel_l2, 1.0 / std::sqrt(21.0), 1e-12);
  EXPECT_DOUBLE_EQ(c.max_abs_err, 1.0);
  EXPECT_DOUBLE_EQ(c.max_rel_err, 0.25);  // 1 / |4|
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(c.worst_index, 2);
  EXPECT_EQ(c.worst_value, 3.0);
  EXPECT_EQ(c.worst_reference, 4.0);

  // err = (3, 4) against ref = (6, 8): rel L2 = 5 / 10.
  Comparison d = cmp({9.f, 12.f}, {6.f, 8.f}, {10, 10});
  EXPECT_TRUE(d.pass);
  EXPECT_NEAR(d.rel_l2, 0.5, 1e-12);
}

TEST(Tolerance, RelL2OfAZeroReferenceIsTheAbsoluteNorm) {
  Comparison c = cmp({0.003f, -0.004f}, {0.f, 0.f}, {1e-2, 1e-2});
  EXPECT_TRUE(c.pass);
  EXPECT_NEAR(c.rel_l2, 0.005, 1e-9);
  // The relative error divides by max(|ref|, atol), never by zero.
  EXPECT_NEAR(c.max_rel_err, 0.4, 1e-6);
  EXPECT_TRUE(std::isfinite(c.max_rel_err));
}

TEST(Tolerance, WorstElementIsTheLargestRelativeErrorNotAbsolute) {
  // Absolute errors 10 and 0.5; relative errors 0.1 and 0.5: the worst is element 1.
  Comparison c = cmp({110.f, 1.5f, 7.f}, {100.f, 1.f, 7.f}, {1, 1});
  EXPECT_TRUE(c.pass);
  EXPECT_DOUBLE_EQ(c.max_abs_err, 10.0);
  EXPECT_DOUBLE_EQ(c.max_rel_err, 0.5);
  EXPECT_EQ(c.worst_index, 1);
  EXPECT_EQ(c.worst_value, 1.5);
  EXPECT_EQ(c.worst_reference, 1.0);
}

TEST(Tolerance, MergeCombinesCountsAndKeepsTheWorseChunk) {
  Comparison d = cmp({1.f, 2.f, 3.f}, {1.f, 2.f, 3.5f}, {0.5, 0});  // passes; rel err 0.5/3.5
  Comparison aux = cmp({10.f, 20.f}, {10.f, 25.f}, {0.5, 0});       // fails; rel err 0.2
  ASSERT_TRUE(d.pass);
  ASSERT_FALSE(aux.pass);
  // The parts are disjoint: the merged relative L2 is that of all five elements at once,
  // sqrt((0.25 + 25) / (1 + 4 + 12.25 + 100 + 625)).
  double rel_l2 = std::sqrt(25.25 / 742.25);
  for (const Comparison& m : {merge(d, aux), merge(aux, d)}) {
    EXPECT_EQ(m.checked, 5u);
    EXPECT_EQ(m.mismatches, 1u);
    EXPECT_EQ(m.nonfinite, 0u);
    EXPECT_FALSE(m.pass);
    EXPECT_DOUBLE_EQ(m.max_abs_err, 5.0);
    EXPECT_DOUBLE_EQ(m.max_rel_err, 0.2);
    EXPECT_NEAR(m.rel_l2, rel_l2, 1e-12);
    EXPECT_EQ(m.worst_index, 1);  // within the worse part
    EXPECT_EQ(m.worst_value, 20.0);
    EXPECT_EQ(m.worst_reference, 25.0);
  }
}

TEST(Tolerance, MergingChunksEqualsComparingTheWhole) {
  std::vector<float> ref, x;
  for (int i = 0; i < 1000; ++i) {
    ref.push_back(std::sin(0.37f * static_cast<float>(i)) * 10.f);
    x.push_back(ref.back() + ((i * 7919) % 13 == 0 ? 0.03f : 0.001f) * static_cast<float>((i % 5) - 2));
  }
  Tolerance tol{1e-2, 1e-3};
  Comparison whole = compare(x.data(), ref.data(), x.size(), tol);
  Comparison a = compare(x.data(), ref.data(), 300, tol);
  Comparison b = compare(x.data() + 300, ref.data() + 300, 700, tol);
  Comparison m = merge(a, b);
  EXPECT_EQ(m.checked, whole.checked);
  EXPECT_EQ(m.mismatches, whole.mismatches);
  EXPECT_GT(whole.mismatches, 0u);
  EXPECT_EQ(m.pass, whole.pass);
  EXPECT_DOUBLE_EQ(m.max_abs_err, whole.max_abs_err);
  EXPECT_DOUBLE_EQ(m.max_rel_err, whole.max_rel_err);
  EXPECT_NEAR(m.rel_l2, whole.rel_l2, 1e-12 * whole.rel_l2);
}

TEST(Tolerance, CompareParallelEqualsCompare) {
  // Large enough to be split (the parallel version uses one thread per 64 Ki elements at most).
  const size_t n = 1'000'003;
  std::vector<float> ref(n), x(n);
  for (size_t i = 0; i < n; ++i) {
    ref[i] = static_cast<float>((i * 2654435761u) % 1000) / 100.f - 5.f;
    x[i] = ref[i] + 1e-4f * static_cast<float>(i % 3);
  }
  x[777'777] = ref[777'777] + 3.f;  // the single worst element, in a late chunk
  Tolerance tol{1e-2, 1e-2};
  Comparison serial = compare(x.data(), ref.data(), n, tol);
  for (unsigned threads : {1u, 2u, 7u, 64u}) {
    Comparison p = compare_parallel(x.data(), ref.data(), n, tol, threads);
    EXPECT_EQ(p.checked, n) << threads;
    EXPECT_EQ(p.mismatches, 1u) << threads;
    EXPECT_FALSE(p.pass) << threads;
    EXPECT_EQ(p.worst_index, 777'777) << threads;  // a global index, not one within its chunk
    EXPECT_EQ(p.worst_value, x[777'777]) << threads;
    EXPECT_EQ(p.worst_reference, ref[777'777]) << threads;
    EXPECT_DOUBLE_EQ(p.max_abs_err, serial.max_abs_err) << threads;
    EXPECT_DOUBLE_EQ(p.max_rel_err, serial.max_rel_err) << threads;
    EXPECT_NEAR(p.rel_l2, serial.rel_l2, 1e-9 * serial.rel_l2) << threads;
  }
  // Repaired, it passes; poisoned with NaN, the first NaN is the worst, wherever its chunk.
  x[777'777] = ref[777'777];
  EXPECT_TRUE(compare_parallel(x.data(), ref.data(), n, tol, 4).pass);
  x[900'000] = kNaN;
  x[500'000] = kNaN;
  Comparison poisoned = compare_parallel(x.data(), ref.data(), n, tol, 4);
  EXPECT_FALSE(poisoned.pass);
  EXPECT_EQ(poisoned.nonfinite, 2u);
  EXPECT_EQ(poisoned.worst_index, 500'000);
  EXPECT_TRUE(std::isinf(poisoned.rel_l2));
}

TEST(Tolerance, CompareParallelSmallAndEmpty) {
  std::vector<float> ref = {1.f, 2.f, 3.f};
  std::vector<float> x = {1.f, 2.f, 4.f};
  Comparison p = compare_parallel(x.data(), ref.data(), 3, {1e-2, 1e-2}, 8);
  EXPECT_EQ(p.checked, 3u);
  EXPECT_EQ(p.mismatches, 1u);
  EXPECT_EQ(p.worst_index, 2);
  EXPECT_FALSE(compare_parallel(nullptr, nullptr, 0, {}, 4).pass);
}

TEST(Tolerance, MergeOfTwoPassingChunksPasses) {
  Comparison a = cmp({1.f}, {1.f}, {1e-4, 1e-4});
  Comparison b = cmp({2.f, 3.f}, {2.f, 3.f}, {1e-4, 1e-4});
  Comparison m = merge(a, b);
  EXPECT_TRUE(m.pass);
  EXPECT_EQ(m.checked, 3u);
  EXPECT_EQ(m.mismatches, 0u);
}

TEST(Tolerance, MergeCarriesNonFiniteAndInfiniteErrors) {
  Comparison ok = cmp({1.f}, {1.f}, {1e-2, 1e-2});
  Comparison poisoned = cmp({kNaN, 2.f}, {1.f, 2.f}, {1e-2, 1e-2});
  Comparison m = merge(ok, poisoned);
  EXPECT_FALSE(m.pass);
  EXPECT_EQ(m.nonfinite, 1u);
  EXPECT_EQ(m.mismatches, 1u);
  EXPECT_TRUE(std::isinf(m.max_abs_err));
  EXPECT_TRUE(std::isinf(m.max_rel_err));
  EXPECT_TRUE(std::isinf(m.rel_l2));
  EXPECT_EQ(m.worst_index, 0);
}

TEST(Tolerance, DefaultTolerances) {
  auto is = [](Tolerance t, double atol, double rtol) { return t.atol == atol && t.rtol == rtol; };
  EXPECT_TRUE(is(default_tolerance(DType::f32, MathMode::native, DType::f32), 1e-4, 1e-4));
  EXPECT_TRUE(is(default_tolerance(DType::f32, MathMode::tf32, DType::f32), 1e-2, 1e-2));
  EXPECT_TRUE(is(default_tolerance(DType::bf16, MathMode::native, DType::bf16), 1e-2, 1e-2));
  EXPECT_TRUE(is(default_tolerance(DType::bf16, MathMode::native, DType::f32), 1e-2, 1e-2));
  EXPECT_TRUE(is(default_tolerance(DType::f16, MathMode::native, DType::f16), 1e-2, 1e-2));
  // f32 operands with a bf16 output are limited by the output's rounding.
  EXPECT_TRUE(is(default_tolerance(DType::f32, MathMode::native, DType::bf16), 1e-2, 1e-2));
  EXPECT_TRUE(is(default_tolerance(DType::e4m3, MathMode::native, DType::e4m3), 7e-2, 7e-2));
  EXPECT_TRUE(is(default_tolerance(DType::bf16, MathMode::native, DType::e4m3), 7e-2, 7e-2));
  EXPECT_TRUE(is(default_tolerance(DType::e4m3, MathMode::native, DType::e5m2), 1.3e-1, 1.3e-1));
  // FP8 operands with a wide output: the operands were already rounded, not the result.
  EXPECT_TRUE(is(default_tolerance(DType::e4m3, MathMode::native, DType::bf16), 1e-2, 1e-2));
}

}  // namespace
}  // namespace ucut
