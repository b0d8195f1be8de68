// tests/unit/mantis/best_specs_test.cpp — workflow/best_specs.h: the best verified spec per problem of one
// workspace or several, as the folder `bench kernelbench --best` and `workspace best` write.
#include "workflow/best_specs.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>

#include "../temp_dir.h"
#include "store/workspace.h"
#include "support/files.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

/// A workspace at `path` with problem `problem` (verified at `tolerance` on `inputs`) and one counting
/// attempt per (spec, time) of `attempts`, in that order; the first attempt is a bf16 one (precision change).
void workspace_with(const fs::path& path, const std::string& problem, double tolerance,
                    const std::string& inputs, const std::vector<std::pair<std::string, double>>& attempts) {
  store::Workspace ws = store::Workspace::open(path.string());
  store::ProblemRow p;
  p.id = problem;
  p.tolerance = tolerance;
  p.inputs = inputs;
  ws.upsert_problem(p);
  int64_t run = ws.begin_run({});
  for (const auto& [spec, ms] : attempts) {
    store::AttemptRow a;
    a.problem_id = problem;
    a.run_id = run;
    a.spec = a.config_hash = spec;
    a = ws.claim_attempt(a);
    a.status = store::AttemptStatus::measured;
    a.correct = true;
    a.time_ms = ms;
    a.precision_change = &spec == &attempts.front().first;
    a.result_json = R"({"environment": {"gpu_name": "NVIDIA H100", "driver_version": "580.1"}})";
    ws.finish_attempt(a);
  }
}

TEST(BestSpecs, WritesTheFastestVerifiedUnflaggedSpecPerProblem) {
  ucut::testing::TempDir tmp{"ucut-best"};
  const fs::path& dir = tmp.path();
  {
    store::Workspace ws = store::Workspace::open((dir / "w.db").string());
    for (const char* id : {"p1", "p2"}) {
      store::ProblemRow p;
      p.id = id;
      ws.upsert_problem(p);
    }
    int64_t run = ws.begin_run({});
    auto attempt = [&](const char* problem, const char* spec, double ms, bool flagged, bool correct) {
      store::AttemptRow a;
      a.problem_id = problem;
      a.run_id = run;
      a.spec = spec;
      a.config_hash = spec;
      a = ws.claim_attempt(a);
      a.status = correct ? store::AttemptStatus::measured : store::AttemptStatus::wrong;
      a.correct = correct;
      a.time_ms = ms;
      a.flagged = flagged;
      ws.finish_attempt(a);
    };
    attempt("p1", "kernel slow", 2.0, false, true);
    attempt("p1", "kernel fast", 1.0, false, true);
    attempt("p1", "kernel cheat", 0.1, true, true);
    attempt("p1", "kernel wrong", 0.5, false, false);
    attempt("p2", "kernel only-wrong", 0.5, false, false);
  }
  BestSpecs best = write_best_specs({(dir / "w.db").string()}, (dir / "specs").string());
  ASSERT_EQ(best.best.size(), 1u);
  EXPECT_EQ(best.best.at("p1").attempt, 2);
  EXPECT_EQ(best.none, std::vector<std::string>{"p2"});
  // The attempt's text unchanged (the build cache keys on it), and where it came from beside it.
  EXPECT_EQ(read_file(dir / "specs" / "p1.ucut").value_or(""), "kernel fast");
  auto provenance = nlohmann::json::parse(read_file(dir / "specs" / "provenance.json").value_or("{}"));
  EXPECT_EQ(provenance["workspaces"], nlohmann::json::array({(dir / "w.db").string()}));
  EXPECT_EQ(provenance["best"]["p1"]["workspace"], (dir / "w.db").string());
  EXPECT_EQ(provenance["best"]["p1"]["attempt"], 2);
  EXPECT_EQ(provenance["best"]["p1"]["time_ms"], 1.0);
  EXPECT_FALSE(provenance["best"].contains("p2"));
  EXPECT_FALSE(fs::exists(dir / "specs" / "p2.ucut"));
  EXPECT_EQ(best.tolerance, 1e-4);  // the conditions the bench run repeats
  EXPECT_EQ(best.inputs, "signed");
  EXPECT_THROW(write_best_specs({(dir / "missing.db").string()}, (dir / "x").string()), std::runtime_error);
}

