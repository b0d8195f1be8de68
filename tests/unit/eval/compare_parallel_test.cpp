// Chunked comparison must equal the sequential one exactly: counts, sums, rel L2 and the worst element.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "eval/compare.h"

namespace ucut {
namespace {

TEST(CompareParallel, MatchesSequentialOnRandomData) {
  std::mt19937 rng(7);
  std::normal_distribution<float> ref_dist(0.f, 10.f), noise(0.f, 0.02f);
  const size_t n = 1'000'003;  // not a multiple of any chunk count
  std::vector<float> ref(n), x(n);
  for (size_t i = 0; i < n; ++i) {
    ref[i] = 10.f + std::fabs(ref_dist(rng));  // away from 0, so the largest relative error is the injected one
    x[i] = ref[i] + noise(rng);
  }
  x[777'777] += 5.f;  // the worst element, in a late chunk
  Tolerance tol{1e-2, 1e-2};
  Comparison seq = compare(x.data(), ref.data(), n, tol);
  for (unsigned threads : {1u, 3u, 8u, 64u}) {
    Comparison par = compare_parallel(x.data(), ref.data(), n, tol, threads);
    EXPECT_EQ(par.checked, seq.checked);
    EXPECT_EQ(par.mismatches, seq.mismatches);
    EXPECT_EQ(par.worst_index, 777'777);
    EXPECT_EQ(par.worst_index, seq.worst_index);
    EXPECT_DOUBLE_EQ(par.max_abs_err, seq.max_abs_err);
    EXPECT_NEAR(par.rel_l2, seq.rel_l2, 1e-12 * seq.rel_l2);
    EXPECT_EQ(par.pass, seq.pass);
  }
}

TEST(CompareParallel, NanInOneChunkFailsTheWhole) {
  std::vector<float> ref(200'000, 1.f), x(ref);
  x[150'000] = NAN;
  Comparison c = compare_parallel(x.data(), ref.data(), x.size(), {1e-2, 1e-2}, 4);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nonfinite, 1u);
  EXPECT_EQ(c.worst_index, 150'000);
  EXPECT_TRUE(std::isinf(c.rel_l2));
}

TEST(CompareParallel, ExactMatchPassesWithMoreThreadsThanElements) {
  std::vector<float> v = {1.f, -2.f, 3.f};
  Comparison c = compare_parallel(v.data(), v.data(), v.size(), {1e-4, 1e-4}, 16);
  EXPECT_TRUE(c.pass);
  EXPECT_EQ(c.checked, 3u);
  EXPECT_EQ(c.rel_l2, 0.0);
}

}  // namespace
}  // namespace ucut
