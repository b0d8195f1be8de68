// tests/unit/mantis/best_specs_test.cpp — workflow/best_specs.h: a workspace's best verified spec per problem, as the
// folder `bench kernelbench --best` measures.
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
  BestSpecs best = write_best_specs((dir / "w.db").string(), (dir / "specs").string());
  ASSERT_EQ(best.attempt.size(), 1u);
  EXPECT_EQ(best.attempt.at("p1"), 2);
  EXPECT_EQ(best.none, std::vector<std::string>{"p2"});
  // The attempt's text unchanged (the build cache keys on it), and where it came from beside it.
  EXPECT_EQ(read_file(dir / "specs" / "p1.ucut").value_or(""), "kernel fast");
  auto provenance = nlohmann::json::parse(read_file(dir / "specs" / "provenance.json").value_or("{}"));
  EXPECT_EQ(provenance["workspace"], (dir / "w.db").string());
  EXPECT_EQ(provenance["best"]["p1"]["attempt"], 2);
  EXPECT_EQ(provenance["best"]["p1"]["time_ms"], 1.0);
  EXPECT_FALSE(provenance["best"].contains("p2"));
  EXPECT_FALSE(fs::exists(dir / "specs" / "p2.ucut"));
  EXPECT_EQ(best.tolerance, 1e-4);  // the conditions the bench run repeats
  EXPECT_EQ(best.inputs, "signed");
  EXPECT_THROW(write_best_specs((dir / "missing.db").string(), (dir / "x").string()), std::runtime_error);
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
    write_best_specs((dir / "w.db").string(), (dir / "specs").string());
    FAIL() << "wrote specs verified under two sets of conditions";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("different conditions"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ucut
