// workflow/suite_bench.cpp — see suite_bench.h.
#include "workflow/suite_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "problem/print.h"
#include "suite/lower.h"
#include "support/files.h"
#include "support/subprocess.h"
#include "support/version.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;


/// Lowers, measures and fills one row; `lowered_dir` receives the harness problem.
SuiteBenchRow measure_one(const suite::Checked& c, const SuiteBenchOptions& o, const fs::path& lowered_dir,
                          SuiteBenchReport& report) {
  SuiteBenchRow row;
  row.problem = c.problem.stem;
  row.family = c.problem.family;
  row.weak_check = c.problem.weak_check;
  suite::Checked at = c;
  if (o.tolerance) at.problem.tolerance = *o.tolerance;
  auto lowered = suite::lower_to_problem(at);
  if (const auto* why = std::get_if<std::string>(&lowered)) {
    row.status = SuiteRowStatus::not_lowerable;
    row.detail = *why;
    return row;
  }
  fs::path spec_path = fs::path(o.impl_dir) / (c.problem.stem + ".ucut");
  if (!fs::exists(spec_path)) {
    row.status = SuiteRowStatus::no_implementation;
    row.detail = fmt::format("no {}", spec_path.string());
    return row;
  }
  Problem problem = std::get<Problem>(std::move(lowered));
  fs::path problem_path = lowered_dir / (c.problem.stem + ".toml");
  problem.path = problem_path.string();
  write_problem_files(problem, problem.path);
  auto spec_text = read_file(spec_path.string());
  if (!spec_text) {
    row.status = SuiteRowStatus::failed;
    row.detail = fmt::format("cannot read {}", spec_path.string());
    return row;
  }
  MeasureReport m = measure_spec(SourceFile(spec_path.string(), *spec_text), problem, o.measure);
  if (!m.worker.gpu_name.empty()) {
    report.gpu_name = m.worker.gpu_name;
    report.driver_version = m.worker.driver_version;
  }
  row.precision_change = m.precision_change;
  if (m.stopped_at != MeasureStep::none || m.shapes.empty()) {
    row.status = SuiteRowStatus::failed;
    MeasureStep at = m.stopped_at == MeasureStep::none ? MeasureStep::gpu : m.stopped_at;
    row.detail = fmt::format("stopped at {}: {}", enum_name(at), m.message);
    if (m.stopped_at == MeasureStep::gpu && m.worker.gpu_name.empty()) report.needs_gpu = true;
    return row;
  }
  const ShapeReport& s = m.shapes.front();
  row.status = s.result.status == ShapeStatus::ok ? SuiteRowStatus::measured : SuiteRowStatus::failed;
  if (row.status == SuiteRowStatus::failed)
    row.detail = fmt::format("{}: {}", enum_name(s.result.status), s.result.error);
  row.correct = s.result.status == ShapeStatus::ok && s.result.verify.pass;
  row.flagged = !counts(s.flags);
  for (const IntegrityFlag& f : s.flags) row.flags.push_back(f.id);
  row.ours_ms = s.result.candidate.event_ms.median;
  row.pct_sol_tf32 = s.pct_sol_tf32;
  row.pct_sol_fp16 = s.pct_sol_fp16;
  row.vs_vendor = s.vs_cublas;
  row.vendor = s.result.baseline_library;
  return row;
}

/// Times PyTorch eager and torch.compile for the measured problems with the baseline script, in this session.
void time_torch(const std::vector<const suite::Checked*>& measured, const SuiteBenchOptions& o,
                SuiteBenchReport& report, std::vector<SuiteBenchRow*>& rows) {
  fs::path torch_dir = fs::path(o.out_dir) / "torch";
  std::vector<std::string> argv = {o.python, o.torch_script};
  for (const suite::Checked* c : measured) argv.push_back(c->problem.path);
  for (const char* a : {"--out", torch_dir.c_str(), "--jobs", "1"}) argv.push_back(a);
  if (!o.torch_compile) argv.push_back("--no-compile");
  ProcessOptions po = ProcessOptions::with_timeout(3600);
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) po.extra_env.push_back("UCUTLASS=" + self.string());
  ProcessResult r = run_process(argv, po);
  if (!r.ok()) {
    report.torch_error = fmt::format("{} {} failed ({}): {}", o.python, o.torch_script, r.describe(),
                                     r.err.size() > 2000 ? r.err.substr(r.err.size() - 2000) : r.err);
    return;
  }
  if (auto all = read_file(torch_dir / "baseline.json")) {
    auto j = nlohmann::json::parse(*all, nullptr, false);
    if (!j.is_discarded() && j.contains("meta")) report.torch_meta = j["meta"];
  }
  for (SuiteBenchRow* row : rows) {
    auto text = read_file(torch_dir / "problems" / (row->problem + ".json"));
    if (!text) continue;
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded()) continue;
    if (j.contains("eager") && j["eager"].contains("median")) row->eager_ms = j["eager"]["median"].get<double>();
    if (j.contains("compile") && j["compile"].contains("median"))
      row->compile_ms = j["compile"]["median"].get<double>();
  }
}

