// tests/unit/cudamaster/rounds_test.cpp — engine/cudamaster/rounds.h against the scripted loopback server and
// a fake evaluator: a whole round, Debug fixing a compile error and an interface change, D exhausted, a
// slower candidate, the two profile views, what the ledger and the workspace hold, a run without a GPU, a
// failed call, and a resume after kill -9.
#include "engine/cudamaster/rounds.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>

#include "../llm/fake_server.h"
#include "../store/fixture.h"
#include "engine/cudamaster/attempts.h"
#include "engine/cudamaster/roles.h"
#include "fakes.h"

namespace ucut::engine::cudamaster {
namespace {

using nlohmann::json;
using testing::coder;
using testing::compiler;
using testing::debugger;
using testing::FakeEvaluator;
using testing::file_with;
using testing::planner;

class Rounds : public ::testing::Test {
 protected:
  void SetUp() override {
    store::Workspace ws = store::Workspace::open(path());
    store::ProblemRow p;
    p.id = "RELU";
    p.family = "mskb";
    ws.upsert_problem(p);
    run_id_ = ws.begin_run(store::testing::sample_run("ucutlass mskb optimize RELU"));
  }

  void serve(const json& script) {
    ASSERT_NO_THROW(server_.start(script));
    config_.base_url = server_.base_url();
    config_.model = "test-model";
    config_.timeout_s = 10;
    config_.max_retries = 0;
    config_.usd_per_mtok_input = 1;
    config_.usd_per_mtok_output = 2;
  }

  PairResult run(FakeEvaluator& eval, const Options& o, int64_t run_id = 0) {
    store::Workspace ws = store::Workspace::open(path());
    llm::Client client(config_);
    ModelLedger ledger(ws, client);
    return optimize_pair(ws, ledger, eval,
                         {mskb::find_task("RELU"), mskb::Precision::fp32, "RELU", run_id ? run_id : run_id_},
                         o);
  }

  /// The first message of every request the server got, in order.
  std::vector<std::string> prompts() const {
    std::vector<std::string> out;
    for (const json& r : server_.requests())
      out.push_back(json::parse(r["body"].get<std::string>())["messages"][0]["content"].get<std::string>());
    return out;
  }

  std::vector<store::AttemptRow> attempts() { return store::Workspace::open(path()).attempts("RELU"); }
  std::vector<store::StageRow> stages(store::Stage kind) {
    std::vector<store::StageRow> out;
    for (const store::StageRow& s : store::Workspace::open(path()).stages("RELU", run_id_))
      if (s.stage == kind) out.push_back(s);
    return out;
  }

  static Options rounds(int r, int d = 3) {
    Options o;
    o.rounds = r;
    o.debug_tries = d;
    return o;
  }

  std::string path() const { return dir_.file("ws.db"); }

  ucut::testing::TempDir dir_{"ucut-cudamaster"};
  ucut::testing::FakeOpenAiServer server_;
  llm::LlmConfig config_;
  int64_t run_id_ = 0;
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_F(Rounds, AFullRoundPlansCodesCompilesAndReplacesTheBest) {
  serve({planner("Scheme: one thread per element with float4 loads; the profile shows DRAM at 11%."),
         coder(file_with("fast")), compiler(R"(["-O3", "-use_fast_math", "-arch=sm_80"])")});
  FakeEvaluator eval;
  PairResult r = run(eval, rounds(1));
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::faster);
  EXPECT_TRUE(r.improved);
  EXPECT_EQ(r.best_score, 2.5);
  EXPECT_EQ(r.best_code, file_with("fast"));

  // The harness saw the naive launcher, then the Coder's file with the Compiler's one allowed option.
  ASSERT_EQ(eval.evaluated.size(), 2u);
  EXPECT_TRUE(eval.evaluated[0].naive);
  EXPECT_EQ(eval.evaluated[1].code, file_with("fast"));
  EXPECT_EQ(eval.evaluated[1].flags, std::vector<std::string>{"-use_fast_math"});
  ASSERT_EQ(eval.profiled.size(), 1u);  // the naive launcher, before the Planner
  EXPECT_TRUE(eval.profiled[0].naive);

