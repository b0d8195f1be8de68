// store/rows.cpp — row <-> column mapping (store/rows.h). Each bind_row and read_row follows its Table's
// column list exactly; the attempts' lists, binding and reading come from store/attempt_fields.def.
#include "store/rows.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

namespace ucut::store {

const Table kProblems{"problems",
                      "id, path, family, shape_class, arch, flops, min_bytes, sol_tf32_ms, sol_fp16_ms, "
                      "baseline_ms, baseline_kind, tolerance, inputs",
                      13, false};
const Table kRuns{"runs", "started, finished, command, settings_json, machine", 5};
const Table kHypotheses{"hypotheses",
                        "problem_id, run_id, iteration, bottleneck, move_json, rationale, predicted_speedup, "
                        "risk_impl, risk_perf, roi, status, measured_speedup",
                        12};

namespace {

/// Which write fills an attempt column (store/attempt_fields.def's set_by).
enum class SetBy { claim, finish };

/// The attempt columns, in the table's order: all of them, or those `only` writes.
Table attempt_columns(std::optional<SetBy> only) {
  Table t{"attempts", "", 0};
  auto add = [&](const char* name, SetBy set_by) {
    if (only && *only != set_by) return;
    t.columns += (t.count++ > 0 ? ", " : "") + std::string(name);
  };
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) add(#name, SetBy::set_by);
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
  return t;
}

}  // namespace

const Table kAttempts = attempt_columns(std::nullopt);
const Table kAttemptResults = attempt_columns(SetBy::finish);
const Table kLessons{"lessons",
                     "family, shape_class, arch, move_json, text, expected_speedup, measured_speedup, "
                     "problem_id, run_id, created",
                     10};
const Table kStages{"stages", "run_id, problem_id, iteration, stage, json, created", 6};
const Table kLlmCalls{"llm_calls",
                      "run_id, problem_id, iteration, role, seq, request_hash, model, status, request_json, "
                      "response_json, error, prompt_tokens, completion_tokens, cost_usd, attempts, wall_s, "
                      "created, finished",
                      18};
const Table kLlmCallResults{
    "llm_calls",
    "model, status, response_json, error, prompt_tokens, completion_tokens, cost_usd, "
    "attempts, wall_s, finished",
    10};
const Table kPromptPacks{"run_prompt_packs", "run_id, name, version, hash", 4, false};

namespace {

/// How a member binds and reads, by its type: an enum as its name, the flags as a JSON array.
template <class T>
  requires(!std::is_enum_v<T>)
void bind_column(Statement& s, int i, const T& v) {
  s.bind(i, v);
}
template <class E>
  requires std::is_enum_v<E>
void bind_column(Statement& s, int i, E v) {
  s.bind(i, std::string(enum_name(v)));
}
void bind_column(Statement& s, int i, const std::vector<FlagId>& v) { s.bind(i, nlohmann::json(v).dump()); }

/// Binds the arguments to parameters 1, 2, ...
template <class... A>
void bind_columns(Statement& s, const A&... a) {
  int i = 1;
  (bind_column(s, i++, a), ...);
}

void read_column(const Statement& s, int c, std::string& v) { v = s.text(c); }
void read_column(const Statement& s, int c, int64_t& v) { v = s.int64(c); }
void read_column(const Statement& s, int c, int& v) { v = static_cast<int>(s.int64(c)); }
void read_column(const Statement& s, int c, bool& v) { v = s.int64(c) != 0; }
void read_column(const Statement& s, int c, double& v) { v = s.real(c); }
void read_column(const Statement& s, int c, std::optional<int64_t>& v) { v = s.opt_int64(c); }
void read_column(const Statement& s, int c, std::optional<double>& v) { v = s.opt_real(c); }
template <class E>
  requires std::is_enum_v<E>
void read_column(const Statement& s, int c, E& v) {
  std::string text = s.text(c);
  std::optional<E> parsed = parse_enum<E>(text);
  if (!parsed) throw WorkspaceError(unknown_enum_message<E>(text));
  v = *parsed;
}
void read_column(const Statement& s, int c, std::vector<FlagId>& v) {
  std::string text = s.text(c);
  try {
    v = nlohmann::json::parse(text).get<std::vector<FlagId>>();
  } catch (const nlohmann::json::exception& e) {
    throw WorkspaceError("unreadable flags " + text + ": " + e.what());
  }
}

/// Runs `read`; a WorkspaceError it throws names the row: "hypothesis 7: unknown ...".
template <class Read>
void reading_row(const char* what, int64_t id, Read read) {
  try {
    read();
  } catch (const WorkspaceError& e) {
    throw WorkspaceError(std::string(what) + " " + std::to_string(id) + ": " + e.what());
  }
}

std::string placeholders(int from, int n) {
  std::string out;
  for (int i = from; i < from + n; ++i) out += (i > from ? ", ?" : "?") + std::to_string(i);
  return out;
}

}  // namespace

std::string select_sql(const Table& t, const std::string& rest) {
  return std::string("SELECT ") + (t.int_id ? "id, " : "") + t.columns + " FROM main." + t.name + " " + rest;
}

std::string insert_sql(const Table& t) {
  return std::string("INSERT INTO ") + t.name + " (" + t.columns + ") VALUES (" + placeholders(1, t.count) +
         ")";
}

std::string upsert_sql(const Table& t, const std::string& key) {
  return insert_sql(t) + " ON CONFLICT(" + key + ") DO UPDATE SET (" + t.columns + ") = (" +
         placeholders(1, t.count) + ")";
}

std::string update_sql(const Table& t) {
  return std::string("UPDATE ") + t.name + " SET (" + t.columns + ") = (" + placeholders(1, t.count) +
         ") WHERE id = ?" + std::to_string(t.count + 1);
}

void bind_row(Statement& s, const ProblemRow& r) {
  s.bind_all(r.id, r.path, r.family, r.shape_class, r.arch, r.flops, r.min_bytes, r.sol_tf32_ms,
             r.sol_fp16_ms, r.baseline_ms, r.baseline_kind, r.tolerance, r.inputs);
}

void bind_row(Statement& s, const RunRow& r) {
  s.bind_all(r.started, r.finished, r.command, r.settings_json, r.machine);
}

void bind_row(Statement& s, const HypothesisRow& r) {
  bind_columns(s, r.problem_id, r.run_id, r.iteration, r.bottleneck, r.move_json, r.rationale,
               r.predicted_speedup, r.risk_impl, r.risk_perf, r.roi, r.status, r.measured_speedup);
}

void bind_results(Statement& s, const AttemptRow& r, int first) {
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) \
  if (SetBy::set_by == SetBy::finish) bind_column(s, first++, r.name);
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
}