std::vector<suite::ProblemOutcome> outcomes(const SuiteBenchReport& r, bool compile) {
  std::vector<suite::ProblemOutcome> out;
  for (const SuiteBenchRow& row : r.rows) {
    suite::ProblemOutcome o{row.problem, row.correct, row.flagged, !row.weak_check.empty(), std::nullopt};
    const std::optional<double>& base = compile ? row.compile_ms : row.eager_ms;
    if (row.correct && base && row.ours_ms > 0) o.speedup = *base / row.ours_ms;
    out.push_back(o);
  }
  return out;
}

}  // namespace

SuiteBenchReport bench_suite(const std::vector<suite::Checked>& problems, const SuiteBenchOptions& o,
                             Progress* progress) {
  SuiteBenchReport report;
  report.date = utc_now();
  report.commit = std::string(build_commit());
  report.impl_dir = o.impl_dir;
  report.conditions = fmt::format("tolerance {}, {} inputs", o.tolerance ? fmt::format("{:g} (atol = rtol, every problem)", *o.tolerance) : "the problems' own",
                                  o.measure.framework_inputs ? "framework (each problem's framework_inputs: KernelBench's torch.rand, PyTorch's layer init)" : "signed");
  fs::path lowered_dir = fs::path(o.out_dir) / "problems";
  fs::create_directories(lowered_dir);
  // Every implemented problem's kernel compiles at once; measuring then takes them one at a time from the cache.
  std::vector<SourceFile> specs;
  for (const suite::Checked& c : problems) {
    fs::path spec_path = fs::path(o.impl_dir) / (c.problem.stem + ".ucut");
    if (auto text = read_file(spec_path)) specs.emplace_back(spec_path.string(), *text);
  }
  prebuild_specs(specs, o.measure, progress);
  std::vector<const suite::Checked*> measured;
  if (progress) progress->stage("measuring", problems.size());
  for (const suite::Checked& c : problems) {
    if (progress) progress->start(c.problem.stem);
    report.rows.push_back(measure_one(c, o, lowered_dir, report));
    if (report.rows.back().status == SuiteRowStatus::measured) measured.push_back(&c);
    if (progress) progress->finish(c.problem.stem);
  }
  std::vector<SuiteBenchRow*> measured_rows;
  for (SuiteBenchRow& row : report.rows)
    if (row.status == SuiteRowStatus::measured) measured_rows.push_back(&row);
  if (!o.torch) report.torch_error = "PyTorch timing was switched off (--no-torch): no speedups";
  else if (measured.empty()) report.torch_error = "no problem was measured, so PyTorch was not timed";
  else {
    if (progress) progress->stage(fmt::format("timing PyTorch on {} problems", measured.size()), 0);
    time_torch(measured, o, report, measured_rows);
  }
  score_suite_bench(report);
  return report;
}

void score_suite_bench(SuiteBenchReport& report) {
  std::vector<suite::ProblemOutcome> vs_eager = outcomes(report, false), vs_compile = outcomes(report, true);
  report.eager = suite::score(vs_eager, false);
  report.eager_filtered = suite::score(vs_eager, true);
  report.compile = report.compile_filtered = std::nullopt;
  if (std::any_of(report.rows.begin(), report.rows.end(), [](const SuiteBenchRow& r) { return r.compile_ms; })) {
    report.compile = suite::score(vs_compile, false);
    report.compile_filtered = suite::score(vs_compile, true);
  }
}

