// store/records.h — the rows of an optimization workspace (store/workspace.h), shared by the engine's stages
// (engine/mantis), the scheduler and its replay (engine/sched) and the report. Plain values: the workspace maps
// them to SQLite, the engine fills them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ucut::store {

/// A problem the workspace optimizes: its identity, its bounds and the baseline it has to beat.
struct ProblemRow {
  std::string id;              // the suite problem's stem, e.g. L1_001_square_matmul (unique)
  std::string path;            // the problem file it was read from
  std::string family;          // gemm | conv | ... (suite family): lessons are keyed on it
  std::string shape_class;     // e.g. "square-large", "skinny-k" (engine/search decides): lessons are keyed on it
  std::string arch = "sm90a";  // lessons are keyed on it too
  double flops = 0, min_bytes = 0;
  double sol_tf32_ms = 0;      // steering bound (gap g = t_best / sol_tf32_ms)
  double sol_fp16_ms = 0;      // scheduling and integrity bound
  std::optional<double> baseline_ms;  // PyTorch eager, KernelBench's way
  std::string baseline_kind;          // "eager" | "compile" | "vendor"
  double tolerance = 1e-4;
  std::string inputs = "signed";      // how the harness drew the operands (problem/input_draw.h InputDraws::text())
};

/// One optimization run (an `optimize` invocation, or a resumed part of one).
struct RunRow {
  int64_t id = 0;
  std::string started, finished;  // ISO-8601 UTC; finished empty while running or after a kill
  std::string command;            // the command line, for the report
  std::string settings_json;      // budget, policy, eps, window, switched-off phases, seed, proposer
  std::string machine;            // GPU name and driver, or "no GPU"
};

enum class AttemptStatus { pending, build_failed, check_failed, wrong, crashed, timed_out, measured };

const char* attempt_status_name(AttemptStatus s);
std::optional<AttemptStatus> parse_attempt_status(const std::string& s);

/// One candidate kernel for one problem: what was tried, by whom and why, and what happened.
struct AttemptRow {
  int64_t id = 0;
  std::string problem_id;
  int64_t run_id = 0;
  int iteration = 0;                     // MANTIS iteration within the problem
  std::optional<int64_t> hypothesis_id;  // the hypothesis it implements (none for the seed attempt)
  std::string proposer;                  // "builtin" | "random" | "exhaustive" | "seed" | an agent's name
  std::string spec;                      // the spec text
  std::string config_hash;               // sha256 of the canonical config: (problem_id, config_hash) is unique
  AttemptStatus status = AttemptStatus::pending;
  bool correct = false;
  std::optional<double> time_ms;         // median on the problem's timed shape, when measured
  std::vector<std::string> flags;        // integrity flag ids; any disqualifying flag keeps it from being best
  bool flagged = false;                  // a disqualifying flag was raised
  bool precision_change = false;         // multiplies in lower precision than the problem states (a label)
  std::string error;                     // why it failed, for people
  std::string result_json;               // the full measure report (workflow/measure.h report_json)
  double build_seconds = 0, run_seconds = 0, profile_seconds = 0;
  double gpu_seconds = 0;                // device time charged to it
  int64_t tokens = 0;                    // LLM tokens, when an agent proposed it
  std::string created;                   // ISO-8601 UTC
  std::string code_hash;                 // sha256 of the emitted code it was measured with ("": not recorded)

  /// Counts toward "best": measured, verified and not flagged.
  bool counts() const { return status == AttemptStatus::measured && correct && !flagged && time_ms.has_value(); }
  /// "NVIDIA H200 (driver 580.159.04 (CUDA 13.0))": the GPU and driver its stored report names; "" when none.
  std::string measured_on() const;
};

/// A hypothesis from Nominate, with Triage's scores and Summarize's outcome.
struct HypothesisRow {
  int64_t id = 0;
  std::string problem_id;
  int64_t run_id = 0;
  int iteration = 0;
  std::string bottleneck;          // the class it addresses: compute | memory_bandwidth | memory_latency | unknown
  std::string move_json;           // the proposer's move, machine-readable
  std::string rationale;           // the causal link from the bottleneck to the move, for people
  double predicted_speedup = 1;    // Ŝ
  double risk_impl = 1, risk_perf = 1;  // R̂_impl, R̂_perf (≥ 1)
  double roi = 0;                  // engine/mantis/triage.h
  std::string status = "nominated";  // nominated | chosen | dropped | done
  std::optional<double> measured_speedup;  // best attempt of this hypothesis vs the iteration's starting best
};

/// What Summarize learned, retrievable by later problems of the same family, shape class and arch.
struct LessonRow {
  int64_t id = 0;
  std::string family, shape_class, arch;
  std::string move_json;            // the move the lesson is about
  std::string text;                 // expectation vs outcome, one sentence
  double expected_speedup = 1, measured_speedup = 1;
  std::string problem_id;           // where it was learned
  int64_t run_id = 0;
  std::string created;
};

/// A stage's stored artifact (MANTIS keeps every stage's input and output).
struct StageRow {
  int64_t id = 0;
  int64_t run_id = 0;
  std::string problem_id;
  int iteration = 0;
  std::string stage;  // measure | analyze | nominate | triage | implement | summarize
  std::string json;
  std::string created;
};

}  // namespace ucut::store
