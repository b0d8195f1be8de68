// tests/unit/mantis/model_loop_test.cpp — engine/mantis/loop.h with a model (Options::agent = orchestrated)
// against the scripted loopback server and the fake executor: a full iteration stores every phase's answer,
// its hypotheses, attempts (proposer, tokens), lessons and ledger rows; an invalid spec comes back with its
// diagnostics and is repaired; a malformed answer and a wrong triage index are repaired; a refusal and a
// context-length error end the iteration cleanly; a 429 is retried after its Retry-After.
#include <gtest/gtest.h>

#include <numeric>

#include "../llm/fake_server.h"
#include "../temp_dir.h"
#include "engine/mantis/loop.h"
#include "engine/model_ledger.h"
#include "fake_executor.h"
#include "model_script.h"
#include "sol/gpu_table.h"
#include "subjects.h"

namespace ucut::mantis {
namespace {

using namespace testing;
using nlohmann::json;

const char* kProblem = "L1_001_square_matmul";

class ModelLoop : public ::testing::Test {
 protected:
  ModelLoop() {
    ws_.upsert_problem(s_.row);
    run_ = ws_.begin_run({});
  }

  /// Serves `script`; the client retries `max_retries` times, recording its waits instead of sleeping.
  void serve(const json& script, int max_retries = 0) {
    ASSERT_NO_THROW(server_.start(script));
    llm::LlmConfig config;
    config.base_url = server_.base_url();
    config.model = "test-model";
    config.timeout_s = 10;
    config.max_retries = max_retries;
    config.usd_per_mtok_input = 1;
    config.usd_per_mtok_output = 2;
    llm::RetryEnv env = llm::RetryEnv::real();
    env.sleep = [this](double s) { sleeps_.push_back(s); };
    env.random01 = [] { return 0.0; };
    client_.emplace(config, env);
    ledger_.emplace(ws_, *client_);
  }

  Options options(int hypotheses = 2) {
    Options o;
    o.agent = Agent::orchestrated;
    o.hypotheses = hypotheses;
    o.attempts = 2;
    o.nominate = 3;
    o.model.ledger = &*ledger_;
    o.model.model = "test-model";
    std::string error;
    auto table = sol::load_default_gpu_table(&error);
    EXPECT_TRUE(table) << error;
    o.model.gpu = *table->find_key("h200");
    return o;
  }

  /// The seed step (no model call), then iteration 1.
  IterationResult iteration_one(const Options& o) {
    Loop loop(ws_, executor_, run_, o);
    EXPECT_EQ(loop.step(s_, nullptr).iteration, 0);
    IterationResult r = loop.step(s_, nullptr);
    EXPECT_EQ(r.iteration, 1);
    next_ = loop.next_iteration(kProblem);
    return r;
  }

  std::vector<store::AttemptRow> attempts(int iteration) {
    std::vector<store::AttemptRow> out;
    for (store::AttemptRow& a : ws_.attempts(kProblem))
      if (a.iteration == iteration) out.push_back(a);
    return out;
  }
  std::vector<store::LlmCallRow> calls(const std::string& role) {
    store::LlmCallFilter f;
    f.role = role;
    return ws_.llm_calls(f);
  }
  std::vector<json> stages(store::Stage stage) {
    std::vector<json> out;
    for (const store::StageRow& st : ws_.stages(kProblem, run_))
      if (st.iteration == 1 && st.stage == stage) out.push_back(json::parse(st.json));
    return out;
  }
  /// The user message of the server's `i`-th request.
  std::string user_message(size_t i) {
    json body = json::parse(server_.requests().at(i)["body"].get<std::string>());
    return body["messages"].back()["content"].get<std::string>();
  }