namespace {

nlohmann::json score_json(const std::optional<suite::Score>& timed) {
  if (!timed) return nullptr;  // the PyTorch side was not timed
  const suite::Score& s = *timed;
  nlohmann::json fast = nlohmann::json::object();
  for (size_t i = 0; i < suite::kFastP.size(); ++i) fast[fmt::format("{}", suite::kFastP[i])] = s.fast_p[i];
  nlohmann::json j = {{"problems", s.problems}, {"correct", s.correct}, {"fast_p", fast}};
  j["geomean_speedup"] = s.geomean ? nlohmann::json(*s.geomean) : nlohmann::json(nullptr);
  return j;
}

}  // namespace

nlohmann::json suite_bench_json(const SuiteBenchReport& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const SuiteBenchRow& row : r.rows) {
    nlohmann::json j = {{"problem", row.problem}, {"family", row.family},   {"weak_check", row.weak_check},
                        {"status", row.status},   {"detail", row.detail},   {"correct", row.correct},
                        {"flagged", row.flagged}, {"flags", row.flags},     {"precision_change", row.precision_change},
                        {"ours_ms", row.ours_ms}, {"pct_sol_tf32", row.pct_sol_tf32},
                        {"pct_sol_fp16", row.pct_sol_fp16}, {"vs_vendor", row.vs_vendor}, {"vendor", row.vendor}};
    j["eager_ms"] = row.eager_ms ? nlohmann::json(*row.eager_ms) : nlohmann::json(nullptr);
    j["compile_ms"] = row.compile_ms ? nlohmann::json(*row.compile_ms) : nlohmann::json(nullptr);
    j["measured"] = row.measured.empty() ? r.date : row.measured;
    rows.push_back(std::move(j));
  }
  nlohmann::json j = {{"gpu", r.gpu_name},
                      {"driver", r.driver_version},
                      {"date", r.date},
                      {"impl", r.impl_dir},
                      {"conditions", r.conditions},
                      {"torch", r.torch_meta},
                      {"torch_error", r.torch_error},
                      {"parts", r.parts},
                      {"replaced", r.replaced},
                      {"statistic", "median of cold-L2 CUDA-event times on both sides"},
                      {"rows", rows},
                      {"scores",
                       {{"vs_eager", score_json(r.eager)},
                        {"vs_compile", score_json(r.compile)},
                        {"vs_eager_filtered", score_json(r.eager_filtered)},
                        {"vs_compile_filtered", score_json(r.compile_filtered)}}}};
  if (!r.commit.empty()) j["commit"] = r.commit;  // reports written before it was recorded have none
  if (!r.command.empty()) j["command"] = r.command;
  return j;
}

SuiteBenchReport suite_bench_from_json(const nlohmann::json& j) {
  try {
    SuiteBenchReport r;
    r.gpu_name = j.at("gpu").get<std::string>();
    r.driver_version = j.at("driver").get<std::string>();
    r.date = j.at("date").get<std::string>();
    r.impl_dir = j.at("impl").get<std::string>();
    r.commit = j.value("commit", "");
    r.command = j.value("command", "");
    r.conditions = j.at("conditions").get<std::string>();
    r.torch_meta = j.at("torch");
    r.torch_error = j.at("torch_error").get<std::string>();
    r.parts = j.value("parts", std::vector<std::string>{});
    r.replaced = j.value("replaced", std::vector<std::string>{});
    for (const nlohmann::json& x : j.at("rows")) {
      SuiteBenchRow row;
      row.problem = x.at("problem").get<std::string>();
      row.family = x.at("family").get<std::string>();
      row.weak_check = x.at("weak_check").get<std::vector<std::string>>();
      row.status = x.at("status").get<SuiteRowStatus>();
      row.detail = x.at("detail").get<std::string>();
      row.correct = x.at("correct").get<bool>();
      row.flagged = x.at("flagged").get<bool>();
      row.flags = x.at("flags").get<std::vector<FlagId>>();
      row.precision_change = x.at("precision_change").get<bool>();
      row.ours_ms = x.at("ours_ms").get<double>();
      row.pct_sol_tf32 = x.at("pct_sol_tf32").get<double>();
      row.pct_sol_fp16 = x.at("pct_sol_fp16").get<double>();
      row.vs_vendor = x.at("vs_vendor").get<double>();
      row.vendor = x.at("vendor").get<VendorLibrary>();
      if (!x.at("eager_ms").is_null()) row.eager_ms = x["eager_ms"].get<double>();
      if (!x.at("compile_ms").is_null()) row.compile_ms = x["compile_ms"].get<double>();
      row.measured = x.value("measured", r.date);  // reports before rows kept their date: the run's
      r.rows.push_back(std::move(row));
    }
    score_suite_bench(r);
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("not a `bench kernelbench` report: {}", e.what()));
  }
}

