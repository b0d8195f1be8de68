// store/transfer.cpp — workspace export and import (store/transfer.h). Export copies rows with SQL into a
// freshly created file attached to the source connection; import reads the file as a read-only workspace (an
// older one migrated in memory, the file untouched) and merges it row by row, remapping run and hypothesis
// ids.
#include "store/transfer.h"

#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "store/rows.h"

namespace ucut::store {
namespace {

namespace fs = std::filesystem;

constexpr const char* kOut = "transfer_out";

TransferCounts copy_out(Db& db, int64_t since) {
  TransferCounts c;
  const std::string out = kOut;
  // The hypotheses exported attempts implement, wherever they were nominated.
  const std::string implemented = "SELECT hypothesis_id FROM main.attempts WHERE run_id > ?1";
  auto copy = [&](const std::string& table, const std::string& where, const char* order) {
    Statement s(db, "INSERT INTO " + out + "." + table + " SELECT * FROM main." + table + " " + where +
                        " ORDER BY " + order);
    if (sqlite3_bind_parameter_count(s.handle()) > 0) s.bind(1, since);
    s.execute();
    return db.changes();
  };
  c.problems.added = copy("problems", "", "seq");
  c.runs.added = copy(
      "runs", "WHERE id > ?1 OR id IN (SELECT run_id FROM main.hypotheses WHERE id IN (" + implemented + "))",
      "id");
  c.hypotheses.added = copy("hypotheses", "WHERE run_id > ?1 OR id IN (" + implemented + ")", "id");
  c.attempts.added = copy("attempts", "WHERE run_id > ?1", "id");
  c.lessons.added = copy("lessons", "WHERE run_id > ?1", "id");
  c.stages.added = copy("stages", "WHERE run_id > ?1", "id");
  c.llm_calls.added = copy("llm_calls", "WHERE run_id > ?1", "id");
  c.prompt_packs.added = copy("run_prompt_packs", "WHERE run_id > ?1", "run_id, name, hash");
  return c;
}

bool same_problem(const ProblemRow& a, const ProblemRow& b) {
  auto fields = [](const ProblemRow& p) {
    return std::tie(p.id, p.path, p.family, p.shape_class, p.arch, p.flops, p.min_bytes, p.sol_tf32_ms,
                    p.sol_fp16_ms, p.baseline_ms, p.baseline_kind, p.tolerance, p.inputs);
  };
  return fields(a) == fields(b);
}

bool open_hypothesis(HypothesisStatus status) {
  return status == HypothesisStatus::nominated || status == HypothesisStatus::chosen;
}

/// One import: the target, the id maps built so far and the counts.
class Merge {
 public:
  Merge(Workspace& into, Workspace& from) : into_(into), db_(into.connection()), from_(from) {}

  TransferCounts run() {
    problems();
    runs();
    hypotheses();
    attempts();
    lessons();
    stages();
    llm_calls();
    prompt_packs();
    return counts_;
  }

 private:
  template <class Row>
  std::vector<Row> incoming(const Table& t, const char* order) {
    Statement s(from_.connection(), select_sql(t, std::string("ORDER BY ") + order));
    return read_all<Row>(s);
  }

  int64_t mapped(const std::map<int64_t, int64_t>& ids, int64_t id, const char* what,
                 const std::string& row) {
    auto it = ids.find(id);
    if (it == ids.end())
      throw WorkspaceError("workspace '" + from_.path() + "': " + row + " refers to " + what + " " +
                           std::to_string(id) + ", which the file does not hold");
    return it->second;
  }

  bool exists(const std::string& sql, auto... args) {
    Statement s(db_, "SELECT EXISTS (" + sql + ")");
    s.bind_all(args...);
    s.step();
    return s.int64(0) != 0;
  }

  void problems() {
    for (const ProblemRow& p : incoming<ProblemRow>(kProblems, "seq")) {
      std::optional<ProblemRow> old = into_.problem(p.id);
      if (old && same_problem(*old, p)) {
        ++counts_.problems.skipped;
        continue;
      }
      into_.upsert_problem(p);
      ++(old ? counts_.problems.replaced : counts_.problems.added);
    }
  }

  void runs() {
    std::map<int64_t, std::string> uids;
    Statement u(from_.connection(), "SELECT id, uid FROM runs");
    while (u.step()) uids[u.int64(0)] = u.text(1);
    for (const RunRow& r : incoming<RunRow>(kRuns, "id")) {
      const std::string& uid = uids.at(r.id);
      Statement find(db_, "SELECT id, finished FROM main.runs WHERE uid = ?1");
      find.bind(1, uid);
      if (find.step()) {
        int64_t id = find.int64(0);
        run_ids_[r.id] = id;
        known_runs_.insert(id);
        if (find.text(1).empty() && !r.finished.empty()) {
          into_.finish_run(id, r.finished);
          ++counts_.runs.replaced;
        } else {
          ++counts_.runs.skipped;
        }
        continue;
      }
      int64_t id = into_.begin_run(r);
      Statement(db_, "UPDATE main.runs SET uid = ?1 WHERE id = ?2").bind_all(uid, id).execute();
      run_ids_[r.id] = id;
      ++counts_.runs.added;
    }
  }