  // Each role was shown what it needs.
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(has(p[0], "You are the Planner")) << p[0];
  EXPECT_TRUE(has(p[0], eval.naive_code()));
  EXPECT_TRUE(has(p[0], "Profile of `RELU_kernel` (Nsight Compute, filtered)")) << p[0];
  EXPECT_TRUE(has(p[0], "None yet")) << p[0];
  EXPECT_TRUE(has(p[0], "NVIDIA H100 80GB HBM3")) << "the GPU that measured the naive launcher";
  EXPECT_TRUE(has(p[1], "You are the Coder"));
  EXPECT_TRUE(has(p[1], "void RELU_optimized(float* output, const float* input, int N)")) << p[1];
  EXPECT_TRUE(has(p[1], "float4 loads"));
  EXPECT_TRUE(has(p[2], "You are the Compiler"));
  EXPECT_TRUE(has(p[2], file_with("fast")));
  EXPECT_TRUE(has(p[2], "-use_fast_math, -ftz=true|false")) << "the Compiler is shown the options it may add";

  // The workspace: the seed and the candidate as attempts, the calls by role, the stages, the packs.
  std::vector<store::AttemptRow> a = attempts();
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].proposer, "seed");
  EXPECT_EQ(a[1].proposer, "cudamaster:coder");
  EXPECT_EQ(a[1].spec, file_with("fast"));
  EXPECT_EQ(a[1].iteration, 1);
  EXPECT_TRUE(a[1].counts());
  EXPECT_EQ(a[1].tokens, 3400 + 3400 + 1560) << "the Planner's, the Coder's and the Compiler's calls";
  store::Workspace ws = store::Workspace::open(path());
  std::vector<store::LlmCallRow> calls = ws.llm_calls({});
  ASSERT_EQ(calls.size(), 3u);
  std::vector<std::string> roles;
  for (const store::LlmCallRow& c : calls) {
    roles.push_back(c.role);
    EXPECT_EQ(c.run_id, run_id_);
    EXPECT_EQ(c.problem_id, "RELU");
    EXPECT_EQ(c.iteration, 1);
    EXPECT_EQ(c.status, store::LlmCallStatus::ok);
  }
  EXPECT_EQ(roles, (std::vector<std::string>{"planner", "coder", "compiler"}));
  store::LlmUsage usage = ws.llm_usage({});
  ASSERT_EQ(usage.roles.size(), 3u);
  EXPECT_EQ(usage.roles[0].role, "coder");
  EXPECT_EQ(usage.roles[0].prompt_tokens, 2500);
  EXPECT_EQ(usage.roles[0].completion_tokens, 900);
  EXPECT_EQ(usage.roles[1].role, "compiler");
  EXPECT_EQ(usage.roles[1].tokens(), 1560);
  EXPECT_EQ(usage.roles[2].role, "planner");
  EXPECT_EQ(usage.roles[2].tokens(), 3400);
  ASSERT_EQ(stages(store::Stage::analyze).size(), 1u);
  ASSERT_EQ(stages(store::Stage::nominate).size(), 1u);
  ASSERT_EQ(stages(store::Stage::implement).size(), 1u);
  json implement = json::parse(stages(store::Stage::implement)[0].json);
  EXPECT_EQ(implement["redundant_flags"], json::array({"-O3"}));
  ASSERT_EQ(implement["refused_flags"].size(), 1u);
  EXPECT_TRUE(has(implement["refused_flags"][0], "-arch=sm_80: the target is the harness's"))
      << implement["refused_flags"];
  ASSERT_EQ(stages(store::Stage::summarize).size(), 1u);
  EXPECT_EQ(json::parse(stages(store::Stage::summarize)[0].json)["outcome"], "faster");
  std::set<std::string> packs;
  for (const store::PromptPackRow& pack : ws.prompt_packs(run_id_))
    packs.insert(pack.name + " v" + pack.version);
  EXPECT_EQ(packs, (std::set<std::string>{"cudamaster v2", "profile v1"}));
  EXPECT_EQ(ws.problem("RELU")->baseline_ms, 2.0) << "the naive launcher's time is the problem's baseline";
}

