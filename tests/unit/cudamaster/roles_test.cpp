// tests/unit/cudamaster/roles_test.cpp — the pieces of CUDAMaster's prompts and answers that need no server:
// the Coder's fenced file, the Planner's former plans, the task brief, and round records through JSON.
#include "engine/cudamaster/roles.h"

#include <gtest/gtest.h>

#include "engine/cudamaster/brief.h"
#include "engine/cudamaster/history.h"

namespace ucut::engine::cudamaster {
namespace {

TEST(FencedCode, TakesTheCudaBlockOverOthers) {
  EXPECT_EQ(fenced_code("Plan:\n```text\nnotes\n```\nFile:\n```cuda\n__global__ void k() {}\n```\n"),
            "__global__ void k() {}\n");
  EXPECT_EQ(fenced_code("```\nint x;\n```"), "int x;\n") << "an untagged block when there is no other";
  EXPECT_EQ(fenced_code("```c++\nint y;\n```\n```cuda\nint z;\n```"), "int y;\n") << "the first source block";
  EXPECT_EQ(fenced_code("no fence at all"), std::nullopt);
  EXPECT_EQ(fenced_code("```cuda\nnever closed"), std::nullopt);
}

TEST(FormerPlans, EachRoundWithItsOutcome) {
  EXPECT_EQ(former_plans_text({}), "None yet: this is the first round.");
  RoundRecord faster;
  faster.round = 1;
  faster.scheme = "Vectorize.";
  faster.outcome = Outcome::faster;
  faster.score = 2.5;
  faster.best_before = 1.0;
  RoundRecord failed;
  failed.round = 2;
  failed.scheme = "Shared-memory tiles.";
  failed.outcome = Outcome::failed;
  failed.debug_tries = 3;
  failed.why = "the last try failed at the build stage: too much shared memory";
  RoundRecord slower;
  slower.round = 3;
  slower.scheme = "More blocks.";
  slower.outcome = Outcome::not_faster;
  slower.score = 2.1;
  slower.best_before = 2.5;
  std::string text = former_plans_text({faster, failed, slower});
  EXPECT_NE(
      text.find(
          "#### Round 1\n\nVectorize.\n\n**Outcome:** verified and faster: P 2.50 over the naive launcher "
          "(the best was 1.00); it became the best."),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("**Outcome:** failed after 3 debug tries: the last try failed at the build stage: too much "
                "shared memory."),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find(
          "**Outcome:** verified but not faster: P 2.10 over the naive launcher against the best's 2.50."),
      std::string::npos)
      << text;
}

TEST(RoundRecord, RoundTripsThroughJson) {
  RoundRecord r;
  r.round = 2;
  r.scheme = "s";
  r.outcome = Outcome::not_faster;
  r.score = 1.5;
  r.attempt_id = 7;
  r.attempts = {6, 7};
  r.debug_tries = 1;
  RoundRecord back = round_from_json(to_json(r));
  EXPECT_EQ(back.round, 2);
  EXPECT_EQ(back.outcome, Outcome::not_faster);
  EXPECT_EQ(back.score, 1.5);
  EXPECT_FALSE(back.best_before);
  EXPECT_EQ(back.attempt_id, 7);
  EXPECT_EQ(back.attempts, (std::vector<int64_t>{6, 7}));
  EXPECT_EQ(back.debug_tries, 1);
}

TEST(TaskBrief, NamesTheLauncherItsConventionAndItsCases) {
  const mskb::Task& dot = *mskb::find_task("dot_product");
  std::string text = task_text(dot, mskb::Precision::bf16);
  EXPECT_NE(text.find("MSKB task `dot_product`"), std::string::npos) << text;
  EXPECT_NE(text.find("BF16"), std::string::npos);
  EXPECT_NE(text.find("The harness zeroes `"), std::string::npos)
      << "its zeroed output, by its BF16 name: " << text;
  EXPECT_NE(text.find(dot.cases.back().label()), std::string::npos);
  EXPECT_EQ(candidate_symbol(dot, mskb::Precision::bf16), "dot_product_bf16_optimized");
  EXPECT_EQ(candidate_signature(*mskb::find_task("RELU"), mskb::Precision::fp32),
            "void RELU_optimized(float* output, const float* input, int N)");
}

}  // namespace
}  // namespace ucut::engine::cudamaster
