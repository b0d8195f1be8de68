// store/records.h — the rows of an optimization workspace (store/workspace.h), shared by the engine's stages
// (engine/mantis), the scheduler and its replay (engine/sched) and the report. Plain values: the workspace maps
// them to SQLite, the engine fills them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/flags.h"
#include "sol/bottleneck.h"
#include "support/enum_json.h"

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

constexpr auto enum_names(AttemptStatus) {
  using S = AttemptStatus;
  return name_table<S>("attempt status", {{S::pending, "pending"},
                                          {S::build_failed, "build_failed"},
                                          {S::check_failed, "check_failed"},
                                          {S::wrong, "wrong"},
                                          {S::crashed, "crashed"},
                                          {S::timed_out, "timed_out"},
                                          {S::measured, "measured"}});
}
UCUT_ENUM_JSON(AttemptStatus)

/// One candidate kernel for one problem: what was tried, by whom and why, and what happened. Its fields are
/// the attempts table's columns (store/attempt_fields.def, which says what each holds).
struct AttemptRow {
  int64_t id = 0;
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) type name = init;
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD

  /// Counts toward "best": measured, verified and not flagged.
  bool counts() const { return status == AttemptStatus::measured && correct && !flagged && time_ms.has_value(); }
  /// "NVIDIA H200 (driver 580.159.04 (CUDA 13.0))": the GPU and driver its stored report names; "" when none.
  std::string measured_on() const;
};

/// Where a hypothesis stands: Nominate proposes it, Triage chooses or drops it, Summarize marks a chosen one
/// done.
enum class HypothesisStatus { nominated, chosen, dropped, done };

constexpr auto enum_names(HypothesisStatus) {
  using S = HypothesisStatus;
  return name_table<S>(
      "hypothesis status",
      {{S::nominated, "nominated"}, {S::chosen, "chosen"}, {S::dropped, "dropped"}, {S::done, "done"}});
}
UCUT_ENUM_JSON(HypothesisStatus)

/// A hypothesis from Nominate, with Triage's scores and Summarize's outcome.
struct HypothesisRow {
  int64_t id = 0;
  std::string problem_id;
  int64_t run_id = 0;
  int iteration = 0;
  sol::Bottleneck bottleneck = sol::Bottleneck::unknown;  // the class it addresses
  std::string move_json;           // the proposer's move, machine-readable
  std::string rationale;           // the causal link from the bottleneck to the move, for people
  double predicted_speedup = 1;    // Ŝ
  double risk_impl = 1, risk_perf = 1;  // R̂_impl, R̂_perf (≥ 1)
  double roi = 0;                  // engine/mantis/triage.h
  HypothesisStatus status = HypothesisStatus::nominated;
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

/// The MANTIS stages (engine/mantis/loop.h), in the order an iteration runs them.
enum class Stage { measure, analyze, nominate, triage, implement, summarize };

constexpr auto enum_names(Stage) {
  return name_table<Stage>("stage", {{Stage::measure, "measure"},
                                     {Stage::analyze, "analyze"},
                                     {Stage::nominate, "nominate"},
                                     {Stage::triage, "triage"},
                                     {Stage::implement, "implement"},
                                     {Stage::summarize, "summarize"}});
}
UCUT_ENUM_JSON(Stage)

/// A stage's stored artifact (MANTIS keeps every stage's input and output).
struct StageRow {
  int64_t id = 0;
  int64_t run_id = 0;
  std::string problem_id;
  int iteration = 0;
  Stage stage = Stage::measure;
  std::string json;
  std::string created;
};

enum class LlmCallStatus { pending, ok, failed };

constexpr auto enum_names(LlmCallStatus) {
  using S = LlmCallStatus;
  return name_table<S>("model call status", {{S::pending, "pending"}, {S::ok, "ok"}, {S::failed, "failed"}});
}
UCUT_ENUM_JSON(LlmCallStatus)

/// One call to a language model (table llm_calls), identified by its key: (run_id, problem_id, iteration,
/// role, seq, request_hash). Claimed pending before it is sent (Workspace::claim_llm_call) and finished with
/// the response or the error, so a resumed run replays a finished call instead of paying for it again. Plain
/// fields: the caller converts llm::ChatRequest / CallRecord to them (the store does not know llm's types).
struct LlmCallRow {
  int64_t id = 0;
  int64_t run_id = 0;
  std::string problem_id;    // "" for a call about no single problem
  int iteration = 0;         // MANTIS iteration within the problem (0 outside the loop)
  std::string role;          // measure | analyze | nominate | triage | implement | summarize | controller |
                             // planner | coder | compiler | debug | detector
  int seq = 0;               // the call's number within (run, problem, iteration, role), from 0
  std::string request_hash;  // sha256 of request_json; claim_llm_call fills it when empty
  std::string model;         // the model asked (claim), or the one that answered (finish)
  LlmCallStatus status = LlmCallStatus::pending;
  std::string request_json;   // the request BODY as sent (model, messages, ...): never headers, so never the
                              // API key; the caller must pass the body only
  std::string response_json;  // the response body, when ok: what a replay returns
  std::string error;          // why it failed, for people
  int64_t prompt_tokens = 0, completion_tokens = 0;  // as the server reported (0 when it did not)
  double cost_usd = 0;
  int attempts = 0;  // HTTP tries (llm::CallRecord::attempts)
  double wall_s = 0;
  std::string created, finished;  // ISO-8601 UTC; finished empty while pending

  int64_t tokens() const { return prompt_tokens + completion_tokens; }
};

/// A prompt pack a run used (table run_prompt_packs; agent/prompt_pack.h's identity).
struct PromptPackRow {
  int64_t run_id = 0;
  std::string name, version, hash;
};

/// Which model calls llm_calls / llm_usage cover: every set field must match.
struct LlmCallFilter {
  std::optional<int64_t> run_id;
  std::optional<std::string> problem_id;
  std::optional<int> iteration;
  std::optional<std::string> role;
};

/// Model-call totals of one role (or of all: role "").
struct LlmRoleUsage {
  std::string role;
  int64_t calls = 0;  // every claimed call: ok, failed and pending
  int64_t failed = 0, pending = 0;
  int64_t prompt_tokens = 0, completion_tokens = 0;  // failed calls add what the server reported (usually 0)
  double cost_usd = 0;

  int64_t tokens() const { return prompt_tokens + completion_tokens; }
};

/// Model-call totals by role, roles in name order.
struct LlmUsage {
  std::vector<LlmRoleUsage> roles;
  /// The sum over the roles (role "").
  LlmRoleUsage total() const;
};

}  // namespace ucut::store