SuiteBenchReport combine_suite_bench(const std::vector<SuiteBenchReport>& runs, bool newest_wins) {
  if (runs.empty()) throw std::runtime_error("no reports to combine");
  SuiteBenchReport out;
  const SuiteBenchReport& first = runs.front();
  out.gpu_name = first.gpu_name;
  out.driver_version = first.driver_version;
  out.conditions = first.conditions;
  out.torch_meta = nlohmann::json::array();
  // A run that had no implementation of a problem did not measure it: that row gives way to a run that did.
  std::set<std::string> attempted, seen;
  std::map<std::string, std::string> newest;  // newest_wins: each measured problem's newest measurement
  auto measured = [](const SuiteBenchReport& run, const SuiteBenchRow& row) {
    return row.measured.empty() ? run.date : row.measured;
  };
  for (const SuiteBenchReport& run : runs)
    for (const SuiteBenchRow& row : run.rows)
      if (row.status != SuiteRowStatus::no_implementation) {
        attempted.insert(row.problem);
        std::string& date = newest[row.problem];
        date = std::max(date, measured(run, row));
      }
  for (const SuiteBenchReport& run : runs) {
    if (run.gpu_name != first.gpu_name || run.driver_version != first.driver_version)
      throw std::runtime_error(fmt::format("the run of {} was on {} (driver {}), the run of {} on {} (driver {}): "
                                           "combine runs of one GPU and driver only",
                                           first.date, first.gpu_name, first.driver_version, run.date, run.gpu_name,
                                           run.driver_version));
    if (run.conditions != first.conditions)
      throw std::runtime_error(fmt::format("the run of {} verified at \"{}\", the run of {} at \"{}\": combine runs "
                                           "of one tolerance and input choice only",
                                           first.date, first.conditions, run.date, run.conditions));
    for (const SuiteBenchRow& row : run.rows) {
      bool unattempted = row.status == SuiteRowStatus::no_implementation;
      if (unattempted && (attempted.count(row.problem) || seen.count(row.problem))) continue;
      if (newest_wins && !unattempted && measured(run, row) != newest.at(row.problem)) {
        out.replaced.push_back(fmt::format("{} of {} (replaced by the run of {})", row.problem,
                                           measured(run, row), newest.at(row.problem)));
        continue;
      }
      if (!seen.insert(row.problem).second)
        throw std::runtime_error(fmt::format("{} is in more than one run (again in the run of {}); pass runs that "
                                             "measured different problems, or --newest-wins to take its newest run's row",
                                             row.problem, run.date));
      out.rows.push_back(row);
      out.rows.back().measured = measured(run, row);
    }
    out.date = std::max(out.date, run.date);
    if (!run.torch_error.empty()) out.torch_error += fmt::format("{}{}: {}", out.torch_error.empty() ? "" : "; ", run.date, run.torch_error);
    out.replaced.insert(out.replaced.end(), run.replaced.begin(), run.replaced.end());
    if (!run.parts.empty()) {  // a combined run: its own runs, each with its PyTorch sessions, in its place
      out.parts.insert(out.parts.end(), run.parts.begin(), run.parts.end());
      for (size_t i = 0; i < run.parts.size(); ++i)
        out.torch_meta.push_back(run.torch_meta.is_array() && i < run.torch_meta.size() ? run.torch_meta[i]
                                                                                        : nlohmann::json());
      continue;
    }
    out.torch_meta.push_back(run.torch_meta);
    out.parts.push_back(fmt::format("{} ({} problems{}){}", run.date, run.rows.size(),
                                    run.commit.empty() ? "" : ", ucutlass " + run.commit,
                                    run.command.empty() ? "" : ": " + run.command));
  }
  std::sort(out.rows.begin(), out.rows.end(), [](const SuiteBenchRow& a, const SuiteBenchRow& b) { return a.problem < b.problem; });
  score_suite_bench(out);
  return out;
}

}  // namespace ucut