  void hypotheses() {
    for (HypothesisRow h : incoming<HypothesisRow>(kHypotheses, "id")) {
      int64_t file_id = h.id;
      h.run_id = mapped(run_ids_, h.run_id, "run", "hypothesis " + std::to_string(file_id));
      if (known_runs_.count(h.run_id)) {
        Statement s(db_,
                    select_sql(kHypotheses,
                               "WHERE run_id = ?1 AND problem_id = ?2 AND iteration = ?3 AND move_json = ?4 "
                               "AND rationale = ?5 ORDER BY id LIMIT 1"));
        s.bind_all(h.run_id, h.problem_id, h.iteration, h.move_json, h.rationale);
        if (std::optional<HypothesisRow> old = read_one<HypothesisRow>(s)) {
          hypothesis_ids_[file_id] = old->id;
          if (open_hypothesis(old->status) && !open_hypothesis(h.status)) {
            h.id = old->id;
            into_.update_hypothesis(h);
            ++counts_.hypotheses.replaced;
          } else {
            ++counts_.hypotheses.skipped;
          }
          continue;
        }
      }
      hypothesis_ids_[file_id] = into_.add_hypothesis(h);
      ++counts_.hypotheses.added;
    }
  }

  void attempts() {
    for (AttemptRow a : incoming<AttemptRow>(kAttempts, "id")) {
      std::string row = "attempt " + std::to_string(a.id);
      a.run_id = mapped(run_ids_, a.run_id, "run", row);
      if (a.hypothesis_id) a.hypothesis_id = mapped(hypothesis_ids_, *a.hypothesis_id, "hypothesis", row);
      std::optional<AttemptRow> old = into_.find_attempt(a.problem_id, a.config_hash);
      if (!old) {
        Statement s(db_, insert_sql(kAttempts));
        bind_row(s, a);
        s.execute();
        ++counts_.attempts.added;
      } else if (old->status == AttemptStatus::pending && a.status != AttemptStatus::pending) {
        Statement s(db_, update_sql(kAttempts));
        bind_row(s, a);
        s.bind(kAttempts.count + 1, old->id).execute();
        ++counts_.attempts.replaced;
      } else {
        ++counts_.attempts.skipped;
      }
    }
  }

  void lessons() {
    for (LessonRow l : incoming<LessonRow>(kLessons, "id")) {
      l.run_id = mapped(run_ids_, l.run_id, "run", "lesson " + std::to_string(l.id));
      if (exists("SELECT 1 FROM main.lessons WHERE problem_id = ?1 AND move_json = ?2 AND text = ?3",
                 l.problem_id, l.move_json, l.text)) {
        ++counts_.lessons.skipped;
        continue;
      }
      into_.add_lesson(l);
      ++counts_.lessons.added;
    }
  }

  void stages() {
    for (StageRow st : incoming<StageRow>(kStages, "id")) {
      st.run_id = mapped(run_ids_, st.run_id, "run", "stage " + std::to_string(st.id));
      if (known_runs_.count(st.run_id) &&
          exists("SELECT 1 FROM main.stages WHERE run_id = ?1 AND problem_id = ?2 AND iteration = ?3 "
                 "AND stage = ?4 AND json = ?5",
                 st.run_id, st.problem_id, st.iteration, std::string(enum_name(st.stage)), st.json)) {
        ++counts_.stages.skipped;
        continue;
      }
      into_.add_stage(st);
      ++counts_.stages.added;
    }
  }

  void llm_calls() {
    for (LlmCallRow c : incoming<LlmCallRow>(kLlmCalls, "id")) {
      c.run_id = mapped(run_ids_, c.run_id, "run", "model call " + std::to_string(c.id));
      std::optional<LlmCallRow> old =
          into_.find_llm_call(c.run_id, c.problem_id, c.iteration, c.role, c.seq, c.request_hash);
      if (!old) {
        Statement s(db_, insert_sql(kLlmCalls));
        bind_row(s, c);
        s.execute();
        ++counts_.llm_calls.added;
      } else if (old->status == LlmCallStatus::pending && c.status != LlmCallStatus::pending) {
        c.id = old->id;
        into_.finish_llm_call(c);
        ++counts_.llm_calls.replaced;
      } else {
        ++counts_.llm_calls.skipped;
      }
    }
  }

  void prompt_packs() {
    for (PromptPackRow p : incoming<PromptPackRow>(kPromptPacks, "run_id, name, hash")) {
      p.run_id = mapped(run_ids_, p.run_id, "run", "prompt pack " + p.name);
      into_.add_prompt_pack(p);
      ++(db_.changes() > 0 ? counts_.prompt_packs.added : counts_.prompt_packs.skipped);
    }
  }

  Workspace& into_;
  Db& db_;
  Workspace& from_;
  TransferCounts counts_;
  std::map<int64_t, int64_t> run_ids_, hypothesis_ids_;  // file id -> target id
  std::set<int64_t> known_runs_;                         // target runs that were there before this import
};

}  // namespace

TransferCounts export_workspace(Workspace& from, const std::string& out_path,
                                std::optional<int64_t> since_run_id) {
  if (fs::exists(out_path))
    throw WorkspaceError("cannot export to '" + out_path +
                         "': the file exists; export writes a new workspace");
  Workspace::open(out_path);
  try {
    Attached out(from.connection(), out_path, kOut);
    Transaction tx(from.connection());
    TransferCounts c =
        copy_out(from.connection(), since_run_id.value_or(std::numeric_limits<int64_t>::min()));
    tx.commit();
    return c;
  } catch (...) {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(out_path + suffix, ignored);
    throw;
  }
}

TransferCounts import_workspace(Workspace& into, const std::string& in_path) {
  std::error_code ec;
  if (fs::equivalent(in_path, into.path(), ec))
    throw WorkspaceError("cannot import '" + in_path + "' into itself");
  Workspace from = Workspace::open_read_only(in_path);
  Transaction tx(into.connection());
  TransferCounts c = Merge(into, from).run();
  tx.commit();
  return c;
}

}  // namespace ucut::store
