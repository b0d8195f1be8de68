// tests/unit/mantis/in_prompt_test.cpp — engine/mantis/in_prompt.h against the scripted loopback server and
// the fake executor: a turn ends with one new attempt, the model's mistakes (an unknown tool, broken
// arguments, another problem, a spec with errors) come back as tool errors it can read, tokens are attributed
// to the attempts they produced, and a run killed with SIGKILL in the middle of a measurement resumes from
// the ledger without sending a recorded call again or measuring anything twice.
#include "engine/mantis/in_prompt.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../llm/fake_server.h"
#include "../temp_dir.h"
#include "fake_executor.h"
#include "subjects.h"

namespace ucut::mantis {
namespace {

using nlohmann::json;

std::string spec_with_tile(int m, int n) {
  return fmt::format(
      "kernel k_L1_001_square_matmul : sm90a\n"
      "  gemm(A: f32[M,K] row, B: f32[K,N] row, acc: f32, math = tf32x3)\n"
      "    .with_threadblockshape({}, {}, 32)\n"
      "    .with_scheduler(multistage)\n"
      "  >> store(D: f32[M,N] row)\n",
      m, n);
}

json reply(json message, int prompt, int completion) {
  message["role"] = "assistant";
  if (!message.contains("content")) message["content"] = nullptr;
  return {{"status", 200},
          {"json",
           {{"id", "c"},
            {"model", "test-model"},
            {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", "tool_calls"}}}},
            {"usage", {{"prompt_tokens", prompt}, {"completion_tokens", completion}}}}}};
}

json calls(std::vector<std::pair<std::string, std::string>> name_and_args, int prompt = 100,
           int completion = 10) {
  json list = json::array();
  for (size_t i = 0; i < name_and_args.size(); ++i)
    list.push_back(
        {{"id", fmt::format("call_{}", i)},
         {"type", "function"},
         {"function", {{"name", name_and_args[i].first}, {"arguments", name_and_args[i].second}}}});
  return reply({{"tool_calls", list}}, prompt, completion);
}

std::string run_args(const std::string& spec, const std::string& problem = "L1_001_square_matmul") {
  return json{{"spec", spec}, {"problem", problem}}.dump();
}

json tool_schema(std::vector<std::string> required) {
  json props = json::object();
  for (const std::string& r : required) props[r] = {{"type", "string"}};
  return {{"type", "object"}, {"properties", props}, {"required", required}, {"additionalProperties", false}};
}

/// The tools the model sees: run and profile (answered by the controller), check (by the test's handler).
InPromptOptions options(std::vector<std::string>* handled) {
  InPromptOptions o;
  o.tools = {{"check", "check a spec", tool_schema({"spec"})},
             {"run", "run a spec", tool_schema({"spec", "problem"})},
             {"profile", "profile a spec", tool_schema({"spec", "problem"})}};
  o.call_tool = [handled](const std::string& name, const json& args) {
    handled->push_back(name);
    return ToolReply{false, "{\"ok\": true}"};
  };
  o.opening = [](const Subject& s) {
    return std::vector<llm::Message>{llm::Message::system("You optimize " + s.row.id),
                                     llm::Message::user("Begin.")};
  };
  o.proposer = "model:test-model";
  return o;
}

struct Session {
  ucut::testing::TempDir dir{"ucut-in-prompt"};
  ucut::testing::FakeOpenAiServer server;
  llm::LlmConfig config;
  Subject s = testing::square_matmul("unknown");
  std::map<std::string, int> counts;
  std::vector<std::string> handled;

  void serve(const json& script) {
    server.start(script);
    config.base_url = server.base_url();
    config.model = "test-model";
    config.timeout_s = 10;
    config.max_retries = 0;
  }
  std::string db() { return dir.file("w.db"); }
  /// The bodies the server received, parsed.
  std::vector<json> bodies() {
    std::vector<json> out;
    for (const json& r : server.requests()) out.push_back(json::parse(r["body"].get<std::string>()));
    return out;
  }
};

TEST(InPrompt, EachTurnEndsWithOneNewAttemptAndMistakesComeBackAsToolErrors) {
  Session t;
  std::string a = spec_with_tile(128, 64), b = spec_with_tile(64, 128);
  t.serve(json::array({calls({{"check", json{{"spec", a}}.dump()}}), calls({{"run", run_args(a)}}),
                       calls({{"nosuch", "{}"}}), calls({{"run", "{\"spec\": "}}),
                       calls({{"run", run_args(b, "L1_002_matmul")}}),
                       calls({{"run", run_args("kernel broken")}}), calls({{"run", run_args(b)}}),
                       reply({{"content", "Done: the best is 64x128."}}, 50, 5)}));
  store::Workspace ws = store::Workspace::open(t.db());
  ws.upsert_problem(t.s.row);
  int64_t run = ws.begin_run({});
  testing::FakeExecutor ex(&t.counts);
  llm::Client client(t.config);
  engine::ModelLedger ledger(ws, client);
  InPrompt controller(ws, ex, ledger, run, options(&t.handled));

  IterationResult first = controller.step(t.s, nullptr);
  EXPECT_EQ(first.attempts, 1);
  EXPECT_FALSE(first.exhausted);
  IterationResult second = controller.step(t.s, nullptr);
  EXPECT_EQ(second.attempts, 1);
  IterationResult third = controller.step(t.s, nullptr);
  EXPECT_TRUE(third.exhausted);
  EXPECT_NE(third.note.find("Done: the best is 64x128."), std::string::npos) << third.note;
  EXPECT_TRUE(controller.step(t.s, nullptr).exhausted);  // an ended conversation stays ended, asking nothing

  std::vector<store::AttemptRow> attempts = ws.attempts(t.s.row.id);
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].proposer, "model:test-model");
  EXPECT_EQ(attempts[0].tokens, 2 * 110);                              // the check call and the run call
  EXPECT_EQ(attempts[1].tokens, 5 * 110);                              // four mistakes and the run
  EXPECT_EQ(t.handled, std::vector<std::string>({"check", "check"}));  // the broken spec's diagnostics too

