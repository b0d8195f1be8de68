// tests/unit/mantis/optimize_test.cpp — workflow/optimize.h end to end on two suite problems with a fake
// executor: budgets hold, a second run on the same workspace resumes without measuring anything again, the
// SOL policy retires a problem near its bound, without a GPU the run says so before compiling, leaves each
// problem's candidate compiled and pending, and ends with what it did, and the status line counts the attempts.
#include "workflow/optimize.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../export/export_cases.h"
#include "../temp_dir.h"
#include "fake_executor.h"
#include "store/workspace.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;
using mantis::testing::FakeExecutor;

struct OptimizeRun {
  ucut::testing::TempDir tmp{"ucut-optimize"};
  fs::path dir = tmp.path();
  OptimizeOptions o;
  std::vector<std::string> lines;
  OptimizeRun(double eager_ms) {
    fs::path root = golden::source_dir();
    o.paths = {(root / "suites/kernelbench/level1/L1_001_square_matmul.toml").string(),
               (root / "suites/kernelbench/level2/L2_012_gemm_multiply_leakyrelu.toml").string()};
    o.workspace = (dir / "sub/w.db").string();  // its folder is created
    o.seeds_dir = (root / "bench/kernelbench/impl").string();
    o.baseline = (dir / "baseline.json").string();
    std::ofstream(o.baseline) << nlohmann::json{
        {"date", "2026-12-01"},
        {"problems", {{{"problem", "L1_001_square_matmul"}, {"eager", {{"median", eager_ms}}}},
                      {{"problem", "L2_012_gemm_multiply_leakyrelu"}, {"eager", {{"median", eager_ms}}}}}}};
    o.policy = *sched::parse_policy("fixed", 6, nullptr);
  }
  OptimizeReport go(engine::Executor& ex) {
    return optimize(o, ex, [this](const std::string& l) { lines.push_back(l); });
  }
};

TEST(Optimize, FixedBudgetThenAResumeThatMeasuresNothingAgain) {
  OptimizeRun run(1.5);
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  OptimizeReport r = run.go(ex);
  EXPECT_TRUE(r.message.empty()) << r.message;
  ASSERT_EQ(r.rows.size(), 2u);
  for (const OptimizeRow& row : r.rows) {
    EXPECT_EQ(row.status, OptimizeStatus::optimized);
    EXPECT_GE(row.attempts, 2) << row.problem;
    EXPECT_LE(row.attempts, 6) << row.problem;
    EXPECT_FALSE(row.left.empty()) << row.problem;
    EXPECT_TRUE(row.best_ms && row.baseline_ms && row.sol_tf32_ms);
  }
  EXPECT_EQ(r.attempts_this_run, r.rows[0].attempts + r.rows[1].attempts);
  EXPECT_FALSE(run.lines.empty());
  EXPECT_NE(optimize_markdown(r).find("| L1_001_square_matmul |"), std::string::npos);

  FakeExecutor again(&counts);
  OptimizeReport second = run.go(again);
  EXPECT_EQ(second.attempts_this_run, 0);
  EXPECT_EQ(again.calls, 0);
  for (const auto& [hash, n] : counts) EXPECT_EQ(n, 1) << hash;
  store::Workspace ws = store::Workspace::open(run.o.workspace);
  EXPECT_EQ(ws.runs().size(), 2u);
  for (const store::RunRow& rr : ws.runs()) EXPECT_FALSE(rr.finished.empty());
}