TEST_F(Rounds, DebugFixesACompileError) {
  serve({planner("Scheme: vectorize."), coder(file_with("typo")), compiler(),
         debugger("Line 7 spells `flaot`; write `float`."), coder(file_with("fast")), compiler()});
  FakeEvaluator eval;
  PairResult r = run(eval, rounds(1));
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::faster);
  EXPECT_EQ(r.rounds[0].debug_tries, 1);
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(has(p[3], "You are the Debug agent"));
  EXPECT_TRUE(has(p[3], "failed at the **build** stage (debug try 1 of 3)")) << p[3];
  EXPECT_TRUE(has(p[3], "identifier \"flaot\" is undefined"));
  EXPECT_TRUE(has(p[3], file_with("typo"))) << "Debug sees the failing file";
  EXPECT_TRUE(has(p[4], "Line 7 spells `flaot`")) << "the Coder gets the diagnosis";
  EXPECT_TRUE(has(p[4], file_with("typo"))) << "and the file it refers to";
  std::vector<store::AttemptRow> a = attempts();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[1].status, store::AttemptStatus::build_failed);
  EXPECT_EQ(a[1].error, "RELU.cu(7): error: identifier \"flaot\" is undefined");
  EXPECT_EQ(a[2].proposer, "cudamaster:debug");
  EXPECT_EQ(a[2].tokens, 2300 + 3400 + 1560) << "the Debug, Coder and Compiler calls of that try";
  EXPECT_TRUE(a[2].counts());
}

json review(const std::string& verdict, const std::string& evidence = "") {
  json findings = json::array();
  if (!evidence.empty()) findings.push_back({{"kind", "special_cased"}, {"evidence", evidence}});
  return testing::turn(json{{"verdict", verdict}, {"findings", findings}}.dump(), 800, 50);
}

TEST_F(Rounds, TheDetectorFailsAShortcutAndDebugReadsItsFindings) {
  serve({planner("Scheme: vectorize."), coder(file_with("fast")), compiler(),
         review("shortcut", "returns the cached output when N == 1024"),
         debugger("Drop the N == 1024 branch; compute every element."), coder(file_with("faster")), compiler(),
         review("clean")});
  FakeEvaluator eval;
  Options o = rounds(1);
  o.detector = true;
  PairResult r = run(eval, o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::faster);
  EXPECT_EQ(r.best_code, file_with("faster")) << "the reviewed-clean file, not the shortcut";
  EXPECT_EQ(r.best_score, 3.0);

  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 8u);
  EXPECT_TRUE(has(p[3], file_with("fast"))) << "the reviewer reads the verified file";
  EXPECT_TRUE(has(p[3], "P (the complexity-weighted mean speedup over the naive launcher) 2.5")) << p[3];
  EXPECT_TRUE(has(p[4], "failed at the **integrity** stage")) << p[4];
  EXPECT_TRUE(has(p[4], "returns the cached output when N == 1024")) << "Debug reads the findings";

  std::vector<store::AttemptRow> a = attempts();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_TRUE(a[0].flags.empty()) << "the naive launcher is not reviewed";
  EXPECT_EQ(a[1].flags, std::vector<FlagId>{FlagId::model_shortcut});
  EXPECT_TRUE(a[1].flagged);
  EXPECT_FALSE(a[1].counts());
  EXPECT_EQ(json::parse(a[1].result_json)["model_review"]["verdict"], "shortcut");
  EXPECT_EQ(a[1].tokens, 3400 + 3400 + 1560 + 850) << "the review's tokens go to the reviewed candidate";
  EXPECT_TRUE(a[2].counts());
  EXPECT_EQ(json::parse(a[2].result_json)["model_review"]["verdict"], "clean");
  std::set<std::string> roles;
  for (const store::LlmCallRow& c : store::Workspace::open(path()).llm_calls({})) roles.insert(c.role);
  EXPECT_TRUE(roles.count("detector"));
}

TEST_F(Rounds, WithoutTheDetectorNoCandidateIsReviewed) {
  serve({planner("Scheme: vectorize."), coder(file_with("fast")), compiler()});
  FakeEvaluator eval;
  PairResult r = run(eval, rounds(1));
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_EQ(prompts().size(), 3u);
  EXPECT_FALSE(json::parse(attempts()[1].result_json).contains("model_review"));
}

