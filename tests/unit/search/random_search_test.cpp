// tests/unit/search/random_search_test.cpp — the random and exhaustive baselines: valid, reproducible, stable.
#include "engine/search/random_search.h"

#include <gtest/gtest.h>

#include <set>

#include "search_fixtures.h"

namespace ucut::search {
namespace {

using testing::expect_valid;
using testing::repo_problem;
using testing::repo_text;

std::vector<std::string> hashes(const SearchResult& r) {
  std::vector<std::string> h;
  for (const Candidate& c : r.candidates) h.push_back(c.config_hash);
  return h;
}

TEST(SearchRandom, ReproduciblePerSeedAndValid) {
  Problem problem = repo_problem("problems/examples/gemm_bf16.toml");
  std::string spec = repo_text("examples/gemm_bf16.ucut");
  Context ctx;
  ctx.problem = &problem;
  SearchResult a = random_candidates(spec, ctx, 12, 7), b = random_candidates(spec, ctx, 12, 7),
               c = random_candidates(spec, ctx, 12, 8);
  ASSERT_EQ(a.candidates.size(), 12u);
  EXPECT_EQ(hashes(a), hashes(b));
  EXPECT_NE(hashes(a), hashes(c));
  std::vector<std::string> ha = hashes(a);
  EXPECT_EQ(std::set<std::string>(ha.begin(), ha.end()).size(), 12u);
  for (const Candidate& cand : a.candidates) expect_valid(cand, problem);
  EXPECT_GT(a.rejected.count, 0);  // most points of the product break some rule
}

TEST(SearchRandom, SkipsTriedConfigs) {
  Problem problem = repo_problem("problems/examples/gemm_bf16.toml");
  std::string spec = repo_text("examples/gemm_bf16.ucut");
  Context ctx;
  ctx.problem = &problem;
  SearchResult first = random_candidates(spec, ctx, 10, 3);
  for (const Candidate& c : first.candidates) ctx.tried.insert(c.config_hash);
  for (const Candidate& c : random_candidates(spec, ctx, 10, 3).candidates)
    EXPECT_EQ(ctx.tried.count(c.config_hash), 0u);
}

TEST(SearchEnumerate, DeterministicWithAStableCount) {
  std::string spec = repo_text("bench/kernelbench/impl/L1_001_square_matmul.ucut");
  Context ctx;
  SearchResult a = enumerate_space(spec, ctx, 1000), b = enumerate_space(spec, ctx, 1000);
  EXPECT_EQ(hashes(a), hashes(b));
  EXPECT_EQ(a.total, b.total);
  EXPECT_EQ(a.total, a.candidates.size());
  EXPECT_EQ(a.space_size, 16u * 2 * 4 * 4);  // tiles x tile schedulers x swizzles x stages
  EXPECT_EQ(a.total, 496u);
  EXPECT_EQ(a.rejected.summary(), "16 rejected: C207 ×16");
  std::vector<std::string> ha = hashes(a);
  std::set<std::string> distinct(ha.begin(), ha.end());
  EXPECT_EQ(distinct.size(), a.total);

  // Random candidates come from the same space.
  SearchResult r = random_candidates(spec, ctx, 20, 11);
  for (const Candidate& c : r.candidates) EXPECT_EQ(distinct.count(c.config_hash), 1u) << c.phrase;
}

TEST(SearchEnumerate, HopperSpaceAgainstItsProblem) {
  Problem problem = repo_problem("problems/examples/gemm_bf16.toml");
  std::string spec = repo_text("examples/gemm_bf16.ucut");
  Context ctx;
  ctx.problem = &problem;
  SearchResult r = enumerate_space(spec, ctx, 40);
  EXPECT_EQ(r.candidates.size(), 40u);
  EXPECT_GT(r.total, 1000u);
  EXPECT_LT(r.total, r.space_size);
  EXPECT_GT(r.rejected.count, 0);
  EXPECT_NE(r.rejected.summary().find("C"), std::string::npos);
  for (const Candidate& c : r.candidates) expect_valid(c, problem);
}

TEST(SearchEnumerate, PipelinesAreUnsupported) {
  Context ctx;
  SearchResult r = enumerate_space(repo_text("examples/mlp_block_pipeline.ucut"), ctx, 10);
  EXPECT_TRUE(r.candidates.empty());
  EXPECT_NE(r.unsupported.find("pipeline"), std::string::npos);
}

}  // namespace
}  // namespace ucut::search
