// store/workspace.h — the optimization workspace: one SQLite file holding the problems, runs, attempts,
// hypotheses, lessons, stage artifacts and model calls of the engine (store/records.h). Several processes may
// share a file; an attempt's (problem, config hash) and a model call's key are claimed once, so an
// interrupted run resumes without re-measuring or paying for a call twice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/records.h"
#include "store/sqlite.h"

namespace ucut::store {

/// One connection to one workspace file. Use an object from one thread only; other threads and processes
/// open their own (WAL journal, synchronous=FULL, foreign keys on, 5 s busy timeout). Errors: WorkspaceError.
class Workspace {
 public:
  /// Opens `path` to read and write, creating the file and its tables when missing (its folder must exist)
  /// and migrating an older schema in place: for the commands that write (optimize, workspace import).
  static Workspace open(const std::string& path);
  /// Opens the existing workspace `path` for a command that only reads it (report, search-compare, workspace
  /// show and export): the file and its folder stay byte for byte as they are. The object works on an
  /// in-memory copy (Db::copy_of), migrated there when the file's schema is older; what is written to it is
  /// lost with it.
  static Workspace open_read_only(const std::string& path);

  std::string path() const { return db_.path(); }

  /// Inserts the problem, or replaces the fields of the one with its id (keeping its place in the order).
  void upsert_problem(const ProblemRow& p);
  std::optional<ProblemRow> problem(const std::string& id);
  /// In insertion order.
  std::vector<ProblemRow> problems();

  /// Inserts the run (its id is ignored; `started` empty means now) and returns its id.
  int64_t begin_run(RunRow r);
  /// Sets the run's end time; `finished` empty means now.
  void finish_run(int64_t id, std::string finished = {});
  /// In id order.
  std::vector<RunRow> runs();

  /// Inserts `a` as a pending attempt (`created` empty means now) and returns it with its id; when the
  /// problem already has an attempt with `a.config_hash`, returns that one unchanged instead. A returned
  /// row that is still pending was interrupted: run it again and finish it.
  AttemptRow claim_attempt(AttemptRow a);
  /// Writes the outcome (kAttemptResults' fields) of the attempt with `a.id`.
  void finish_attempt(const AttemptRow& a);
  /// In id order.
  std::vector<AttemptRow> attempts(const std::string& problem_id);
  std::optional<AttemptRow> find_attempt(const std::string& problem_id, const std::string& config_hash);
  /// The fastest attempt that counts (AttemptRow::counts), the earliest on a tie.
  std::optional<AttemptRow> best_attempt(const std::string& problem_id);
  /// Every pending attempt, in id order.
  std::vector<AttemptRow> pending_attempts();

  int64_t add_hypothesis(const HypothesisRow& h);
  /// Replaces every field of the hypothesis with `h.id`.
  void update_hypothesis(const HypothesisRow& h);
  /// In id order.
  std::vector<HypothesisRow> hypotheses(const std::string& problem_id);

  /// `created` empty means now.
  int64_t add_lesson(LessonRow l);
  /// Lessons of `family`, best match first: same shape class and arch, then same arch, then the rest;
  /// newest first within each rank; at most `limit`.
  std::vector<LessonRow> lessons(const std::string& family, const std::string& shape_class,
                                 const std::string& arch, size_t limit);

  /// `created` empty means now.
  int64_t add_stage(StageRow s);
  /// The problem's stages in that run, in id order.
  std::vector<StageRow> stages(const std::string& problem_id, int64_t run_id);

  /// Claims model call `c` before it is sent: inserts it pending (`created` empty means now; `request_hash`
  /// empty means the sha256 of `request_json`) and returns it with its id; when a call with its key (run,
  /// problem, iteration, role, seq, request hash) exists, returns that one unchanged instead. The caller then
  /// sends only a returned row that is pending (a new claim, or a call a kill interrupted); an ok one is
  /// replayed from its response_json and charged nothing again; a failed one stays failed (to try again,
  /// claim the next seq, so the failure keeps its own row and cost). `request_json` must be the request body,
  /// not the headers: the workspace never holds the API key. Atomic across processes sharing the file. A
  /// resumed iteration keys its calls with the run that began it (a resuming `optimize` adds a run row of its
  /// own).
  LlmCallRow claim_llm_call(LlmCallRow c);
  /// Writes the outcome of the call with `c.id` (kLlmCallResults: model, status, response, error, tokens,
  /// cost, attempts, wall time; `finished` empty means now).
  void finish_llm_call(LlmCallRow c);
  std::optional<LlmCallRow> find_llm_call(int64_t run_id, const std::string& problem_id, int iteration,
                                          const std::string& role, int seq, const std::string& request_hash);
  /// The calls `f` selects, in id order.
  std::vector<LlmCallRow> llm_calls(const LlmCallFilter& f = {});
  /// The totals by role of the calls `f` selects.
  LlmUsage llm_usage(const LlmCallFilter& f = {});
  /// Sets the attempt's `tokens`: the prompt and completion tokens of the model calls that produced it (the
  /// caller sums them, e.g. llm_usage({run, problem, iteration, role}).total().tokens(); replayed calls
  /// count, they were charged once). For calls that come after finish_attempt; before it, set
  /// AttemptRow::tokens.
  void set_attempt_tokens(int64_t attempt_id, int64_t tokens);

  /// Records that run `p.run_id` used prompt pack `p`; recording it again changes nothing.
  void add_prompt_pack(const PromptPackRow& p);
  /// The run's prompt packs, by name.
  std::vector<PromptPackRow> prompt_packs(int64_t run_id);

  /// The connection, for store/transfer and for tests that inspect the file; same one-thread rule.
  Db& connection() { return db_; }

 private:
  explicit Workspace(Db db) : db_(std::move(db)) {}
  Db db_;
};

}  // namespace ucut::store
