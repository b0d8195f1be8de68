// store/rows.cpp — row <-> column mapping (store/rows.h). Each bind_row and read_row follows its Table's
// column list exactly; the flags are a JSON array.
#include "store/rows.h"

#include <nlohmann/json.hpp>

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
const Table kAttempts{"attempts",
                      "problem_id, run_id, iteration, hypothesis_id, proposer, spec, config_hash, created, "
                      "status, correct, time_ms, flags, flagged, precision_change, error, result_json, "
                      "build_seconds, run_seconds, profile_seconds, gpu_seconds, tokens, code_hash",
                      22};
const Table kAttemptResults{"attempts",
                            "status, correct, time_ms, flags, flagged, precision_change, error, result_json, "
                            "build_seconds, run_seconds, profile_seconds, gpu_seconds, tokens, code_hash",
                            14};
const Table kLessons{"lessons",
                     "family, shape_class, arch, move_json, text, expected_speedup, measured_speedup, "
                     "problem_id, run_id, created",
                     10};
const Table kStages{"stages", "run_id, problem_id, iteration, stage, json, created", 6};

namespace {

std::string placeholders(int from, int n) {
  std::string out;
  for (int i = from; i < from + n; ++i) out += (i > from ? ", ?" : "?") + std::to_string(i);
  return out;
}

}  // namespace

std::string select_sql(const Table& t, const std::string& rest, const std::string& schema) {
  return std::string("SELECT ") + (t.int_id ? "id, " : "") + t.columns + " FROM " + schema + "." + t.name +
         " " + rest;
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
  s.bind_all(r.problem_id, r.run_id, r.iteration, r.bottleneck, r.move_json, r.rationale, r.predicted_speedup,
             r.risk_impl, r.risk_perf, r.roi, r.status, r.measured_speedup);
}

void bind_results(Statement& s, const AttemptRow& r, int first) {
  s.bind_from(first, attempt_status_name(r.status), r.correct, r.time_ms, nlohmann::json(r.flags).dump(),
              r.flagged, r.precision_change, r.error, r.result_json, r.build_seconds, r.run_seconds,
              r.profile_seconds, r.gpu_seconds, r.tokens, r.code_hash);
}

void bind_row(Statement& s, const AttemptRow& r) {
  s.bind_all(r.problem_id, r.run_id, r.iteration, r.hypothesis_id, r.proposer, r.spec, r.config_hash,
             r.created);
  bind_results(s, r, 9);
}

void bind_row(Statement& s, const LessonRow& r) {
  s.bind_all(r.family, r.shape_class, r.arch, r.move_json, r.text, r.expected_speedup, r.measured_speedup,
             r.problem_id, r.run_id, r.created);
}

void bind_row(Statement& s, const StageRow& r) {
  s.bind_all(r.run_id, r.problem_id, r.iteration, r.stage, r.json, r.created);
}

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
  r.bottleneck = s.text(c++);
  r.move_json = s.text(c++);
  r.rationale = s.text(c++);
  r.predicted_speedup = s.real(c++);
  r.risk_impl = s.real(c++);
  r.risk_perf = s.real(c++);
  r.roi = s.real(c++);
  r.status = s.text(c++);
  r.measured_speedup = s.opt_real(c++);
}

void read_row(const Statement& s, AttemptRow& r) {
  int c = 0;
  r.id = s.int64(c++);
  r.problem_id = s.text(c++);
  r.run_id = s.int64(c++);
  r.iteration = static_cast<int>(s.int64(c++));
  r.hypothesis_id = s.opt_int64(c++);
  r.proposer = s.text(c++);
  r.spec = s.text(c++);
  r.config_hash = s.text(c++);
  r.created = s.text(c++);
  std::string status = s.text(c++);
  auto parsed = parse_attempt_status(status);
  if (!parsed)
    throw WorkspaceError("attempt " + std::to_string(r.id) + " has unknown status '" + status + "'");
  r.status = *parsed;
  r.correct = s.int64(c++) != 0;
  r.time_ms = s.opt_real(c++);
  r.flags = nlohmann::json::parse(s.text(c++)).get<std::vector<std::string>>();
  r.flagged = s.int64(c++) != 0;
  r.precision_change = s.int64(c++) != 0;
  r.error = s.text(c++);
  r.result_json = s.text(c++);
  r.build_seconds = s.real(c++);
  r.run_seconds = s.real(c++);
  r.profile_seconds = s.real(c++);
  r.gpu_seconds = s.real(c++);
  r.tokens = s.int64(c++);
  r.code_hash = s.text(c++);
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
  r.stage = s.text(c++);
  r.json = s.text(c++);
  r.created = s.text(c++);
}

}  // namespace ucut::store