TEST_F(Rounds, AnInterfaceChangeIsRefusedWithItsNamedErrorThenFixed) {
  serve({planner("Scheme: take doubles."), coder(file_with("signature")), compiler(),
         debugger("The launcher takes double*; the interface is float*. Restore it."),
         coder(file_with("fast")), compiler()});
  FakeEvaluator eval;
  PairResult r = run(eval, rounds(1));
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::faster);
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(has(p[3], "failed at the **interface** stage")) << p[3];
  EXPECT_TRUE(has(
      p[3], "[mskb-launcher-signature] the launcher must be void RELU_optimized(float*, const float*, int)"))
      << p[3];
  std::vector<store::AttemptRow> a = attempts();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[1].status, store::AttemptStatus::check_failed);
  EXPECT_TRUE(has(a[1].error, "mskb-launcher-signature"));
  json first_try = json::parse(stages(store::Stage::implement)[0].json);
  EXPECT_EQ(first_try["verdict"], "interface");
}

TEST_F(Rounds, ExhaustedDebugTriesRecordTheSchemeAsFailedAndTheNextPlannerSeesIt) {
  serve({planner("Scheme one: a warp per row."), coder(file_with("wrong")), compiler(),
         debugger("The index skips every other element."), coder(file_with("wrong", "// second try\n")),
         compiler(), planner("Scheme two: a grid-stride loop."), coder(file_with("fast")), compiler()});
  FakeEvaluator eval;
  PairResult r = run(eval, rounds(2, 1));
  ASSERT_EQ(r.rounds.size(), 2u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::failed);
  EXPECT_EQ(r.rounds[0].debug_tries, 1);
  EXPECT_TRUE(has(r.rounds[0].why, "the last try failed at the verify stage")) << r.rounds[0].why;
  EXPECT_EQ(r.rounds[1].outcome, Outcome::faster);
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 9u);
  EXPECT_TRUE(has(p[6], "Scheme one: a warp per row.")) << p[6];
  EXPECT_TRUE(has(p[6],
                  "failed after 1 debug try: the last try failed at the verify stage: case N=1024: wrong "
                  "result: output: 512 of 1024 elements wrong"))
      << p[6];
  EXPECT_TRUE(has(p[6], eval.naive_code())) << "the best is still the naive launcher";
  EXPECT_EQ(eval.profiled.size(), 1u) << "an unchanged best is not profiled again";
  json failed = json::parse(stages(store::Stage::summarize)[0].json);
  EXPECT_EQ(failed["outcome"], "failed");
  EXPECT_EQ(failed["attempts"].size(), 2u);
}

TEST_F(Rounds, AVerifiedButSlowerCandidateDoesNotReplaceTheBest) {
  serve({planner("Scheme one."), coder(file_with("fast")), compiler(), planner("Scheme two: more threads."),
         coder(file_with("slow")), compiler()});
  FakeEvaluator eval;
  PairResult r = run(eval, rounds(2));
  ASSERT_EQ(r.rounds.size(), 2u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::faster);
  EXPECT_EQ(r.rounds[1].outcome, Outcome::not_faster);
  EXPECT_EQ(r.rounds[1].best_before, 2.5);
  EXPECT_EQ(r.best_score, 2.5);
  EXPECT_EQ(r.best_code, file_with("fast"));
  EXPECT_EQ(r.best_attempt, attempts()[1].id);
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(has(p[3], file_with("fast"))) << "round 2 plans from the new best";
  EXPECT_TRUE(has(p[3], "verified and faster: P 2.50 over the naive launcher (the best was 1.00)")) << p[3];
  ASSERT_EQ(eval.profiled.size(), 2u) << "the new best is profiled";
  EXPECT_EQ(eval.profiled[1].code, file_with("fast"));
  EXPECT_EQ(eval.profiled[1].flags, std::vector<std::string>{"-use_fast_math"})
      << "with the options it was built with";
  json second = json::parse(stages(store::Stage::summarize)[1].json);
  EXPECT_EQ(second["outcome"], "not_faster");
}

