// tests/unit/mantis/model_optimize_test.cpp — workflow/optimize.h with `--agent orchestrated` against the
// scripted loopback server and the fake executor: a token budget ends the run cleanly before the call that
// would pass it, also when resumed; and a run killed with SIGKILL (inside a measurement, or while a model
// call is in flight) resumes in a new process with no attempt lost or repeated, every ledger call ok once, no
// request sent again for a call recorded ok, and the attempts' tokens adding up to the ledger's.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <numeric>
#include <thread>

#include "../export/export_cases.h"
#include "../llm/fake_server.h"
#include "../temp_dir.h"
#include "fake_executor.h"
#include "model_script.h"
#include "store/workspace.h"
#include "workflow/optimize.h"

namespace ucut {
namespace {

using mantis::testing::FakeExecutor;
using namespace mantis::testing;
using nlohmann::json;

const std::string kProblem = "L1_001_square_matmul";

class ModelOptimize : public ::testing::Test {
 protected:
  void serve(const json& script) {
    ASSERT_NO_THROW(server_.start(script));
    std::filesystem::path root = golden::source_dir();
    o_.paths = {(root / "suites/kernelbench/level1/L1_001_square_matmul.toml").string()};
    o_.workspace = dir_.file("w.db");
    o_.seeds_dir = (root / "bench/kernelbench/impl").string();
    o_.baseline = "";
    o_.policy = sched::fixed_policy(10);
    o_.mantis.agent = mantis::Agent::orchestrated;
    o_.mantis.iterations = 2;
    o_.mantis.hypotheses = 1;
    o_.mantis.attempts = 2;
    o_.mantis.nominate = 3;
    llm::LlmConfig config;
    config.base_url = server_.base_url();
    config.model = "test-model";
    config.timeout_s = 10;
    config.max_retries = 0;
    config.usd_per_mtok_input = 1;
    config.usd_per_mtok_output = 2;
    o_.llm = config;
  }

  /// Two iterations of one kept hypothesis with two specs each; iteration 1's Implement answer is served
  /// twice when `in_flight_kill` (the first time slowly, to be killed while it waits), as a re-sent call is
  /// answered.
  static json two_iterations(bool in_flight_kill) {
    json implement_one =
        turn(implement_answer({tile_spec("128, 64, 32"), tile_spec("64, 128, 32")}), 500, 50);
    json script = json::array({turn(measure_answer(), 100, 10), turn(analyze_answer(), 200, 20),
                               turn(nominate_answer(), 300, 30), turn(triage_answer({0}), 400, 40)});
    if (in_flight_kill) {
      json slow = implement_one;
      slow["delay_s"] = 30;
      script.push_back(slow);
    }
    for (const json& t :
         {implement_one, turn(summarize_answer({0}), 600, 60), turn(measure_answer(), 110, 11),
          turn(analyze_answer(), 210, 21), turn(nominate_answer(), 310, 31),
          turn(triage_answer({2}), 410, 41),
          turn(implement_answer({tile_spec("128, 128, 16"), tile_spec("64, 64, 32")}), 510, 51),
          turn(summarize_answer({2}), 610, 61)})
      script.push_back(t);
    return script;
  }

