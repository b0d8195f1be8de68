// workflow/optimize.cpp — see optimize.h.
#include "workflow/optimize.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "engine/executor.h"
#include "engine/sched/scheduler.h"
#include "engine/search/proposer.h"
#include "engine/search/seed_spec.h"
#include "sol/gpu_table.h"
#include "sol/roofline.h"
#include "store/workspace.h"
#include "suite/check.h"
#include "suite/lower.h"
#include "support/files.h"
#include "support/markdown_cell.h"
#include "workflow/optimize_model.h"

namespace ucut {

namespace {

namespace fs = std::filesystem;

/// Recorded eager medians by problem id, from a baseline.json of bench/kernelbench/baseline.py.
std::map<std::string, double> recorded_baselines(const std::string& path, std::string* date) {
  std::map<std::string, double> out;
  auto text = path.empty() ? std::nullopt : read_file(path);
  if (!text) return out;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.contains("problems")) return out;
  *date = j.value("date", "");
  for (const nlohmann::json& p : j["problems"])
    if (p.contains("eager") && p["eager"].contains("median")) out[p.value("problem", "")] = p["eager"]["median"].get<double>();
  return out;
}

/// Converting the problem's f32 A and B to 16 bits once (4 bytes read and 2 written per element) at DRAM bandwidth,
/// on its largest shape: what a kernel with `from(f32)` operands pays before every run. 0 when they are not f32.
double conversion_ms(const Problem& p, const sol::GpuSpec& gpu) {
  if (p.pipeline || p.semantics.a.dtype.value != DType::f32 || gpu.bandwidth_tbs <= 0) return 0;
  double elements = 0;
  for (const GemmShape& shape : p.shapes) {
    sol::WorkCount w = sol::count_work(p.semantics, shape);
    elements = std::max(elements, w.tensors.at(0).elements + w.tensors.at(1).elements);
  }
  return elements * 6 / (gpu.bandwidth_tbs * 1e12) * 1e3;
}

struct Prepared {
  std::vector<mantis::Subject> subjects;
  std::vector<OptimizeRow> skipped;
};

Prepared prepare(const OptimizeOptions& o, const sol::GpuSpec& gpu, store::Workspace& ws) {
  Prepared out;
  std::vector<std::string> missing;
  std::vector<std::string> files = suite::problem_files(o.paths, &missing);
  for (const std::string& m : missing)
    out.skipped.push_back({m, OptimizeStatus::skipped, "no such file or folder"});
  std::string baseline_date;
  std::map<std::string, double> baselines = recorded_baselines(o.baseline, &baseline_date);
  for (const std::string& path : files) {
    OptimizeRow skip{fs::path(path).stem().string(), OptimizeStatus::skipped};
    auto problem = lower_problem_file(path, o.tolerance);
    if (const auto* why = std::get_if<std::string>(&problem)) {
      skip.detail = *why;
      out.skipped.push_back(skip);
      continue;
    }
    const auto& [c, harness] = std::get<LoweredProblem>(problem);
    std::string inputs = request_inputs(harness, o.measure).text();
    if (auto held = ws.problem(c.problem.stem); held && held->tolerance != c.problem.tolerance) {
      skip.detail = fmt::format("the workspace holds this problem at tolerance {:g}, not {:g}: use another workspace "
                                "for another tolerance",
                                held->tolerance, c.problem.tolerance);
      out.skipped.push_back(skip);
      continue;
    } else if (held && held->inputs != inputs) {
      skip.detail = fmt::format("the workspace holds this problem measured on inputs `{}`, not `{}`: use another "
                                "workspace for other inputs",
                                held->inputs, inputs);
      out.skipped.push_back(skip);
      continue;
    }
    mantis::Subject s;
    s.harness = harness;
    fs::path hand = fs::path(o.seeds_dir) / (c.problem.stem + ".ucut");
    if (auto text = o.seeds_dir.empty() ? std::nullopt : read_file(hand)) {
      s.seed_spec = *text;
    } else {
      auto seed = search::seed_spec(c, harness, o.arch);
      if (const auto* why = std::get_if<std::string>(&seed)) {
        skip.detail = "no starting spec: " + *why;
        out.skipped.push_back(skip);
        continue;
      }
      s.seed_spec = std::get<search::SeedSpec>(seed).spec;
    }
    store::ProblemRow& row = s.row;
    row.id = c.problem.stem;
    row.path = path;
    row.family = c.problem.family;
    row.shape_class = search::shape_class(harness);
    row.arch = o.arch;
    row.flops = c.analysis.flops;
    row.min_bytes = c.analysis.min_bytes(c.problem.element_bytes());
    row.sol_tf32_ms = suite::sol_seconds(c, gpu, sol::Precision::tf32) * 1e3;
    row.sol_fp16_ms = suite::sol_seconds(c, gpu, sol::Precision::fp16) * 1e3;
    row.tolerance = c.problem.tolerance;
    row.inputs = inputs;
    if (auto b = baselines.find(row.id); b != baselines.end()) {
      row.baseline_ms = b->second;
      row.baseline_kind = fmt::format("eager, recorded {} ({})", baseline_date, o.baseline);
    }
    double peak = gpu.peak_tflops(sol::Precision::tf32).value_or(0) * 1e12;
    double compute_s = peak > 0 ? row.flops / peak : 0, memory_s = row.min_bytes / (gpu.bandwidth_tbs * 1e12);
    s.roofline_bottleneck =
        compute_s >= memory_s ? sol::Bottleneck::compute : sol::Bottleneck::memory_bandwidth;
    s.conversion_ms = conversion_ms(harness, gpu);
    ws.upsert_problem(row);
    out.subjects.push_back(std::move(s));
  }
  return out;
}

std::string ms_text(const std::optional<double>& ms) { return ms ? fmt::format("{:.4g} ms", *ms) : "—"; }

}  // namespace