TEST_F(Rounds, ThePlannerSeesTheFilteredOrTheFullProfile) {
  serve({planner("Scheme."), coder(file_with("fast")), compiler(), planner("Scheme."),
         coder(file_with("fast")), compiler()});
  FakeEvaluator filtered_eval, full_eval;
  Options full = rounds(1);
  full.profile_view = ProfileView::full;
  run(filtered_eval, rounds(1));
  // A second workspace: the same pair with the full view.
  std::filesystem::rename(path(), dir_.file("filtered.db"));
  SetUp();
  run(full_eval, full);
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(has(p[0], "(Nsight Compute, filtered)"));
  EXPECT_FALSE(has(p[0], "every metric read"));
  EXPECT_TRUE(has(p[3], "(Nsight Compute, every metric read)"));
  EXPECT_TRUE(has(p[3], std::string(profile::metric::dram_throughput)))
      << "raw metric names in the full view";
  EXPECT_TRUE(has(p[3], "n/a")) << "metrics ncu did not give are listed too";
  EXPECT_GT(p[3].size(), p[0].size());
  json nominate = json::parse(stages(store::Stage::nominate)[0].json);
  EXPECT_EQ(nominate["profile_view"], "full");
  json analyze = json::parse(stages(store::Stage::analyze)[0].json);
  EXPECT_TRUE(analyze["counters"].get<bool>());
  EXPECT_TRUE(has(analyze["filtered"], "(Nsight Compute, filtered)")) << "both views are stored";
  EXPECT_EQ(analyze["bottleneck"], "memory_latency");
}

TEST_F(Rounds, WithoutAGpuTheRoundsGoAsFarAsBuilding) {
  serve({planner("Scheme."), coder(file_with("typo")), compiler(), debugger("Fix the typo."),
         coder(file_with("gpu")), compiler()});
  FakeEvaluator eval;
  eval.has_gpu = false;
  PairResult r = run(eval, rounds(3));
  EXPECT_TRUE(has(r.needs_gpu, "timing needs a CUDA GPU")) << r.needs_gpu;
  EXPECT_TRUE(r.rounds.empty()) << "a round whose candidate could not be verified has no outcome";
  EXPECT_FALSE(r.best_score);
  EXPECT_TRUE(eval.profiled.empty());
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(has(p[0], "the best launcher has not been timed: timing needs a CUDA GPU")) << p[0];
  std::vector<store::AttemptRow> a = attempts();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].status, store::AttemptStatus::pending) << "the naive launcher waits for a GPU";
  EXPECT_EQ(a[1].status, store::AttemptStatus::build_failed) << "a build error needs no GPU";
  EXPECT_EQ(a[2].status, store::AttemptStatus::pending);
  EXPECT_TRUE(stages(store::Stage::summarize).empty());
}

TEST_F(Rounds, ARunWithoutAGpuResumesOnOneWithAFreshPlan) {
  serve({planner("Scheme A."), coder(file_with("typo")), compiler(), debugger("Fix the typo."),
         coder(file_with("fast")), compiler(), planner("Scheme B, with the profile."),
         coder(file_with("fast")), compiler()});
  FakeEvaluator no_gpu;
  no_gpu.has_gpu = false;
  ASSERT_FALSE(run(no_gpu, rounds(1)).needs_gpu.empty());
  FakeEvaluator gpu;
  PairResult r = run(gpu, rounds(1));
  ASSERT_TRUE(r.error.empty() && r.needs_gpu.empty()) << r.error << r.needs_gpu;
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::faster);
  EXPECT_EQ(r.rounds[0].scheme, "Scheme B, with the profile.");
  std::vector<std::string> p = prompts();
  ASSERT_EQ(p.size(), 9u) << "the Planner is asked again: now there is a profile";
  EXPECT_TRUE(has(p[6], "Profile of `RELU_kernel`"));
  // The seed and the candidate left pending are measured now, the build failure is kept, nothing is doubled.
  ASSERT_EQ(gpu.evaluated.size(), 2u);
  EXPECT_TRUE(gpu.evaluated[0].naive);
  EXPECT_EQ(gpu.evaluated[1].code, file_with("fast"));
  std::vector<store::AttemptRow> a = attempts();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[1].status, store::AttemptStatus::build_failed);
  EXPECT_TRUE(a[2].counts());
  EXPECT_EQ(stages(store::Stage::nominate).size(), 2u) << "each plan keeps its own row";
  EXPECT_EQ(stages(store::Stage::implement).size(), 2u) << "the build failure's try and the new round's";
  EXPECT_EQ(stages(store::Stage::summarize).size(), 1u);
}