  /// Forks a child that runs the optimization with `executor` and dies with SIGKILL: by its own hand, or by
  /// the test's once the server has received `kill_after_requests` requests (0: never).
  void run_killed(int kill_at_measure, size_t kill_after_requests) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::map<std::string, int> counts;
      SelfKilling executor(&counts, kill_at_measure);
      try {
        optimize(o_, executor, nullptr);
      } catch (...) {
      }
      _exit(3);  // not killed: the assertion below fails
    }
    if (kill_after_requests > 0) {
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (server_.requests().size() < kill_after_requests && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      kill(pid, SIGKILL);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the child was not killed: " << status;
  }

  /// After a resume: nothing pending or measured twice, every call ok once and never re-sent once recorded ok
  /// (`ok_at_kill`), iteration 1 keyed with the run that began it, and the tokens adding up.
  void expect_resumed_cleanly(const std::set<std::string>& finished_at_kill,
                              const std::set<int64_t>& ok_at_kill,
                              const std::map<std::string, int>& measured_on_resume) {
    store::Workspace ws = store::Workspace::open_read_only(o_.workspace);
    std::vector<store::AttemptRow> attempts = ws.attempts(kProblem);
    EXPECT_EQ(attempts.size(), 5u);  // the seed and 2 iterations x 1 hypothesis x 2 specs
    for (const store::AttemptRow& a : attempts) EXPECT_NE(a.status, store::AttemptStatus::pending) << a.id;
    for (const auto& [hash, n] : measured_on_resume) {
      EXPECT_EQ(n, 1) << hash;
      EXPECT_FALSE(finished_at_kill.count(hash)) << hash << " was measured before the kill and again after";
    }
    std::vector<json> requests = server_.requests();
    std::set<std::tuple<int64_t, int, std::string, int>> keys;
    for (const store::LlmCallRow& c : ws.llm_calls()) {
      EXPECT_EQ(c.status, store::LlmCallStatus::ok) << c.role << " " << c.seq;
      EXPECT_TRUE(keys.insert({c.run_id, c.iteration, c.role, c.seq}).second) << c.role << " " << c.seq;
      EXPECT_EQ(c.run_id, c.iteration == 1 ? 1 : 2)
          << c.role;  // iteration 1 keyed with the run that began it
      json messages = json::parse(c.request_json)["messages"];
      size_t sent = std::count_if(requests.begin(), requests.end(), [&](const json& r) {
        return json::parse(r["body"].get<std::string>())["messages"] == messages;
      });
      if (ok_at_kill.count(c.id)) {
        EXPECT_EQ(sent, 1u) << c.role << " was sent again after it was recorded ok";
      }
    }
    EXPECT_EQ(ws.llm_calls().size(), 12u);  // 6 phases x 2 iterations
    int64_t attempt_tokens = 0;
    for (const store::AttemptRow& a : attempts) attempt_tokens += a.tokens;
    EXPECT_EQ(attempt_tokens, ws.llm_usage().total().tokens());
  }

  /// What the workspace holds when the child died: finished attempts' config hashes, ok calls' ids.
  std::pair<std::set<std::string>, std::set<int64_t>> state_at_kill() {
    store::Workspace ws = store::Workspace::open_read_only(o_.workspace);
    std::set<std::string> finished;
    for (const store::AttemptRow& a : ws.attempts(kProblem))
      if (a.status != store::AttemptStatus::pending) finished.insert(a.config_hash);
    std::set<int64_t> ok;
    for (const store::LlmCallRow& c : ws.llm_calls())
      if (c.status == store::LlmCallStatus::ok) ok.insert(c.id);
    return {finished, ok};
  }

  ucut::testing::TempDir dir_{"ucut-model-optimize"};
  ucut::testing::FakeOpenAiServer server_;
  OptimizeOptions o_;
};

TEST_F(ModelOptimize, ATokenBudgetStopsTheRunBeforeTheCallThatWouldPassIt) {
  serve(json::array({turn(measure_answer(), 500, 100), turn(analyze_answer(), 500, 100),
                     turn(nominate_answer(), 500, 100)}));
  o_.policy.token_budget = 1000;
  std::map<std::string, int> counts;
  FakeExecutor executor(&counts);
  OptimizeReport r = optimize(o_, executor, nullptr);
  EXPECT_TRUE(r.message.empty()) << r.message;
  EXPECT_EQ(r.model_budget, "the run's token budget is spent: 1200 of 1000 tokens");
  EXPECT_EQ(r.model_calls, 2);
  EXPECT_EQ(r.model_tokens, 1200);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].left, "model_budget");
  EXPECT_NE(
      optimize_markdown(r).find("The run stopped: the run's token budget is spent: 1200 of 1000 tokens.\n"),
      std::string::npos);
  EXPECT_EQ(server_.requests().size(), 2u);  // Measure and Analyze; Nominate was not sent

  {
    store::Workspace ws = store::Workspace::open_read_only(o_.workspace);
    EXPECT_EQ(ws.llm_calls().size(), 2u);
    EXPECT_EQ(ws.attempts(kProblem).size(), 1u);  // the seed: measured, not lost
    json settings = json::parse(ws.runs().at(0).settings_json);
    EXPECT_EQ(settings["agent"], "orchestrated");
    EXPECT_EQ(settings["model"], "test-model");
    EXPECT_EQ(settings["base_url"], server_.base_url());
    EXPECT_EQ(settings["token_budget"], 1000);
    std::set<std::string> packs;
    for (const store::PromptPackRow& p : ws.prompt_packs(r.run_id)) packs.insert(p.name);
    EXPECT_EQ(packs, (std::set<std::string>{"dsl", "mantis", "profile", "sol"}));
  }

  // Resumed with the same budget: the recorded calls are charged first, so nothing is sent.
  FakeExecutor again(&counts);
  OptimizeReport resumed = optimize(o_, again, nullptr);
  EXPECT_EQ(resumed.model_budget, "the run's token budget is spent: 1200 of 1000 tokens");
  EXPECT_EQ(resumed.model_calls, 0);
  EXPECT_EQ(resumed.rows.at(0).left, "model_budget");
  EXPECT_EQ(server_.requests().size(), 2u);
}

TEST_F(ModelOptimize, AKillInsideAMeasurementResumesWithNothingLostOrRepeated) {
  serve(two_iterations(false));
  ASSERT_NO_FATAL_FAILURE(run_killed(3, 0));  // the seed, iteration 1's first spec, then dies in its second
  auto [finished, ok] = state_at_kill();
  EXPECT_EQ(finished.size(), 2u);
  EXPECT_EQ(ok.size(), 5u);  // Measure, Analyze, Nominate, Triage, Implement
  std::map<std::string, int> counts;
  FakeExecutor executor(&counts);
  OptimizeReport r = optimize(o_, executor, nullptr);
  EXPECT_TRUE(r.message.empty()) << r.message;
  EXPECT_EQ(r.model_calls, 7);  // iteration 1's Summarize, then iteration 2's six calls
  expect_resumed_cleanly(finished, ok, counts);
}

TEST_F(ModelOptimize, AKillWhileAModelCallIsInFlightResumesWithNothingLostOrRepeated) {
  serve(two_iterations(true));
  ASSERT_NO_FATAL_FAILURE(run_killed(-1, 5));  // killed while the server holds back iteration 1's Implement
  auto [finished, ok] = state_at_kill();
  EXPECT_EQ(finished.size(), 1u);  // the seed
  EXPECT_EQ(ok.size(), 4u);
  std::map<std::string, int> counts;
  FakeExecutor executor(&counts);
  OptimizeReport r = optimize(o_, executor, nullptr);
  EXPECT_TRUE(r.message.empty()) << r.message;
  EXPECT_EQ(r.model_calls, 8);  // Implement sent again (it was never recorded), Summarize, iteration 2's six
  expect_resumed_cleanly(finished, ok, counts);
}

}  // namespace
}  // namespace ucut
