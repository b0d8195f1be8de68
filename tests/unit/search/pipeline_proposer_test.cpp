// tests/unit/search/pipeline_proposer_test.cpp — the proposer on pipeline specs (engine/search/pipeline_proposer.h):
// starting from a KernelBench pipeline problem's seed, it moves one stage at a time — the GEMM stage's tile or
// stages, ranked by the model; the family stage's launch — and every candidate is the whole pipeline, valid for the
// problem, other than the seed, never a tried config, never the same config twice.
#include "engine/search/pipeline_proposer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "../test_paths.h"
#include "engine/search/rewrite.h"
#include "engine/search/seed_spec.h"
#include "suite/check.h"
#include "suite/lower.h"

namespace ucut::search {
namespace {

struct Lowered {
  suite::Checked checked;
  Problem problem;
};

Lowered lowered(const std::string& relative) {
  std::string error;
  auto file = suite::check_file(test_paths::source_dir() + "/" + relative, &error);
  EXPECT_TRUE(file && file->checked) << error;
  auto problem = suite::lower_to_problem(*file->checked);
  EXPECT_TRUE(std::holds_alternative<Problem>(problem));
  return {*file->checked, std::get<Problem>(problem)};
}

TEST(PipelineProposer, MovesOneStageAtATimeIntoValidDistinctPipelines) {
  Lowered l = lowered("suites/kernelbench/level2/L2_099_matmul_gelu_softmax.toml");
  auto seed = pipeline_seed_spec(l.problem);
  ASSERT_TRUE(std::holds_alternative<SeedSpec>(seed)) << std::get<std::string>(seed);
  const std::string spec = std::get<SeedSpec>(seed).spec;
  Context ctx;
  ctx.problem = &l.problem;
  std::vector<Proposal> proposals = propose(spec, ctx, 4, 3);
  ASSERT_EQ(proposals.size(), 2u);  // the GEMM stage, then the softmax's launch
  const std::string seed_hash = validate(spec, &l.problem).config_hash;
  std::set<std::string> hashes;
  for (size_t i = 0; i < proposals.size(); ++i) {
    const Proposal& p = proposals[i];
    nlohmann::json move = nlohmann::json::parse(p.hypothesis.move_json);
    EXPECT_EQ(move["stage"], i == 0 ? "s1" : "s2");
    EXPECT_EQ(move["family"], i == 0 ? "stage_tile" : "stage_launch");
    EXPECT_FALSE(p.hypothesis.rationale.empty());
    ASSERT_FALSE(p.candidates.empty());
    EXPECT_LE(p.candidates.size(), 3u);
    for (const Candidate& c : p.candidates) {
      Verdict v = validate(c.spec, &l.problem);
      EXPECT_TRUE(v.ok) << v.rule << " " << v.message << "\n" << c.spec;
      EXPECT_EQ(v.config_hash, c.config_hash);
      EXPECT_NE(c.config_hash, seed_hash);
      EXPECT_TRUE(hashes.insert(c.config_hash).second) << "proposed twice: " << c.move_json;
      EXPECT_FALSE(c.precision_change) << c.move_json;
      EXPECT_EQ(nlohmann::json::parse(c.move_json)["stage"], i == 0 ? "s1" : "s2");
    }
  }
  // The GEMM stage's candidates keep its exact math; the family stage's change its launch only.
  EXPECT_NE(proposals[0].candidates.front().spec.find("math = tf32x3"), std::string::npos);
  EXPECT_GE(proposals[0].hypothesis.predicted_speedup, 1.0);
  EXPECT_EQ(proposals[1].hypothesis.predicted_speedup, 1.0);

  // Tried configs are never proposed again.
  for (const Proposal& p : proposals)
    for (const Candidate& c : p.candidates) ctx.tried.insert(c.config_hash);
  for (const Proposal& p : propose(spec, ctx, 4, 3))
    for (const Candidate& c : p.candidates) EXPECT_FALSE(hashes.count(c.config_hash)) << c.move_json;
}

TEST(PipelineProposer, ConvolutionStagesAndNoHypothesesAreHandled) {
  Lowered l = lowered("suites/kernelbench/level2/L2_017_conv2d_instancenorm_divide.toml");
  auto seed = pipeline_seed_spec(l.problem);
  ASSERT_TRUE(std::holds_alternative<SeedSpec>(seed)) << std::get<std::string>(seed);
  Context ctx;
  ctx.problem = &l.problem;
  std::vector<Proposal> proposals = propose(std::get<SeedSpec>(seed).spec, ctx, 1, 2);
  ASSERT_EQ(proposals.size(), 1u);  // max_hypotheses
  EXPECT_EQ(nlohmann::json::parse(proposals[0].hypothesis.move_json)["family"], "stage_tile");
  for (const Candidate& c : proposals[0].candidates) EXPECT_TRUE(validate(c.spec, &l.problem).ok) << c.spec;
  EXPECT_TRUE(propose(std::get<SeedSpec>(seed).spec, ctx, 0, 2).empty());
  EXPECT_TRUE(propose_pipeline("kernel k : sm90a\n", ctx, 2, 2).empty());  // not a pipeline
}

}  // namespace
}  // namespace ucut::search
