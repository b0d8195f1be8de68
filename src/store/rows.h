// store/rows.h — how each row of store/records.h maps to its table's columns: the one place that lists them,
// shared by store/workspace.cpp and store/transfer.cpp.
#pragma once

#include <string>

#include "store/records.h"
#include "store/sqlite.h"

namespace ucut::store {

/// A table and the columns bind_row binds as ?1..?count. read_row reads `id` first, then the same columns
/// (problems have no integer id: their text `id` is the first column).
struct Table {
  const char* name;
  std::string columns;
  int count;
  bool int_id = true;
};

extern const Table kProblems, kRuns, kHypotheses, kAttempts, kLessons, kStages;
/// The attempt columns its outcome fills (finish_attempt), the tail of kAttempts; bind_results binds them.
extern const Table kAttemptResults;
/// The model-call ledger; kLlmCallResults are the columns finish_llm_call writes (bind_results binds them).
extern const Table kLlmCalls, kLlmCallResults;
/// A run's prompt packs (no integer id).
extern const Table kPromptPacks;

/// "SELECT [id,] <columns> FROM main.<name> <rest>"
std::string select_sql(const Table& t, const std::string& rest);
/// "INSERT INTO <name> (<columns>) VALUES (?1..?n)"
std::string insert_sql(const Table& t);
/// insert_sql, and on a clash on `key` the same values overwrite the existing row
std::string upsert_sql(const Table& t, const std::string& key);
/// "UPDATE <name> SET (<columns>) = (?1..?n) WHERE id = ?n+1"
std::string update_sql(const Table& t);

void bind_row(Statement& s, const ProblemRow& r);
void bind_row(Statement& s, const RunRow& r);
void bind_row(Statement& s, const HypothesisRow& r);
void bind_row(Statement& s, const AttemptRow& r);
void bind_row(Statement& s, const LessonRow& r);
void bind_row(Statement& s, const StageRow& r);
void bind_row(Statement& s, const LlmCallRow& r);
void bind_row(Statement& s, const PromptPackRow& r);
void bind_results(Statement& s, const AttemptRow& r, int first = 1);
void bind_results(Statement& s, const LlmCallRow& r);

void read_row(const Statement& s, ProblemRow& r);
void read_row(const Statement& s, RunRow& r);
void read_row(const Statement& s, HypothesisRow& r);
void read_row(const Statement& s, AttemptRow& r);
void read_row(const Statement& s, LessonRow& r);
void read_row(const Statement& s, StageRow& r);
void read_row(const Statement& s, LlmCallRow& r);
void read_row(const Statement& s, PromptPackRow& r);

/// Every row the statement returns.
template <class Row>
std::vector<Row> read_all(Statement& s) {
  std::vector<Row> out;
  while (s.step()) read_row(s, out.emplace_back());
  return out;
}

/// The first row the statement returns, if any.
template <class Row>
std::optional<Row> read_one(Statement& s) {
  if (!s.step()) return std::nullopt;
  Row r;
  read_row(s, r);
  return r;
}

}  // namespace ucut::store