void bind_row(Statement& s, const AttemptRow& r) {
  int i = 1;
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) bind_column(s, i++, r.name);
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
}

void bind_row(Statement& s, const LessonRow& r) {
  s.bind_all(r.family, r.shape_class, r.arch, r.move_json, r.text, r.expected_speedup, r.measured_speedup,
             r.problem_id, r.run_id, r.created);
}

void bind_row(Statement& s, const StageRow& r) {
  bind_columns(s, r.run_id, r.problem_id, r.iteration, r.stage, r.json, r.created);
}

void bind_row(Statement& s, const LlmCallRow& r) {
  bind_columns(s, r.run_id, r.problem_id, r.iteration, r.role, r.seq, r.request_hash, r.model, r.status,
               r.request_json, r.response_json, r.error, r.prompt_tokens, r.completion_tokens, r.cost_usd,
               r.attempts, r.wall_s, r.created, r.finished);
}

void bind_results(Statement& s, const LlmCallRow& r) {
  bind_columns(s, r.model, r.status, r.response_json, r.error, r.prompt_tokens, r.completion_tokens,
               r.cost_usd, r.attempts, r.wall_s, r.finished);
}

void bind_row(Statement& s, const PromptPackRow& r) { s.bind_all(r.run_id, r.name, r.version, r.hash); }