  ucut::testing::TempDir dir_{"ucut-model-loop"};
  store::Workspace ws_ = store::Workspace::open(dir_.file("w.db"));
  Subject s_ = square_matmul("unknown");
  int64_t run_ = 0;
  ucut::testing::FakeOpenAiServer server_;
  std::optional<llm::Client> client_;
  std::optional<engine::ModelLedger> ledger_;
  std::map<std::string, int> counts_;
  FakeExecutor executor_{&counts_};
  std::vector<double> sleeps_;
  int next_ = 0;
};

TEST_F(ModelLoop, AFullIterationStoresEveryPhasesAnswer) {
  serve(json::array({turn(measure_answer(true), 100, 10), turn(analyze_answer(), 200, 20),
                     turn(nominate_answer(), 300, 30), turn(triage_answer({2, 0}), 400, 40),
                     turn(implement_answer({tile_spec("128, 64, 32"), tile_spec("64, 128, 32")}), 500, 50),
                     turn(implement_answer({tile_spec("128, 128, 16"), tile_spec("64, 64, 32")}), 600, 60),
                     turn(summarize_answer({2, 0}), 700, 70)}));
  IterationResult r = iteration_one(options());
  EXPECT_FALSE(r.exhausted) << r.note;
  EXPECT_EQ(r.attempts, 4);
  EXPECT_EQ(next_, 2);

  // Measure asked to profile: the seed (the best) was profiled once; its stage keeps the answer.
  EXPECT_EQ(executor_.profiled.size(), 1u);
  std::vector<json> measure = stages(store::Stage::measure);
  ASSERT_EQ(measure.size(), 2u);  // the state it began from, then the model's answer
  EXPECT_EQ(measure[0]["call_run"], run_);
  EXPECT_EQ(measure[1]["model"], measure_answer(true));
  EXPECT_TRUE(measure[1].contains("profile"));
  json analyze = stages(store::Stage::analyze).at(0);
  EXPECT_EQ(analyze["bottleneck"], "compute");
  EXPECT_EQ(analyze["bottleneck_source"], "model");
  EXPECT_EQ(analyze["model"], analyze_answer());
  EXPECT_EQ(stages(store::Stage::triage).at(0)["keep"], json::array({2, 0}));
  EXPECT_EQ(stages(store::Stage::implement).at(0)["model"].size(), 2u);
  EXPECT_EQ(stages(store::Stage::summarize).at(0)["model"], summarize_answer({2, 0}));

  // Hypotheses: the model's three, two kept (in its order) and done, one dropped.
  std::vector<store::HypothesisRow> hs = ws_.hypotheses(kProblem);
  ASSERT_EQ(hs.size(), 3u);
  EXPECT_EQ(json::parse(hs[2].move_json)["change"], "wider tiles");
  EXPECT_EQ(hs[2].rationale, "wider tiles keeps the tensor cores busier");
  EXPECT_DOUBLE_EQ(hs[2].predicted_speedup, 1.4);
  EXPECT_DOUBLE_EQ(hs[2].risk_impl, 1.1);
  EXPECT_DOUBLE_EQ(hs[2].risk_perf, 1.3);
  EXPECT_EQ(hs[0].status, store::HypothesisStatus::done);
  EXPECT_EQ(hs[1].status, store::HypothesisStatus::dropped);
  EXPECT_EQ(hs[2].status, store::HypothesisStatus::done);
  EXPECT_EQ(hs[2].bottleneck, sol::Bottleneck::compute);

  // Attempts: the kept hypotheses' specs in the model's order, each with its share of the tokens: its own
  // Implement call over its two attempts plus the shared calls (1100 before, 770 for Summarize) over all
  // four.
  std::vector<store::AttemptRow> made = attempts(1);
  ASSERT_EQ(made.size(), 4u);
  EXPECT_EQ(made[0].spec, tile_spec("128, 64, 32"));
  EXPECT_EQ(made[0].hypothesis_id, hs[2].id);
  EXPECT_EQ(made[2].hypothesis_id, hs[0].id);
  std::vector<int64_t> tokens;
  for (const store::AttemptRow& a : made) {
    EXPECT_EQ(a.proposer, "model:test-model");
    tokens.push_back(a.tokens);
  }
  EXPECT_EQ(tokens, (std::vector<int64_t>{275 + 468, 275 + 468, 330 + 467, 330 + 467}));
  EXPECT_EQ(std::accumulate(tokens.begin(), tokens.end(), int64_t{0}), ws_.llm_usage().total().tokens());

  // Lessons: the model's sentences, the numbers from the measurements.
  std::vector<store::LessonRow> lessons = ws_.lessons("gemm", "square-large", "sm90a", 10);
  ASSERT_EQ(lessons.size(), 2u);
  for (const store::LessonRow& l : lessons) {
    bool wider = l.move_json == hs[2].move_json;
    const store::HypothesisRow& h = wider ? hs[2] : hs[0];
    EXPECT_EQ(l.text, wider ? "hypothesis 2 taught something" : "hypothesis 0 taught something");
    EXPECT_DOUBLE_EQ(l.expected_speedup, h.predicted_speedup);
    EXPECT_DOUBLE_EQ(l.measured_speedup, h.measured_speedup.value());
  }

  // One ledger row per phase call, all ok.
  for (const auto& [role, n] : std::map<std::string, size_t>{{"measure", 1},
                                                             {"analyze", 1},
                                                             {"nominate", 1},
                                                             {"triage", 1},
                                                             {"implement", 2},
                                                             {"summarize", 1}}) {
    ASSERT_EQ(calls(role).size(), n) << role;
    for (const store::LlmCallRow& c : calls(role)) EXPECT_EQ(c.status, store::LlmCallStatus::ok) << role;
  }
  // What the prompts carried: the profile's absence, the ROI ranking, the DSL pack and the hypothesis.
  EXPECT_NE(user_message(1).find("not profiled: the fake executor has no profiler"), std::string::npos);
  EXPECT_NE(user_message(3).find("hypothesis 2: wider tiles"), std::string::npos);
  EXPECT_NE(user_message(3).find("ROI"), std::string::npos);
  json implement = json::parse(server_.requests().at(4)["body"].get<std::string>());
  EXPECT_EQ(implement["messages"][0]["role"], "system");
  EXPECT_NE(implement["messages"][0]["content"].get<std::string>().find("μCUTLASS specs"), std::string::npos);
  EXPECT_NE(user_message(4).find("wider tiles"), std::string::npos);
  EXPECT_NE(user_message(4).find("with_threadblockshape(128, 128, 32)"), std::string::npos);  // the best spec
}

TEST_F(ModelLoop, AnInvalidSpecGoesBackWithItsDiagnosticsAndIsRepaired) {
  std::string seed = tile_spec("128, 128, 32");
  serve(json::array(
      {turn(measure_answer(), 10, 1), turn(analyze_answer(), 10, 1), turn(nominate_answer(), 10, 1),
       turn(triage_answer({0}), 10, 1),
       turn(implement_answer({tile_spec("128, 128, 30"), seed, tile_spec("128, 64, 32")}), 10, 1),
       turn(implement_answer({tile_spec("128, 128, 16")}), 10, 1), turn(summarize_answer({0}), 10, 1)}));
  IterationResult r = iteration_one(options(1));
  EXPECT_FALSE(r.exhausted) << r.note;
  std::vector<store::AttemptRow> made = attempts(1);
  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(made[0].spec, tile_spec("128, 64, 32"));
  EXPECT_EQ(made[1].spec, tile_spec("128, 128, 16"));
  ASSERT_EQ(calls("implement").size(), 2u);
  EXPECT_EQ(calls("implement")[1].seq, 1);
  // The second round's feedback: the invalid spec's rule, position, message and hint; the seed's config
  // skipped.
  std::string feedback = user_message(5);
  EXPECT_NE(feedback.find("spec 1: does not check:\n6:6 C213"), std::string::npos) << feedback;
  EXPECT_NE(feedback.find("hint: use `with_threadblockshape(128, 128, 16)`"), std::string::npos) << feedback;
  EXPECT_NE(feedback.find("spec 2: config " + engine::spec_config_hash(seed).substr(0, 12) +
                          " was measured already"),
            std::string::npos)
      << feedback;
  EXPECT_EQ(stages(store::Stage::implement).at(0)["model"][0]["rounds"].size(), 2u);
}

TEST_F(ModelLoop, AMalformedAnswerIsSentBackAndRepaired) {
  serve(json::array({turn(measure_answer(), 10, 1), turn(analyze_answer(), 10, 1),
                     turn(json("Here are three hypotheses: narrower, shorter, wider."), 10, 1),
                     turn(nominate_answer(), 10, 1), turn(triage_answer({0}), 10, 1),
                     turn(implement_answer({tile_spec("128, 64, 32")}), 10, 1),
                     turn(summarize_answer({0}), 10, 1)}));
  IterationResult r = iteration_one(options(1));
  EXPECT_FALSE(r.exhausted) << r.note;
  EXPECT_EQ(r.attempts, 1);
  ASSERT_EQ(calls("nominate").size(), 2u);
  EXPECT_NE(user_message(3).find("the answer holds no JSON object"), std::string::npos);
  EXPECT_EQ(ws_.hypotheses(kProblem).size(), 3u);
}

TEST_F(ModelLoop, AWrongTriageIndexIsAnInvalidAnswer) {
  serve(json::array(
      {turn(measure_answer(), 10, 1), turn(analyze_answer(), 10, 1), turn(nominate_answer(), 10, 1),
       turn(triage_answer({5}), 10, 1), turn(triage_answer({1, 1}), 10, 1), turn(triage_answer({1}), 10, 1),
       turn(implement_answer({tile_spec("128, 64, 32")}), 10, 1), turn(summarize_answer({1}), 10, 1)}));
  IterationResult r = iteration_one(options(1));
  EXPECT_FALSE(r.exhausted) << r.note;
  ASSERT_EQ(calls("triage").size(), 3u);
  EXPECT_NE(user_message(4).find("`keep` names hypothesis 5, but the hypotheses are numbered 0 to 2"),
            std::string::npos);
  EXPECT_NE(user_message(5).find("`keep` names hypothesis 1 twice"), std::string::npos);
  std::vector<store::HypothesisRow> hs = ws_.hypotheses(kProblem);
  EXPECT_EQ(hs[1].status, store::HypothesisStatus::done);
  EXPECT_EQ(attempts(1).at(0).hypothesis_id, hs[1].id);
}

TEST_F(ModelLoop, ARefusalEndsTheIterationWithANoteAndLosesNothing) {
  json refusal = completion("", 10, 1);
  refusal["choices"][0]["message"]["refusal"] = "I can't help with that.";
  serve(json::array({turn(measure_answer(), 10, 1), {{"status", 200}, {"json", refusal}}}));
  IterationResult r = iteration_one(options());
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.note.rfind("L1_001_square_matmul iteration 1: the analyze phase failed: the model refused", 0),
            0u)
      << r.note;
  EXPECT_TRUE(attempts(1).empty());
  ASSERT_EQ(attempts(0).size(), 1u);
  EXPECT_EQ(attempts(0)[0].status, store::AttemptStatus::measured);
  EXPECT_EQ(stages(store::Stage::analyze).at(0)["error"], r.note);
  EXPECT_EQ(next_, 1);  // the iteration stays open: the next run asks again
}

TEST_F(ModelLoop, ARateLimitIsRetriedAfterItsRetryAfter) {
  json error = {{"message", "Rate limit reached"}, {"type", "requests"}, {"code", "rate_limit_exceeded"}};
  json rate_limited = {{"status", 429}, {"headers", {{"Retry-After", "1"}}}, {"json", {{"error", error}}}};
  serve(json::array({rate_limited, turn(measure_answer(), 10, 1), turn(analyze_answer(), 10, 1),
                     turn(nominate_answer(), 10, 1), turn(triage_answer({0}), 10, 1),
                     turn(implement_answer({tile_spec("128, 64, 32")}), 10, 1),
                     turn(summarize_answer({0}), 10, 1)}),
        2);
  IterationResult r = iteration_one(options(1));
  EXPECT_FALSE(r.exhausted) << r.note;
  EXPECT_EQ(sleeps_, std::vector<double>{1.0});
  ASSERT_EQ(calls("measure").size(), 1u);
  EXPECT_EQ(calls("measure")[0].status, store::LlmCallStatus::ok);
  EXPECT_EQ(calls("measure")[0].attempts, 2);
  EXPECT_EQ(attempts(1).size(), 1u);
}

TEST_F(ModelLoop, AContextLengthErrorEndsTheIterationWithANote) {
  json error = {{"message", "This model's maximum context length is 8192 tokens"},
                {"type", "invalid_request_error"},
                {"code", "context_length_exceeded"}};
  json too_long = {{"status", 400}, {"json", {{"error", error}}}};
  serve(json::array({turn(measure_answer(), 10, 1), turn(analyze_answer(), 10, 1), too_long}));
  IterationResult r = iteration_one(options());
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.note.rfind("L1_001_square_matmul iteration 1: the nominate phase failed: ", 0), 0u) << r.note;
  EXPECT_NE(r.note.find("context_length"), std::string::npos) << r.note;
  ASSERT_EQ(calls("nominate").size(), 1u);
  EXPECT_EQ(calls("nominate")[0].status, store::LlmCallStatus::failed);
  EXPECT_TRUE(ws_.hypotheses(kProblem).empty());
  EXPECT_EQ(next_, 1);
}

}  // namespace
}  // namespace ucut::mantis