TEST_F(Rounds, AFailedCallStopsThePairWithoutAnOutcome) {
  serve({planner("Scheme."), {{"status", 500}, {"json", {{"error", {{"message", "overloaded"}}}}}}});
  FakeEvaluator eval;
  PairResult r = run(eval, rounds(1));
  EXPECT_TRUE(has(r.error, "the coder call failed")) << r.error;
  EXPECT_TRUE(r.rounds.empty());
  EXPECT_TRUE(stages(store::Stage::summarize).empty()) << "a resumed run asks again";
}

TEST_F(Rounds, AKillMidRunResumesWithNoDuplicateAttemptAndNoCallSentTwice) {
  serve({planner("Scheme one."), coder(file_with("wrong")), compiler(), debugger("Fix the index."),
         coder(file_with("fast")), compiler(), planner("Scheme two."), coder(file_with("slow")), compiler()});
  Options o = rounds(2, 1);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    FakeEvaluator blocking(
        3, fds[1]);  // the naive launcher, the wrong file, then the fixed one: killed measuring it
    run(blocking, o);
    _exit(0);
  }
  close(fds[1]);
  char byte = 0;
  ASSERT_EQ(read(fds[0], &byte, 1), 1) << "the child never reached the third evaluation";
  close(fds[0]);
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_EQ(server_.requests().size(), 6u);
  std::vector<store::AttemptRow> before = attempts();
  ASSERT_EQ(before.size(), 3u);
  EXPECT_EQ(before[2].status, store::AttemptStatus::pending) << "killed while it was measured";

  int64_t resumed_run = store::Workspace::open(path()).begin_run(store::testing::sample_run("resume"));
  FakeEvaluator eval;
  PairResult r = run(eval, o, resumed_run);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.rounds.size(), 2u);
  EXPECT_EQ(r.rounds[0].outcome, Outcome::faster);
  EXPECT_EQ(r.rounds[1].outcome, Outcome::not_faster);
  // Only the candidate killed mid-measurement and the new one were measured; the rest was read back.
  ASSERT_EQ(eval.evaluated.size(), 2u);
  EXPECT_EQ(eval.evaluated[0].code, file_with("fast"));
  EXPECT_EQ(eval.evaluated[1].code, file_with("slow"));
  // Every call was sent once: the six before the kill were answered from the ledger.
  EXPECT_EQ(server_.requests().size(), 9u);
  store::Workspace ws = store::Workspace::open(path());
  std::vector<store::LlmCallRow> calls = ws.llm_calls({});
  ASSERT_EQ(calls.size(), 9u);
  for (const store::LlmCallRow& c : calls) {
    EXPECT_EQ(c.status, store::LlmCallStatus::ok);
    EXPECT_EQ(c.run_id, run_id_) << "keyed under the run that began the pair";
  }
  std::vector<store::AttemptRow> after = attempts();
  ASSERT_EQ(after.size(), 4u);
  std::set<std::string> hashes;
  for (const store::AttemptRow& a : after) {
    hashes.insert(a.config_hash);
    EXPECT_NE(a.status, store::AttemptStatus::pending);
  }
  EXPECT_EQ(hashes.size(), 4u);
  EXPECT_EQ(after[2].id, before[2].id) << "the interrupted attempt was finished, not claimed again";
  EXPECT_EQ(after[3].run_id, resumed_run) << "the new candidate belongs to the run that measured it";
  EXPECT_EQ(stages(store::Stage::summarize).size(), 2u);
  EXPECT_EQ(stages(store::Stage::implement).size(), 3u);
}

}  // namespace
}  // namespace ucut::engine::cudamaster