TEST(BestSpecs, ProblemsVerifiedUnderDifferentConditionsAreRefused) {
  ucut::testing::TempDir tmp{"ucut-best-mixed"};
  const fs::path& dir = tmp.path();
  {
    store::Workspace ws = store::Workspace::open((dir / "w.db").string());
    int64_t run = ws.begin_run({});
    for (const char* id : {"p1", "p2"}) {
      store::ProblemRow p;
      p.id = id;
      if (std::string(id) == "p2") p.inputs = "a=rand b=param c=rand vectors=param";  // framework, p1 signed
      ws.upsert_problem(p);
      store::AttemptRow a;
      a.problem_id = id;
      a.run_id = run;
      a.spec = a.config_hash = std::string("kernel ") + id;
      a = ws.claim_attempt(a);
      a.status = store::AttemptStatus::measured;
      a.correct = true;
      a.time_ms = 1.0;
      ws.finish_attempt(a);
    }
  }
  try {
    write_best_specs({(dir / "w.db").string()}, (dir / "specs").string());
    FAIL() << "wrote specs verified under two sets of conditions";
  } catch (const MixedConditionsError& e) {
    EXPECT_NE(std::string(e.what()).find("different conditions"), std::string::npos) << e.what();
  }
}

TEST(BestSpecs, TheFastestOverSeveralWorkspacesWithWhereItCameFrom) {
  ucut::testing::TempDir tmp{"ucut-best-many"};
  const fs::path& dir = tmp.path();
  const std::string draws = "a=rand b=param c=rand vectors=param";
  workspace_with(dir / "a.db", "p1", 1e-2, draws, {{"p1 bf16", 1.5}, {"p1 a", 3.0}});
  workspace_with(dir / "b.db", "p1", 1e-2, draws, {{"p1 b", 2.0}, {"p1 b2", 0.5}});
  workspace_with(dir / "c.db", "p2", 1e-2, "a=rand b=rand c=rand vectors=param", {{"p2 c", 4.0}});
  BestSpecs best = write_best_specs(
      {(dir / "a.db").string(), (dir / "b.db").string(), (dir / "c.db").string()}, (dir / "specs").string());
  ASSERT_EQ(best.best.size(), 2u);
  EXPECT_EQ(best.best.at("p1").workspace, (dir / "b.db").string());
  EXPECT_EQ(best.best.at("p1").attempt, 2);
  EXPECT_EQ(best.best.at("p2").workspace, (dir / "c.db").string());
  EXPECT_EQ(read_file(dir / "specs" / "p1.ucut").value_or(""), "p1 b2");
  EXPECT_EQ(read_file(dir / "specs" / "p2.ucut").value_or(""), "p2 c");
  EXPECT_EQ(best.tolerance, 1e-2);
  EXPECT_EQ(best.inputs, "framework");
  auto provenance = nlohmann::json::parse(read_file(dir / "specs" / "provenance.json").value_or("{}"));
  const nlohmann::json& p1 = provenance["best"]["p1"];
  EXPECT_EQ(p1["workspace"], (dir / "b.db").string());
  EXPECT_EQ(p1["time_ms"], 0.5);
  EXPECT_EQ(p1["gpu"], "NVIDIA H100 (driver 580.1)");
  EXPECT_FALSE(p1["date"].get<std::string>().empty());
  EXPECT_EQ(p1["precision_change"], false);
  EXPECT_EQ(provenance["workspaces"].size(), 3u);

  // The bf16 attempt wins once it is the fastest, and says so.
  workspace_with(dir / "d.db", "p1", 1e-2, draws, {{"p1 bf16 fastest", 0.1}});
  write_best_specs({(dir / "a.db").string(), (dir / "d.db").string()}, (dir / "specs2").string());
  provenance = nlohmann::json::parse(read_file(dir / "specs2" / "provenance.json").value_or("{}"));
  EXPECT_EQ(provenance["best"]["p1"]["precision_change"], true);
}

TEST(BestSpecs, WorkspacesOfAnotherToleranceOrOtherDrawsAreRefused) {
  ucut::testing::TempDir tmp{"ucut-best-refused"};
  const fs::path& dir = tmp.path();
  const std::string draws = "a=rand b=param c=rand vectors=param";
  workspace_with(dir / "loose.db", "p1", 1e-2, draws, {{"p1 loose", 1.0}});
  workspace_with(dir / "tight.db", "p2", 1e-4, draws, {{"p2 tight", 1.0}});
  workspace_with(dir / "other.db", "p1", 1e-2, "a=rand b=rand c=rand vectors=param", {{"p1 other", 1.0}});
  auto refusal = [&](const char* second) {
    try {
      write_best_specs({(dir / "loose.db").string(), (dir / second).string()}, (dir / "specs").string());
    } catch (const MixedConditionsError& e) {
      return std::string(e.what());
    }
    return std::string("(written)");
  };
  std::string tolerance = refusal("tight.db");
  EXPECT_NE(tolerance.find("loose.db (p1: tolerance 0.01"), std::string::npos) << tolerance;
  EXPECT_NE(tolerance.find("tight.db (p2: tolerance 0.0001"), std::string::npos) << tolerance;
  std::string inputs = refusal("other.db");  // the same problem on other draws
  EXPECT_NE(inputs.find("other.db (p1: tolerance 0.01, inputs a=rand b=rand"), std::string::npos) << inputs;
  EXPECT_FALSE(fs::exists(dir / "specs"));  // refused before writing anything
}

}  // namespace
}  // namespace ucut
