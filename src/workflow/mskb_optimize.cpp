// workflow/mskb_optimize.cpp — see mskb_optimize.h.
#include "workflow/mskb_optimize.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "engine/model_ledger.h"
#include "llm/client.h"
#include "mskb/launcher_build.h"
#include "mskb/signature.h"
#include "sol/gpu_table.h"
#include "store/workspace.h"
#include "support/files.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;
namespace cm = engine::cudamaster;

/// The pair's problems row: its identity, its largest case's work and SOL bounds, its tolerance. The baseline
/// is the naive launcher's time, which the rounds fill in once it is measured.
store::ProblemRow problem_row(const mskb::Task& t, mskb::Precision p, const MskbOptimizeOptions& o,
                              std::optional<store::ProblemRow> stored) {
  store::ProblemRow row = stored.value_or(store::ProblemRow{});
  row.id = mskb::launcher_name(t, p);
  row.path = mskb::launcher_sources(t, p, o.eval.bench.suite_dir, "").front().path;
  row.family = "mskb";
  row.shape_class = t.category;
  mskb::Work w = t.work(t.cases.back(), p == mskb::Precision::fp32 ? 4 : 2);
  row.flops = w.flops;
  row.min_bytes = w.bytes;
  std::string error;
  if (std::optional<sol::GpuTable> table = sol::load_default_gpu_table(&error))
    if (const sol::GpuSpec* gpu = table->find(o.eval.bench.gpu); gpu && gpu->bandwidth_tbs > 0) {
      double mem_ms = w.bytes / (gpu->bandwidth_tbs * 1e12) * 1e3;
      auto at = [&](sol::Precision q) {
        return std::max(w.flops / (gpu->peak_tflops(q).value_or(1e30) * 1e12) * 1e3, mem_ms);
      };
      row.sol_tf32_ms = at(p == mskb::Precision::fp32 ? sol::Precision::tf32 : sol::Precision::bf16);
      row.sol_fp16_ms = at(sol::Precision::fp16);
    }
  row.tolerance = t.tolerance.value;
  return row;
}

nlohmann::json settings_json(const MskbOptimizeOptions& o) {
  std::vector<std::string> precisions;
  for (mskb::Precision p : o.precisions) precisions.push_back(mskb::precision_name(p));
  return {{"agent", "cudamaster"},
          {"tasks", o.tasks},
          {"precisions", precisions},
          {"rounds", o.rounds.rounds},
          {"debug_tries", o.rounds.debug_tries},
          {"profile", o.rounds.profile_view},
          {"model", o.llm.model},
          {"gencode", o.eval.bench.gencode}};
}

}  // namespace

bool MskbOptimizeReport::needs_gpu() const {
  return std::any_of(pairs.begin(), pairs.end(),
                     [](const MskbPairOutcome& p) { return !p.result.needs_gpu.empty(); });
}

bool MskbOptimizeReport::failed() const {
  return std::any_of(pairs.begin(), pairs.end(),
                     [](const MskbPairOutcome& p) { return !p.result.error.empty(); });
}

MskbOptimizeReport optimize_mskb(const MskbOptimizeOptions& o) {
  std::vector<const mskb::Task*> tasks;
  for (const std::string& name : o.tasks) {
    const mskb::Task* t = mskb::find_task(name);
    if (!t)
      throw std::invalid_argument("no MSKB task called " + name + " ('ucutlass mskb list' prints them)");
    tasks.push_back(t);
  }
  std::error_code ec;
  if (fs::path dir = fs::path(o.workspace).parent_path(); !dir.empty()) fs::create_directories(dir, ec);
  store::Workspace ws = store::Workspace::open(o.workspace);
  llm::Client client(o.llm);
  engine::ModelLedger ledger(ws, client);
  MskbOptimizeReport report;
  store::RunRow run;
  run.command = o.command;
  run.settings_json = settings_json(o).dump();
  report.run_id = ws.begin_run(run);
  MskbCandidateEvalOptions eval_options = o.eval;
  if (eval_options.work_dir.empty()) eval_options.work_dir = (fs::path(o.out_dir) / "candidates").string();
  for (const mskb::Task* t : tasks)
    for (mskb::Precision p : o.precisions) {
      MskbPairOutcome out;
      std::string id = mskb::launcher_name(*t, p);
      out.result.problem_id = id;
      try {
        ws.upsert_problem(problem_row(*t, p, o, ws.problem(id)));
        MskbCandidateEvaluator evaluator(*t, p, eval_options);
        out.result = cm::optimize_pair(ws, ledger, evaluator, {t, p, id, report.run_id}, o.rounds);
      } catch (const std::runtime_error& e) {
        out.result.error = e.what();
      }
      if (std::optional<store::ProblemRow> row = ws.problem(id); row && row->baseline_ms)
        out.naive_ms = *row->baseline_ms;
      store::LlmCallFilter calls;
      calls.problem_id = id;
      out.usage = ws.llm_usage(calls);
      if (out.result.improved) {
        fs::path best = fs::path(o.out_dir) / mskb::precision_name(p) / (id + ".cu");
        fs::create_directories(best.parent_path(), ec);
        if (write_file(best.string(), out.result.best_code))
          out.best_path = best.string();
        else
          std::cerr << fmt::format("mskb optimize: cannot write {}; the best launcher is attempt {} in {}\n",
                                   best.string(), out.result.best_attempt.value_or(0), o.workspace);
      }
      report.pairs.push_back(std::move(out));
    }
  ws.finish_run(report.run_id);
  return report;
}

std::string mskb_optimize_text(const MskbOptimizeReport& r) {
  std::string out;
  for (const MskbPairOutcome& p : r.pairs) {
    const cm::PairResult& res = p.result;
    out += fmt::format("{}: ", res.problem_id);
    if (res.best_score)
      out += res.improved
                 ? fmt::format("best P {:.2f} over the naive launcher ({})\n", *res.best_score,
                               p.best_path.empty() ? "attempt " + std::to_string(res.best_attempt.value_or(0))
                                                   : p.best_path)
                 : "no round beat the naive launcher\n";
    else
      out += "the naive launcher was not timed\n";
    if (p.naive_ms > 0) out += fmt::format("  naive launcher: {:.4g} ms on the largest case\n", p.naive_ms);
    for (const cm::RoundRecord& round : res.rounds) {
      std::string what =
          round.outcome == cm::Outcome::failed
              ? "failed: " + round.why.substr(0, std::min<size_t>(round.why.find('\n'), 200))
              : fmt::format("{} (P {:.2f})", enum_name(round.outcome), round.score.value_or(0));
      out += fmt::format("  round {}: {} candidate{}, {} debug tr{}; {}\n", round.round,
                         round.attempts.size(), round.attempts.size() == 1 ? "" : "s", round.debug_tries,
                         round.debug_tries == 1 ? "y" : "ies", what);
    }
    for (const store::LlmRoleUsage& u : p.usage.roles)
      out += fmt::format("  {:<9} {} call{}, {} prompt + {} completion tokens, ${:.4f}\n", u.role, u.calls,
                         u.calls == 1 ? "" : "s", u.prompt_tokens, u.completion_tokens, u.cost_usd);
    if (!res.needs_gpu.empty())
      out += "  stopped: verifying and timing need a GPU (" + res.needs_gpu +
             "); the same command on a machine with one resumes here\n";
    if (!res.error.empty()) out += "  stopped: " + res.error + "\n";
  }
  return out;
}

}  // namespace ucut
