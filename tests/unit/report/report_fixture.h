// tests/unit/report/report_fixture.h — shared by the report tests: a temp folder removed afterwards and a small
// workspace whose report figures are computed by hand in the comments of suite_workspace().
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "../temp_dir.h"
#include "store/workspace.h"

namespace ucut::report::testing {

using TempDir = ucut::testing::TempDir;

inline store::ProblemRow problem(const std::string& id, std::optional<double> baseline_ms) {
  store::ProblemRow p;
  p.id = id;
  p.path = "suite/" + id + ".toml";
  p.family = "gemm";
  p.shape_class = "square-large";
  p.flops = 1e9;
  p.min_bytes = 1e6;
  p.sol_tf32_ms = 0.5;
  p.sol_fp16_ms = 0.25;
  p.baseline_ms = baseline_ms;
  p.baseline_kind = baseline_ms ? "eager" : "";
  return p;
}

/// Claims an attempt of `problem_id` and, unless `status` is pending, finishes it.
inline store::AttemptRow add_attempt(store::Workspace& ws, int64_t run, const std::string& problem_id,
                                     store::AttemptStatus status, std::optional<double> ms, bool flagged = false,
                                     double build_s = 0, double run_s = 0, double profile_s = 0,
                                     const std::string& proposer = "builtin") {
  store::AttemptRow a;
  a.problem_id = problem_id;
  a.run_id = run;
  a.proposer = proposer;
  a.iteration = proposer == "seed" ? 0 : 1;
  a.config_hash = problem_id + "#" + std::to_string(ws.attempts(problem_id).size());
  a = ws.claim_attempt(a);
  if (status == store::AttemptStatus::pending) return a;
  a.status = status;
  a.correct = status == store::AttemptStatus::measured;
  a.time_ms = ms;
  a.flagged = flagged;
  if (flagged) a.flags = {FlagId::output_constant};
  a.build_seconds = build_s;
  a.run_seconds = run_s;
  a.profile_seconds = profile_s;
  ws.finish_attempt(a);
  return a;
}

inline void add_analyze(store::Workspace& ws, int64_t run, const std::string& problem_id, int iteration,
                        const std::string& cls, const std::string& source) {
  store::StageRow s;
  s.run_id = run;
  s.problem_id = problem_id;
  s.iteration = iteration;
  s.stage = store::Stage::analyze;
  s.json = R"({"gap":2.0,"bottleneck":")" + cls + R"(","bottleneck_source":")" + source + "\"}";
  ws.add_stage(s);
}

/// Four problems (flops 1e9, min_bytes 1e6, TF32 SOL 0.5 ms):
///   A  baseline 2: seed 1.0 ms (counts, speedup 2), a flagged 0.5 ms (a naive harness: 4), a build failure,
///      a pending one; analyze: memory_bandwidth/roofline at it 1, compute/ncu at it 3 (run 2), it 2 between.
///   B  baseline 1: seed 2.0 ms (0.5), then 0.8 ms (1.25).
///   C  baseline 3: two wrong results: no counting attempt (fast_p: failed; geomean: 1).
///   D  no baseline: 1.0 ms.
/// Build seconds 30 + 30 + 60 over 3 built kernels (1.5 per minute); run 5 + 5 + 10 + 10; profile 30.
/// Run 1 finished, run 2 unfinished.
inline void suite_workspace(store::Workspace& ws) {
  using store::AttemptStatus;
  for (auto& [id, base] : std::vector<std::pair<std::string, std::optional<double>>>{
           {"A", 2.0}, {"B", 1.0}, {"C", 3.0}, {"D", std::nullopt}})
    ws.upsert_problem(problem(id, base));
  store::RunRow run;
  run.command = "ucutlass optimize suite/ --budget 4";
  run.started = "2026-12-01T10:00:00Z";
  int64_t r1 = ws.begin_run(run);
  ws.finish_run(r1, "2026-12-01T11:00:00Z");
  run.started = "2026-12-01T12:00:00Z";
  int64_t r2 = ws.begin_run(run);
  add_attempt(ws, r1, "A", AttemptStatus::measured, 1.0, false, 30, 5, 30, "seed");
  add_attempt(ws, r1, "A", AttemptStatus::measured, 0.5, true, 30, 5);
  add_attempt(ws, r1, "A", AttemptStatus::build_failed, std::nullopt);
  add_attempt(ws, r2, "A", AttemptStatus::pending, std::nullopt);
  add_attempt(ws, r1, "B", AttemptStatus::measured, 2.0, false, 60, 10, 0, "seed");
  add_attempt(ws, r1, "B", AttemptStatus::measured, 0.8, false, 0, 10);
  add_attempt(ws, r1, "C", AttemptStatus::wrong, 0.1, false, 0, 0, 0, "seed");
  add_attempt(ws, r1, "C", AttemptStatus::wrong, 0.1);
  add_attempt(ws, r2, "D", AttemptStatus::measured, 1.0, false, 0, 0, 0, "seed");
  add_analyze(ws, r2, "A", 3, "compute", "ncu");
  add_analyze(ws, r1, "A", 1, "memory_bandwidth", "roofline");
  add_analyze(ws, r1, "A", 2, "memory_latency", "roofline");
  store::StageRow other{0, r1, "A", 4, store::Stage::nominate, R"({"bottleneck":"unknown"})", ""};
  ws.add_stage(other);
}

}  // namespace ucut::report::testing