// The status line counts the attempts against the problems' unspent budget (2 x 6), which shrinks to what was
// spent as problems retire early.
TEST(Optimize, TheStatusLineCountsAttemptsAgainstTheUnspentBudget) {
  OptimizeRun run(1.5);
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  std::ostringstream out;
  double now = 0;
  OptimizeReport r;
  {
    Progress status(out, true, 200, [&] { return now += 0.2; });  // every redraw is due
    auto log = [&](const std::string& l) { status.print(l); };
    r = optimize(run.o, ex, log, &status);
  }
  std::string text = out.str();
  EXPECT_NE(text.find("\r\x1b[Koptimizing [0/12] (0:00 elapsed)"), std::string::npos) << text;
  EXPECT_NE(text.find("optimizing [1/"), std::string::npos) << text;
  EXPECT_NE(text.find(" L1_001_square_matmul it1 "), std::string::npos) << text;  // the turn in hand
  size_t last = text.rfind("\r\x1b[Koptimizing [");
  ASSERT_NE(last, std::string::npos);
  std::string done = std::to_string(r.attempts_this_run);
  EXPECT_EQ(text.substr(last + 4, 14 + 2 * done.size()), "optimizing [" + done + "/" + done + "]") << text;
  // An attempt's line, printed above the status line, which is erased at the end.
  EXPECT_NE(text.find("\x1b[KL1_001_square_matmul it1 #"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\r\x1b[K"));
}

TEST(Optimize, SolPolicyRetiresAProblemNearItsBound) {
  OptimizeRun run(100);  // every attempt beats this baseline
  run.o.policy = *sched::parse_policy("sol:eps=100,window=8", 40, nullptr);  // within 101x of the FP16 bound
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  OptimizeReport r = run.go(ex);
  for (const OptimizeRow& row : r.rows) {
    EXPECT_EQ(row.left, "near_sol") << row.problem;
    EXPECT_EQ(row.attempts, 1) << row.problem;  // the seed was enough
  }
}

TEST(Optimize, WithoutAGpuTheRunSaysSoFirstAndEndsWithWhatItDid) {
  OptimizeRun run(1.5);
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  ex.no_gpu = true;
  size_t compiled_before_note = SIZE_MAX;
  OptimizeReport r = optimize(run.o, ex, [&](const std::string& line) {
    if (run.lines.empty()) compiled_before_note = ex.events.size();
    run.lines.push_back(line);
  });
  // Up front, before anything compiles.
  ASSERT_FALSE(run.lines.empty());
  EXPECT_EQ(compiled_before_note, 0u);
  EXPECT_EQ(run.lines.front(),
            "note: no CUDA device. This run compiles the problems' next candidates into the build "
            "cache and leaves them pending in " +
                run.o.workspace + ", timing nothing: run the same command on a GPU machine to measure them");
  // Each problem's seed is compiled and waits; nothing was measured.
  EXPECT_TRUE(r.needs_gpu);
  EXPECT_EQ(r.waiting, 2);
  EXPECT_EQ(r.attempts_this_run, 0);
  EXPECT_TRUE(counts.empty());
  {
    store::Workspace ws = store::Workspace::open(run.o.workspace);
    EXPECT_EQ(ws.pending_attempts().size(), 2u);
  }
  std::string md = optimize_markdown(r);
  EXPECT_EQ(
      md.rfind("Run 1: nothing timed: no CUDA device. 2 candidates are compiled (0 s) and wait as pending "
               "attempts in " +
                   run.o.workspace +
                   ": run the same command on a GPU machine, or move the "
                   "workspace there (`ucutlass workspace export` / `import`).\n\n",
               0),
      0u)
      << md;
  EXPECT_EQ(md.find("attempts measured"), std::string::npos) << md;
  EXPECT_NE(md.find("| L1_001_square_matmul | waits for a GPU | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| L2_012_gemm_multiply_leakyrelu | waits for a GPU | 1 |"), std::string::npos) << md;

  // On a GPU machine the same command measures the waiting candidates first, then goes on.
  FakeExecutor gpu(&counts);
  OptimizeReport then = run.go(gpu);
  EXPECT_FALSE(then.needs_gpu);
  EXPECT_EQ(gpu.calls, then.attempts_this_run);
  store::Workspace ws = store::Workspace::open(run.o.workspace);
  EXPECT_TRUE(ws.pending_attempts().empty());
  for (const OptimizeRow& row : then.rows) EXPECT_FALSE(row.waits_for_gpu) << row.problem;
}

TEST(Optimize, ProblemsItCannotRunAreListedWithTheReason) {
  OptimizeRun run(1.5);
  run.o.paths.push_back((golden::source_dir() / "suites/kernelbench/level1/L1_084_depthwise_conv2d_asym_input.toml").string());
  run.o.paths.push_back("/nonexistent/problem.toml");
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  run.o.policy = *sched::parse_policy("fixed", 1, nullptr);
  OptimizeReport r = run.go(ex);
  int skipped = 0;
  for (const OptimizeRow& row : r.rows)
    if (row.status == OptimizeStatus::skipped) {
      ++skipped;
      EXPECT_FALSE(row.detail.empty()) << row.problem;
    }
  EXPECT_EQ(skipped, 2);
}

TEST(Optimize, EveryProblemsNextIterationCompilesBeforeItsTurn) {
  OptimizeRun run(1.5);
  run.o.policy = *sched::parse_policy("fixed", 5, nullptr);
  run.o.mantis.iterations = 1;
  run.o.mantis.hypotheses = 2;
  run.o.mantis.attempts = 2;
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  run.go(ex);
  store::Workspace ws = store::Workspace::open(run.o.workspace);
  auto first = [&](char kind, const std::string& problem, int iteration) {
    for (size_t i = 0; i < ex.events.size(); ++i)
      for (const store::AttemptRow& a : ws.attempts(problem))
        if (a.iteration == iteration && ex.events[i] == std::pair{kind, a.config_hash}) return i;
    return ex.events.size();
  };
  // Both seeds compile at once, before the first is measured.
  EXPECT_LT(first('b', "L2_012_gemm_multiply_leakyrelu", 0), first('m', "L1_001_square_matmul", 0));
  // L2_012's first iteration compiles while L1_001's is measured.
  size_t l2_build = first('b', "L2_012_gemm_multiply_leakyrelu", 1);
  ASSERT_LT(l2_build, ex.events.size());
  EXPECT_LT(l2_build, first('m', "L1_001_square_matmul", 1));
  // Every measured attempt was prebuilt first.
  for (size_t i = 0; i < ex.events.size(); ++i)
    if (ex.events[i].first == 'm') {
      bool built = false;
      for (size_t j = 0; j < i; ++j) built |= ex.events[j] == std::pair{'b', ex.events[i].second};
      EXPECT_TRUE(built) << ex.events[i].second;
    }
}

TEST(Optimize, AWorkspaceKeepsOneToleranceAndOneWayOfDrawingInputs) {
  OptimizeRun run(1.5);
  run.o.policy = *sched::parse_policy("fixed", 1, nullptr);
  run.o.measure.framework_inputs = true;
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  OptimizeReport r = run.go(ex);
  {
    store::Workspace ws = store::Workspace::open(run.o.workspace);
    // L1_001's A and B are torch.rand inputs; L2_012's B and bias a Linear layer's parameters.
    EXPECT_EQ(ws.problem("L1_001_square_matmul")->inputs, "a=rand b=rand c=rand vectors=param");
    EXPECT_EQ(ws.problem("L2_012_gemm_multiply_leakyrelu")->inputs, "a=rand b=param c=rand vectors=param");
  }
  for (auto [framework, tolerance] : {std::pair{false, std::optional<double>()}, std::pair{true, std::optional(1e-2)}}) {
    run.o.measure.framework_inputs = framework;
    run.o.tolerance = tolerance;
    FakeExecutor other(&counts);
    OptimizeReport again = run.go(other);
    EXPECT_EQ(other.calls, 0);
    ASSERT_EQ(again.rows.size(), 2u);
    for (const OptimizeRow& row : again.rows) {
      EXPECT_EQ(row.status, OptimizeStatus::skipped) << row.problem;
      EXPECT_NE(row.detail.find(framework ? "tolerance" : "inputs"), std::string::npos) << row.detail;
      EXPECT_NE(row.detail.find("another workspace"), std::string::npos) << row.detail;
    }
  }
}

}  // namespace
}  // namespace ucut