void read_row(const Statement& s, ProblemRow& r) {
  int c = 0;
  r.id = s.text(c++);
  r.path = s.text(c++);
  r.family = s.text(c++);
  r.shape_class = s.text(c++);
  r.arch = s.text(c++);
  r.flops = s.real(c++);
  r.min_bytes = s.real(c++);
  r.sol_tf32_ms = s.real(c++);
  r.sol_fp16_ms = s.real(c++);
  r.baseline_ms = s.opt_real(c++);
  r.baseline_kind = s.text(c++);
  r.tolerance = s.real(c++);
  r.inputs = s.text(c++);
}

void read_row(const Statement& s, RunRow& r) {
  int c = 0;
  r.id = s.int64(c++);
  r.started = s.text(c++);
  r.finished = s.text(c++);
  r.command = s.text(c++);
  r.settings_json = s.text(c++);
  r.machine = s.text(c++);
}

void read_row(const Statement& s, HypothesisRow& r) {
  int c = 0;
  r.id = s.int64(c++);
  r.problem_id = s.text(c++);
  r.run_id = s.int64(c++);
  r.iteration = static_cast<int>(s.int64(c++));
  reading_row("hypothesis", r.id, [&] { read_column(s, c++, r.bottleneck); });
  r.move_json = s.text(c++);
  r.rationale = s.text(c++);
  r.predicted_speedup = s.real(c++);
  r.risk_impl = s.real(c++);
  r.risk_perf = s.real(c++);
  r.roi = s.real(c++);
  reading_row("hypothesis", r.id, [&] { read_column(s, c++, r.status); });
  r.measured_speedup = s.opt_real(c++);
}

void read_row(const Statement& s, AttemptRow& r) {
  int c = 0;
  r.id = s.int64(c++);
  reading_row("attempt", r.id, [&] {
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) read_column(s, c++, r.name);
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
  });
}

void read_row(const Statement& s, LessonRow& r) {
  int c = 0;
  r.id = s.int64(c++);
  r.family = s.text(c++);
  r.shape_class = s.text(c++);
  r.arch = s.text(c++);
  r.move_json = s.text(c++);
  r.text = s.text(c++);
  r.expected_speedup = s.real(c++);
  r.measured_speedup = s.real(c++);
  r.problem_id = s.text(c++);
  r.run_id = s.int64(c++);
  r.created = s.text(c++);
}

void read_row(const Statement& s, StageRow& r) {
  int c = 0;
  r.id = s.int64(c++);
  r.run_id = s.int64(c++);
  r.problem_id = s.text(c++);
  r.iteration = static_cast<int>(s.int64(c++));
  reading_row("stage", r.id, [&] { read_column(s, c++, r.stage); });
  r.json = s.text(c++);
  r.created = s.text(c++);
}

void read_row(const Statement& s, LlmCallRow& r) {
  int c = 0;
  r.id = s.int64(c++);
  r.run_id = s.int64(c++);
  r.problem_id = s.text(c++);
  r.iteration = static_cast<int>(s.int64(c++));
  r.role = s.text(c++);
  r.seq = static_cast<int>(s.int64(c++));
  r.request_hash = s.text(c++);
  r.model = s.text(c++);
  reading_row("model call", r.id, [&] { read_column(s, c++, r.status); });
  r.request_json = s.text(c++);
  r.response_json = s.text(c++);
  r.error = s.text(c++);
  r.prompt_tokens = s.int64(c++);
  r.completion_tokens = s.int64(c++);
  r.cost_usd = s.real(c++);
  r.attempts = static_cast<int>(s.int64(c++));
  r.wall_s = s.real(c++);
  r.created = s.text(c++);
  r.finished = s.text(c++);
}

void read_row(const Statement& s, PromptPackRow& r) {
  int c = 0;
  r.run_id = s.int64(c++);
  r.name = s.text(c++);
  r.version = s.text(c++);
  r.hash = s.text(c++);
}

}  // namespace ucut::store
