// tests/unit/store/fixture.h — shared by the store tests: a temp folder removed afterwards, sample rows,
// every field of a row as a tuple so whole rows compare in one EXPECT_EQ, and what a folder holds (a read
// leaves no file).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "../temp_dir.h"
#include "store/records.h"
#include "store/workspace.h"

namespace ucut::store::testing {

using TempDir = ucut::testing::TempDir;

inline ProblemRow sample_problem(const std::string& id, const std::string& family = "gemm") {
  ProblemRow p;
  p.id = id;
  p.path = "suite/" + id + ".ucut";
  p.family = family;
  p.shape_class = "square-large";
  p.flops = 2e12;
  p.min_bytes = 1.5e8;
  p.sol_tf32_ms = 0.25;
  p.sol_fp16_ms = 0.125;
  p.baseline_ms = 1.5;
  p.baseline_kind = "eager";
  p.tolerance = 1e-3;
  return p;
}

inline RunRow sample_run(const std::string& command = "ucutlass optimize suite/") {
  RunRow r;
  r.command = command;
  r.settings_json = R"({"budget":10})";
  r.machine = "NVIDIA H200, driver 570";
  return r;
}

inline AttemptRow sample_attempt(const std::string& problem_id, int64_t run_id, const std::string& hash) {
  AttemptRow a;
  a.problem_id = problem_id;
  a.run_id = run_id;
  a.iteration = 2;
  a.proposer = "builtin";
  a.spec = "kernel k { tile 128x128x64 }";
  a.config_hash = hash;
  return a;
}

/// `a` with a measured outcome of `ms`.
inline AttemptRow measured(AttemptRow a, double ms) {
  a.status = AttemptStatus::measured;
  a.correct = true;
  a.time_ms = ms;
  a.flags = {FlagId::off_stream};
  a.result_json = R"({"median_ms":)" + std::to_string(ms) + "}";
  a.build_seconds = 3.5;
  a.run_seconds = 1.25;
  a.profile_seconds = 0.5;
  a.gpu_seconds = 1.75;
  a.tokens = 1200;
  return a;
}

inline HypothesisRow sample_hypothesis(const std::string& problem_id, int64_t run_id,
                                       const std::string& move) {
  HypothesisRow h;
  h.problem_id = problem_id;
  h.run_id = run_id;
  h.iteration = 1;
  h.bottleneck = sol::Bottleneck::memory_bandwidth;
  h.move_json = move;
  h.rationale = "fewer bytes per flop";
  h.predicted_speedup = 1.4;
  h.risk_impl = 1.2;
  h.risk_perf = 1.5;
  h.roi = 0.8;
  return h;
}

inline LessonRow sample_lesson(const std::string& problem_id, int64_t run_id, const std::string& text) {
  LessonRow l;
  l.family = "gemm";
  l.shape_class = "square-large";
  l.arch = "sm90a";
  l.move_json = R"({"tile":[128,256,64]})";
  l.text = text;
  l.expected_speedup = 1.3;
  l.measured_speedup = 1.1;
  l.problem_id = problem_id;
  l.run_id = run_id;
  return l;
}

inline StageRow sample_stage(const std::string& problem_id, int64_t run_id, Stage stage) {
  StageRow s;
  s.run_id = run_id;
  s.problem_id = problem_id;
  s.iteration = 1;
  s.stage = stage;
  s.json = R"({"stage":")" + std::string(enum_name(stage)) + "\"}";
  return s;
}

inline auto fields(const ProblemRow& p) {
  return std::tie(p.id, p.path, p.family, p.shape_class, p.arch, p.flops, p.min_bytes, p.sol_tf32_ms,
                  p.sol_fp16_ms, p.baseline_ms, p.baseline_kind, p.tolerance);
}
inline auto fields(const RunRow& r) {
  return std::tie(r.id, r.started, r.finished, r.command, r.settings_json, r.machine);
}
inline auto fields(const AttemptRow& a) {
  return std::tuple_cat(std::tie(a.id)
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) , std::tie(a.name)
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
  );
}
inline auto fields(const HypothesisRow& h) {
  return std::tie(h.id, h.problem_id, h.run_id, h.iteration, h.bottleneck, h.move_json, h.rationale,
                  h.predicted_speedup, h.risk_impl, h.risk_perf, h.roi, h.status, h.measured_speedup);
}
inline auto fields(const LessonRow& l) {
  return std::tie(l.id, l.family, l.shape_class, l.arch, l.move_json, l.text, l.expected_speedup,
                  l.measured_speedup, l.problem_id, l.run_id, l.created);
}
inline auto fields(const StageRow& s) {
  return std::tie(s.id, s.run_id, s.problem_id, s.iteration, s.stage, s.json, s.created);
}

/// A file workspace holding problem `p1` and one run; the run's id.
inline int64_t workspace_with_run(const std::string& path) {
  Workspace ws = Workspace::open(path);
  ws.upsert_problem(sample_problem("p1"));
  return ws.begin_run(sample_run());
}

/// Runs `body(w)` in `writers` child processes at once (w = 0 … writers-1), each opening its own connection,
/// and expects every one to exit cleanly: how processes sharing a workspace file are tested.
inline void in_writer_processes(int writers, const std::function<void(int)>& body) {
  std::vector<pid_t> children;
  for (int w = 0; w < writers; ++w) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      try {
        body(w);
        _exit(0);
      } catch (...) {
        _exit(1);
      }
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed, status " << status;
  }
}

/// The names of the entries of `dir`, sorted.
inline std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ucut::store::testing