  std::vector<json> sent = t.bodies();
  ASSERT_EQ(sent.size(), 8u);
  auto last_tool_reply = [&](size_t request) {
    return sent[request]["messages"].back()["content"].get<std::string>();
  };
  EXPECT_NE(last_tool_reply(2).find("\"attempts_spent\":1"), std::string::npos) << last_tool_reply(2);
  EXPECT_NE(last_tool_reply(3).find("there is no tool `nosuch`; the tools are check, run, profile"),
            std::string::npos);
  EXPECT_NE(last_tool_reply(4).find("not valid JSON"), std::string::npos);
  EXPECT_NE(last_tool_reply(5).find("this conversation optimizes L1_001_square_matmul"), std::string::npos);
  EXPECT_NE(last_tool_reply(6).find("not run (no attempt spent): the spec has errors"), std::string::npos);
  EXPECT_NE(last_tool_reply(7).find("\"speedup_over_best\""), std::string::npos);
  // Every request offers the tools.
  EXPECT_EQ(sent[0]["tools"].size(), 3u);
  std::vector<store::LlmCallRow> ledger_rows = ws.llm_calls({.role = "controller"});
  EXPECT_EQ(ledger_rows.size(), 8u);
}

TEST(InPrompt, ProfileReadsOnlyAVerifiedAttemptAndStoresItsProfileOnce) {
  Session t;
  std::string a = spec_with_tile(128, 64);
  t.serve(json::array({calls({{"profile", run_args(a)}}), calls({{"run", run_args(a)}}),
                       calls({{"profile", run_args(a)}}), calls({{"profile", run_args(a)}}),
                       reply({{"content", "stop"}}, 1, 1)}));
  store::Workspace ws = store::Workspace::open(t.db());
  ws.upsert_problem(t.s.row);
  int64_t run = ws.begin_run({});
  testing::FakeExecutor ex(&t.counts);
  engine::ProfileOutcome canned;
  canned.counters = true;
  canned.bottleneck = sol::Bottleneck::compute;
  canned.reason = "tensor pipes 91% busy";
  ex.canned_profile = canned;
  llm::Client client(t.config);
  engine::ModelLedger ledger(ws, client);
  InPrompt controller(ws, ex, ledger, run, options(&t.handled));
  EXPECT_EQ(controller.step(t.s, nullptr).attempts, 1);
  EXPECT_TRUE(controller.step(t.s, nullptr).exhausted);
  std::vector<json> sent = t.bodies();
  ASSERT_EQ(sent.size(), 5u);
  EXPECT_NE(sent[1]["messages"].back()["content"].get<std::string>().find("`run` it first"),
            std::string::npos);
  EXPECT_NE(sent[3]["messages"].back()["content"].get<std::string>().find("tensor pipes 91% busy"),
            std::string::npos);
  EXPECT_EQ(sent[3]["messages"].back()["content"], sent[4]["messages"].back()["content"]);
  EXPECT_EQ(ex.profiled.size(), 1u);
  EXPECT_EQ(ex.profiled.begin()->second, 1);  // the second profile of the same config was read back
}

TEST(InPrompt, AKillInTheMiddleOfAMeasurementResumesFromTheLedger) {
  Session t;
  std::string a = spec_with_tile(128, 64), b = spec_with_tile(64, 128), c = spec_with_tile(64, 64);
  t.serve(json::array({calls({{"run", run_args(a)}}, 100, 10),
                       calls({{"check", json{{"spec", b}}.dump()}}, 200, 20),
                       calls({{"run", run_args(b)}}, 300, 30), calls({{"run", run_args(c)}}, 400, 40),
                       reply({{"content", "finished"}}, 500, 50)}));
  {
    store::Workspace ws = store::Workspace::open(t.db());
    ws.upsert_problem(t.s.row);
    ws.begin_run({});
  }
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the killed run: measures a, then dies while measuring b
    std::map<std::string, int> counts;
    store::Workspace ws = store::Workspace::open(t.db());
    testing::SelfKilling ex(&counts, 2);
    llm::Client client(t.config);
    engine::ModelLedger ledger(ws, client);
    InPrompt controller(ws, ex, ledger, 1, options(&t.handled));
    for (int i = 0; i < 5; ++i) controller.step(t.s, nullptr);
    _exit(3);  // not reached
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  ASSERT_EQ(t.server.requests().size(), 3u);

  // The resumed run: a new run row, the pending attempt measured first (Loop::resume), then the conversation
  // replayed from the ledger and continued.
  store::Workspace ws = store::Workspace::open(t.db());
  int64_t resumed = ws.begin_run({});
  testing::FakeExecutor ex(&t.counts);
  llm::Client client(t.config);
  engine::ModelLedger ledger(ws, client);
  Loop loop(ws, ex, resumed, Options{});
  InPrompt controller(ws, ex, ledger, resumed, options(&t.handled));
  IterationResult r = loop.resume(t.s, nullptr);
  EXPECT_EQ(r.attempts, 1);                              // b, left pending by the kill
  EXPECT_EQ(controller.step(t.s, nullptr).attempts, 1);  // c
  EXPECT_TRUE(controller.step(t.s, nullptr).exhausted);

  EXPECT_EQ(t.server.requests().size(), 5u);  // the three recorded calls were replayed, not sent again
  std::vector<store::AttemptRow> attempts = ws.attempts(t.s.row.id);
  ASSERT_EQ(attempts.size(), 3u);
  for (const store::AttemptRow& at : attempts) EXPECT_EQ(at.status, store::AttemptStatus::measured);
  for (const auto& [hash, n] : t.counts) EXPECT_EQ(n, 1) << hash;  // a was measured by the child only
  EXPECT_EQ(attempts[0].tokens, 110);
  EXPECT_EQ(attempts[1].tokens, 220 + 330);
  EXPECT_EQ(attempts[2].tokens, 440);
  std::vector<store::LlmCallRow> rows = ws.llm_calls({.role = "controller"});
  ASSERT_EQ(rows.size(), 5u);
  int64_t charged = 0;
  for (const store::LlmCallRow& row : rows) {
    EXPECT_EQ(row.status, store::LlmCallStatus::ok);
    EXPECT_EQ(row.run_id, 1);  // keyed by the run that began the conversation
    charged += row.tokens();
  }
  EXPECT_EQ(charged,
            attempts[0].tokens + attempts[1].tokens + attempts[2].tokens + 550);  // + the closing call
}

}  // namespace
}  // namespace ucut::mantis
