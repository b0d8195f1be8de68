// tests/unit/mantis/review_test.cpp — engine/review.h, the LLM game detector, against the scripted loopback
// server: each verdict's flag, a shortcut without evidence kept as a label, and a failed review raising
// nothing.
#include "engine/review.h"

#include <gtest/gtest.h>

#include "../llm/fake_server.h"
#include "../store/fixture.h"
#include "model_script.h"

namespace ucut::engine {
namespace {

using nlohmann::json;

json answer(const std::string& content) { return mantis::testing::turn(content, 300, 40); }

class Detector : public ::testing::Test {
 protected:
  Review review(const json& script) {
    server_.start(script);
    llm::LlmConfig config;
    config.base_url = server_.base_url();
    config.model = "test-model";
    config.timeout_s = 10;
    config.max_retries = 0;
    int64_t run = store::testing::workspace_with_run(dir_.file("ws.db"));
    store::Workspace ws = store::Workspace::open(dir_.file("ws.db"));
    llm::Client client(config);
    ModelLedger ledger(ws, client);
    return review_candidate(
        ledger, {run, "p1", 1, "detector"},
        {"C = A·B, 4096³, f32, tolerance 1e-4", "__global__ void k() { /* only row 0 */ }",
         "verified, 0.21 ms, SOL 0.19 ms, no flags"});
  }
  ucut::testing::TempDir dir_{"ucut-detector"};
  ucut::testing::FakeOpenAiServer server_;
};

TEST_F(Detector, ACleanVerdictRaisesNothing) {
  Review r = review(json::array({answer(R"({"verdict": "clean", "findings": []})")}));
  EXPECT_EQ(r.verdict, "clean");
  EXPECT_TRUE(r.flags().empty());
  EXPECT_EQ(r.tokens, 340);
  // The reviewer saw the problem, the source and the measurements.
  json body = json::parse(server_.requests().at(0)["body"].get<std::string>());
  std::string prompt = body["messages"][0]["content"];
  EXPECT_NE(prompt.find("only row 0"), std::string::npos);
  EXPECT_NE(prompt.find("4096³"), std::string::npos);
  EXPECT_NE(prompt.find("SOL 0.19 ms"), std::string::npos);
}

TEST_F(Detector, AShortcutWithEvidenceDisqualifies) {
  Review r = review(json::array({answer(
      R"({"verdict": "shortcut", "findings": [{"kind": "skipped_work", "evidence": "line 1 computes row 0 only"}]})")}));
  ASSERT_EQ(r.flags(), std::vector<FlagId>{FlagId::model_shortcut});
  EXPECT_TRUE(disqualifies(FlagId::model_shortcut));
  EXPECT_EQ(r.to_json()["findings"][0]["kind"], "skipped_work");
}

TEST_F(Detector, AShortcutWithoutEvidenceIsOnlyALabel) {
  Review r = review(json::array({answer(R"({"verdict": "shortcut", "findings": []})")}));
  EXPECT_EQ(r.verdict, "suspicious");
  ASSERT_EQ(r.flags(), std::vector<FlagId>{FlagId::model_suspicious});
  EXPECT_FALSE(disqualifies(FlagId::model_suspicious));
}

TEST_F(Detector, AnInvalidAnswerIsRepaired) {
  Review r = review(json::array(
      {answer(R"({"verdict": "maybe", "findings": []})"),
       answer(R"({"verdict": "suspicious", "findings": [{"kind": "other", "evidence": "x"}]})")}));
  EXPECT_EQ(r.verdict, "suspicious");
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(Detector, AFailedReviewRaisesNothingAndSaysWhy) {
  Review r = review(json::array({{{"status", 500}, {"json", {{"error", {{"message", "overloaded"}}}}}}}));
  EXPECT_TRUE(r.verdict.empty());
  EXPECT_TRUE(r.flags().empty());
  EXPECT_NE(r.error.find("overloaded"), std::string::npos) << r.error;
  EXPECT_EQ(r.to_json()["verdict"], nullptr);
}

}  // namespace
}  // namespace ucut::engine
