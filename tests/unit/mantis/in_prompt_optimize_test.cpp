// tests/unit/mantis/in_prompt_optimize_test.cpp — workflow/optimize.h with `--agent in-prompt --detector`
// against the scripted loopback server and the fake executor: the seed is the loop's, then the conversation
// takes the turns; the detector reviews every verified attempt, and a shortcut it names with evidence
// disqualifies the attempt before the scheduler counts it.
#include <gtest/gtest.h>

#include "../export/export_cases.h"
#include "../llm/fake_server.h"
#include "../temp_dir.h"
#include "fake_executor.h"
#include "model_script.h"
#include "store/workspace.h"
#include "workflow/optimize.h"

namespace ucut {
namespace {

using namespace mantis::testing;
using nlohmann::json;

json tool_turn(const std::string& name, const json& args, int prompt, int completion_tokens) {
  json message = {{"role", "assistant"},
                  {"content", nullptr},
                  {"tool_calls",
                   {{{"id", "call_1"},
                     {"type", "function"},
                     {"function", {{"name", name}, {"arguments", args.dump()}}}}}}};
  json body = completion("", prompt, completion_tokens);
  body["choices"][0]["message"] = message;
  body["choices"][0]["finish_reason"] = "tool_calls";
  return {{"status", 200}, {"json", body}};
}

TEST(InPromptOptimize, TheConversationTakesTheTurnsAndTheDetectorFlagsAShortcut) {
  ucut::testing::TempDir dir{"ucut-in-prompt-opt"};
  ucut::testing::FakeOpenAiServer server;
  std::string faster = tile_spec("128, 64, 32");
  server.start(json::array(
      {turn(json{{"verdict", "clean"}, {"findings", json::array()}}, 300, 30),  // reviews the seed
       tool_turn("run", {{"spec", faster}, {"problem", "L1_001_square_matmul"}}, 1000, 100),  // controller
       turn(json{{"verdict", "shortcut"},
                 {"findings", {{{"kind", "special_cased"}, {"evidence", "line 5 keys the tile on M"}}}}},
            300, 30),                                    // reviews it
       turn("Done: nothing more to try.", 1200, 20)}));  // controller ends
  std::filesystem::path root = golden::source_dir();
  OptimizeOptions o;
  o.paths = {(root / "suites/kernelbench/level1/L1_001_square_matmul.toml").string()};
  o.workspace = dir.file("w.db");
  o.seeds_dir = (root / "bench/kernelbench/impl").string();
  o.baseline = "";
  o.policy = sched::fixed_policy(3);
  o.mantis.agent = mantis::Agent::in_prompt;
  o.detector = true;
  llm::LlmConfig config;
  config.base_url = server.base_url();
  config.model = "test-model";
  config.timeout_s = 10;
  config.max_retries = 0;
  o.llm = config;
  json schema = {{"type", "object"},
                 {"properties", {{"spec", {{"type", "string"}}}, {"problem", {{"type", "string"}}}}},
                 {"required", {"spec", "problem"}},
                 {"additionalProperties", false}};
  o.controller_tools = {{"run", "build, verify and time a spec", schema}};
  o.controller_tools_text = "- `run`: Build, verify and time a spec\n";
  o.call_tool = [](const std::string& name, const json&) {
    return mantis::ToolReply{true, "no tool " + name};
  };

  std::map<std::string, int> counts;
  FakeExecutor executor(&counts);
  OptimizeReport r = optimize(o, executor, nullptr);
  ASSERT_TRUE(r.message.empty()) << r.message;

  store::Workspace ws = store::Workspace::open(o.workspace);
  std::vector<store::AttemptRow> attempts = ws.attempts("L1_001_square_matmul");
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].proposer, "seed");
  EXPECT_TRUE(attempts[0].counts());
  EXPECT_EQ(attempts[0].tokens, 330);  // its review
  EXPECT_EQ(attempts[1].proposer, "model:test-model");
  EXPECT_EQ(attempts[1].flags, std::vector<FlagId>{FlagId::model_shortcut});
  EXPECT_TRUE(attempts[1].flagged);
  EXPECT_FALSE(attempts[1].counts());
  EXPECT_EQ(attempts[1].tokens, 1100 + 330);  // the controller call that ran it, and its review
  EXPECT_EQ(json::parse(attempts[1].result_json)["model_review"]["findings"][0]["kind"], "special_cased");
  EXPECT_EQ(ws.best_attempt("L1_001_square_matmul")->id,
            attempts[0].id);  // the flagged one never becomes best
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].note.find("the controller ended the conversation: Done"), 0u) << r.rows[0].note;

  std::vector<json> sent;
  for (const json& req : server.requests()) sent.push_back(json::parse(req["body"].get<std::string>()));
  ASSERT_EQ(sent.size(), 4u);
  std::string opening = sent[1]["messages"][0]["content"];
  EXPECT_NE(opening.find("Budget: 3 attempts for this problem"), std::string::npos);
  EXPECT_NE(opening.find("- `run`: Build, verify and time a spec"), std::string::npos);
  EXPECT_NE(sent[1]["messages"][1]["content"].get<std::string>().find("with_threadblockshape(128, 128, 32)"),
            std::string::npos);  // the seed spec
  EXPECT_EQ(sent[1]["tools"][0]["function"]["name"], "run");
  EXPECT_NE(sent[2]["messages"][0]["content"].get<std::string>().find("with_threadblockshape(128, 64, 32)"),
            std::string::npos);  // the detector reviews the attempt's spec
  std::set<std::string> packs;
  for (const store::PromptPackRow& p : ws.prompt_packs(r.run_id)) packs.insert(p.name);
  EXPECT_TRUE(packs.count("detector") && packs.count("mantis"));
  json settings = json::parse(ws.runs().back().settings_json);
  EXPECT_EQ(settings["agent"], "in-prompt");
}

}  // namespace
}  // namespace ucut