OptimizeReport optimize(const OptimizeOptions& o, engine::Executor& executor,
                        const std::function<void(const std::string&)>& progress, Progress* status) {
  OptimizeReport report;
  std::string error;
  auto table = sol::load_default_gpu_table(&error);
  const sol::GpuSpec* gpu = table ? table->find_key(o.measure.gpu) : nullptr;
  if (!gpu) {
    report.message = table ? fmt::format("no GPU `{}` in {}", o.measure.gpu, table->path) : error;
    return report;
  }
  if (fs::path parent = fs::path(o.workspace).parent_path(); !parent.empty()) fs::create_directories(parent);
  store::Workspace ws = store::Workspace::open(o.workspace);
  // Timing needs a GPU: a machine without one says so before it compiles anything, and at the end what it
  // did.
  std::string no_gpu = executor.timing_unavailable();
  if (progress && !no_gpu.empty())
    progress(fmt::format(
        "note: {}. This run compiles the problems' next candidates into the build cache and leaves "
        "them pending in {}, timing nothing: run the same command on a GPU machine to measure them",
        no_gpu, o.workspace));
  if (progress && !o.baseline.empty() && !fs::is_regular_file(o.baseline))
    progress(fmt::format("note: no recorded baselines at {}: problems leave only by budget or when nothing is left "
                         "to try, and no speedups are shown",
                         o.baseline));
  Prepared prep = prepare(o, *gpu, ws);
  report.rows = prep.skipped;
  mantis::Options mantis_options = o.mantis;
  std::unique_ptr<OptimizeModel> model;
  if (o.mantis.agent != mantis::Agent::none || o.detector) {
    model = OptimizeModel::open(o, ws, &report.message);
    if (!model) return report;
    model->attach(mantis_options, o, *gpu);
  }

  store::RunRow run;
  run.command = o.command;
  run.settings_json = nlohmann::json{{"policy", sched::print_policy(o.policy)}, {"budget", o.policy.budget},
                                     {"iterations", o.mantis.iterations}, {"hypotheses", o.mantis.hypotheses},
                                     {"attempts", o.mantis.attempts}, {"triage", o.mantis.triage},
                                     {"summarize", o.mantis.summarize}, {"sol", o.mantis.sol}, {"profile", o.mantis.profile}, {"seed", o.mantis.seed},
                                     {"search", mantis::search_name(o.mantis.search)}, {"knobs", o.mantis.knobs},
                                     {"tolerance", o.tolerance ? nlohmann::json(*o.tolerance) : nlohmann::json("problem's")},
                                     {"inputs", o.measure.framework_inputs ? "framework" : "signed"}}
                          .dump();
  if (model) run.settings_json = OptimizeModel::with_settings(o, run.settings_json);
  report.run_id = ws.begin_run(run);
  if (model) OptimizeModel::record_prompt_packs(o, ws, report.run_id);

  std::vector<sched::ProblemBounds> bounds;
  std::map<std::string, const mantis::Subject*> by_id;
  for (const mantis::Subject& s : prep.subjects) {
    bounds.push_back({s.row.id, s.row.sol_fp16_ms, s.row.baseline_ms});
    by_id[s.row.id] = &s;
  }
  sched::Scheduler sched(o.policy, bounds);
  // Resume: the scheduler replays every finished attempt of these problems in the order they were made.
  std::vector<store::AttemptRow> done;
  for (const mantis::Subject& s : prep.subjects)
    for (const store::AttemptRow& a : ws.attempts(s.row.id))
      if (a.status != store::AttemptStatus::pending) done.push_back(a);
  std::sort(done.begin(), done.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  for (const store::AttemptRow& a : done)
    if (sched.state(a.problem_id).active()) sched.record(a.problem_id, {a.counts(), a.time_ms.value_or(0), 1.0});
  // ... and is charged the model calls the workspace holds for them; from here every call asks it first.
  if (model) {
    std::vector<std::string> ids;
    for (const sched::ProblemBounds& b : bounds) ids.push_back(b.id);
    model->bind(sched, ws, ids);
  }

  // Every problem starts from its seed: compile them all at once (the scheduler then takes them one at a time).
  std::vector<std::string> seeds;
  for (const mantis::Subject& s : prep.subjects)
    if (ws.attempts(s.row.id).empty()) seeds.push_back(s.seed_spec);
  executor.prebuild(seeds);

  mantis::Loop loop(ws, executor, report.run_id, mantis_options);
  std::unique_ptr<mantis::InPrompt> controller;  // --agent in-prompt: the conversations take the turns
  if (o.mantis.agent == mantis::Agent::in_prompt)
    controller = std::make_unique<mantis::InPrompt>(ws, executor, model->ledger(), report.run_id,
                                                    model->controller_options(o, *gpu, ws));
  std::map<std::string, std::string> notes;  // why a problem left early, as its last iteration said
  std::set<std::string> waiting;  // problems whose next candidate waits, pending, for a GPU
  auto unspent = [&] {  // the attempts the active problems may still make
    size_t n = 0;
    for (const mantis::Subject& s : prep.subjects)
      if (const sched::ProblemState& st = sched.state(s.row.id); st.active())
        n += static_cast<size_t>(std::max(0, o.policy.budget - st.attempts));
    return n;
  };
  if (status) status->stage("optimizing", unspent());
  auto retire = [&](const std::string& id, const std::string& why) {
    sched.exhaust(id);
    // A model's iteration says why it ended in the summary (the built-in's summary is unchanged).
    if (model) notes[id] = why;
    if (progress) progress(fmt::format("{}: done ({})", id, why));
    if (status) status->set_total(static_cast<size_t>(report.attempts_this_run) + unspent());
  };
  while (auto id = sched.next()) {
    const mantis::Subject& s = *by_id.at(*id);
    if (loop.next_iteration(*id) > o.mantis.iterations) {
      retire(*id, fmt::format("{} iterations", o.mantis.iterations));
      continue;
    }
    auto on_attempt = [&](const store::AttemptRow& measured) {
      store::AttemptRow a = measured;
      if (o.detector && a.counts()) model->review(s, ws, report.run_id, a);  // before the scheduler counts it
      sched.record(a.problem_id, {a.counts(), a.time_ms.value_or(0), 1.0});
      ++report.attempts_this_run;
      if (status) status->count();
      report.build_seconds += a.build_seconds;
      report.run_seconds += a.run_seconds;
      const sched::ProblemState& st = sched.state(a.problem_id);
      if (progress) {
        std::string speed = st.best_ms && s.row.baseline_ms ? fmt::format(", {:.2f}x eager", *s.row.baseline_ms / *st.best_ms) : "";
        std::string gap = st.best_ms && s.row.sol_tf32_ms > 0 ? fmt::format(", gap {:.2f}", *st.best_ms / s.row.sol_tf32_ms) : "";
        progress(fmt::format("{} it{} #{} {}{}: best {}{}{} [{} attempts{}]", a.problem_id, a.iteration, a.id,
                             enum_name(a.status), a.time_ms ? " " + ms_text(a.time_ms) : "",
                             ms_text(st.best_ms), speed, gap, st.attempts,
                             st.left ? fmt::format(", leaves: {}", sched::leave_reason_name(*st.left)) : ""));
      }
      return st.active();
    };
    int iteration = loop.next_iteration(*id);
    std::string turn = fmt::format("{} it{}", *id, iteration);
    if (status) status->start(turn);
    mantis::IterationResult r;
    if (controller) {  // pending attempts and the seed are the loop's; then the conversation's turn
      r = loop.resume(s, on_attempt);
      if (r.iteration > 0 && r.attempts == 0 && !r.needs_gpu && !r.stopped)
        r = controller->step(s, on_attempt);
    } else {
      r = loop.step(s, on_attempt);
    }
    if (status) status->drop(turn);
    if (model) model->charge(*id);  // may end the run: every problem leaves once the model budget is spent
    if (r.needs_gpu) {
      // Its candidate waits for a GPU; the other problems still get theirs compiled. Exhausting takes the
      // problem off this run's rotation only: the next run starts from the workspace, where the attempt is
      // pending.
      if (no_gpu.empty()) no_gpu = r.note;
      waiting.insert(*id);
      report.build_seconds += r.waiting_build_seconds;
      if (sched.state(*id).active()) sched.exhaust(*id);
      if (progress) progress(fmt::format("{}: a candidate is compiled and waits for a GPU", *id));
      continue;
    }
    if (sched.state(*id).active()) {
      if (r.exhausted) retire(*id, r.note);
      else if (r.attempts == 0 && loop.next_iteration(*id) <= iteration)  // nothing measured, nothing closed
        retire(*id, "the iteration found nothing new to measure");
    }
    // While the next problem is measured, every active problem's next iteration compiles (all cores).
    for (const mantis::Subject& other : prep.subjects)
      if (sched.state(other.row.id).active() && loop.next_iteration(other.row.id) <= o.mantis.iterations)
        loop.plan_ahead(other);
  }
  loop.drop_plans();
  ws.finish_run(report.run_id);
  report.model_budget = sched.model_budget_spent();
  if (model) {
    report.model_calls = model->ledger().sent_calls();
    report.model_tokens = model->ledger().sent_tokens();
    report.model_usd = model->ledger().sent_cost_usd();
  }

  for (const mantis::Subject& s : prep.subjects) {
    OptimizeRow row{s.row.id, OptimizeStatus::optimized};
    const sched::ProblemState& st = sched.state(s.row.id);
    row.attempts = static_cast<int>(ws.attempts(s.row.id).size());
    if (auto best = ws.best_attempt(s.row.id)) row.best_ms = best->time_ms;
    row.baseline_ms = s.row.baseline_ms;
    row.sol_tf32_ms = s.row.sol_tf32_ms;
    row.waits_for_gpu = waiting.count(s.row.id) > 0;
    if (st.left && !row.waits_for_gpu) row.left = std::string(sched::leave_reason_name(*st.left));
    if (auto note = notes.find(s.row.id); note != notes.end() && row.left == "exhausted")
      row.note = note->second;
    report.rows.push_back(row);
  }
  if (!waiting.empty()) {
    report.needs_gpu = true;
    report.waiting = static_cast<int>(waiting.size());
    bool one = report.waiting == 1;
    report.message = fmt::format(
        "{}. {} compiled ({:.0f} s) and {} in {}: run the same command on a GPU machine, or move the "
        "workspace there (`ucutlass workspace export` / `import`).",
        no_gpu, one ? "1 candidate is" : fmt::format("{} candidates are", report.waiting),
        report.build_seconds, one ? "waits as a pending attempt" : "wait as pending attempts", o.workspace);
  }
  return report;
}

std::string optimize_markdown(const OptimizeReport& r) {
  std::string times = fmt::format("(compile {:.0f} s, run {:.0f} s)", r.build_seconds, r.run_seconds);
  std::string md;
  if (!r.needs_gpu)
    md = fmt::format("Run {}: {} attempts measured in this run {}.\n\n", r.run_id, r.attempts_this_run,
                     times) +
         (r.message.empty() ? "" : r.message + "\n\n");
  else if (r.attempts_this_run == 0)
    md = fmt::format("Run {}: nothing timed: {}\n\n", r.run_id, r.message);
  else
    md = fmt::format("Run {}: {} attempts finished in this run {}; then nothing could be timed: {}\n\n",
                     r.run_id, r.attempts_this_run, times, r.message);
  if (!r.model_budget.empty()) md += "The run stopped: " + r.model_budget + ".\n\n";
  if (r.model_calls > 0)
    md += fmt::format(
        "Model calls sent in this run: {}, {} tokens, ${:.4f} (calls replayed from the workspace are "
        "not charged again).\n\n",
        r.model_calls, r.model_tokens, r.model_usd);
  md += "| problem | state | attempts | best | eager (recorded) | speedup | gap to TF32 SOL |\n|---|---|---|---|---|---|---|\n";
  for (const OptimizeRow& row : r.rows) {
    std::string state = row.status == OptimizeStatus::skipped ? "skipped: " + row.detail
                        : row.waits_for_gpu                   ? "waits for a GPU"
                        : row.left.empty()                    ? "active"
                        : row.note.empty()                    ? "done: " + row.left
                                           : "done: " + row.left + " (" + markdown_cell(row.note) + ")";
    std::string speedup = row.best_ms && row.baseline_ms ? fmt::format("{:.2f}x", *row.baseline_ms / *row.best_ms) : "—";
    std::string gap = row.best_ms && row.sol_tf32_ms && *row.sol_tf32_ms > 0 ? fmt::format("{:.2f}", *row.best_ms / *row.sol_tf32_ms) : "—";
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", row.problem, state, row.attempts, ms_text(row.best_ms),
                      ms_text(row.baseline_ms), speedup, gap);
  }
  return md;
}

}  // namespace ucut
