// report/workspace_report.cpp — see workspace_report.h.
#include "report/workspace_report.h"
#include "support/files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

namespace ucut::report {
namespace {

using store::AttemptRow;
using store::AttemptStatus;

bool correct_time(const AttemptRow& a) {
  return a.status == AttemptStatus::measured && a.correct && a.time_ms && *a.time_ms > 0;
}

void keep_min(std::optional<double>& best, double v) {
  if (!best || v < *best) best = v;
}

std::optional<double> ratio(const std::optional<double>& num, const std::optional<double>& den) {
  if (!num || !den || *den <= 0) return std::nullopt;
  return *num / *den;
}

/// The problem's Analyze stages over every run, ordered by iteration (then by when they were stored).
std::vector<Bottleneck> analyzed(store::Workspace& ws, const std::string& problem_id,
                                 const std::vector<store::RunRow>& runs) {
  std::vector<std::pair<int64_t, Bottleneck>> found;
  for (const store::RunRow& r : runs)
    for (const store::StageRow& s : ws.stages(problem_id, r.id)) {
      if (s.stage != store::Stage::analyze) continue;
      nlohmann::json j = nlohmann::json::parse(s.json, nullptr, false);
      if (j.is_discarded() || !j.is_object()) continue;
      std::optional<sol::Bottleneck> cls = parse_enum<sol::Bottleneck>(j.value("bottleneck", "unknown"));
      if (!cls) continue;
      found.push_back(
          {s.id, {s.iteration, *cls, parse_enum<sol::BottleneckSource>(j.value("bottleneck_source", ""))}});
    }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.second.iteration != b.second.iteration ? a.second.iteration < b.second.iteration : a.first < b.first;
  });
  std::vector<Bottleneck> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

ProblemReport problem_report(const store::ProblemRow& p, const std::vector<AttemptRow>& attempts,
                             const std::vector<Bottleneck>& stages) {
  ProblemReport r;
  r.id = p.id;
  r.family = p.family;
  r.shape_class = p.shape_class;
  r.attempts = static_cast<int>(attempts.size());
  for (const AttemptRow& a : attempts) {
    if (a.status == AttemptStatus::pending) ++r.pending;
    else if (a.status == AttemptStatus::measured && a.correct) ++r.measured;
    else ++r.failed;
    if (a.flagged) ++r.flagged;
    if (a.counts()) keep_min(r.best_ms, *a.time_ms);
    if (correct_time(a)) keep_min(r.best_any_ms, *a.time_ms);
    if (a.proposer == "seed" && a.counts()) r.seed_ms = a.time_ms;
    r.build_seconds += a.build_seconds;
    r.run_seconds += a.run_seconds;
    r.profile_seconds += a.profile_seconds;
  }
  if (p.baseline_ms && *p.baseline_ms > 0) r.baseline_ms = p.baseline_ms;
  r.baseline_kind = p.baseline_kind;
  r.speedup = ratio(r.baseline_ms, r.best_ms);
  r.speedup_any = ratio(r.baseline_ms, r.best_any_ms);
  r.sol_tf32_ms = p.sol_tf32_ms;
  r.sol_fp16_ms = p.sol_fp16_ms;
  if (p.sol_tf32_ms > 0) {
    r.gap = ratio(r.best_ms, p.sol_tf32_ms);
    if (r.gap) r.sol_pct = 100 / *r.gap;
  }
  if (p.min_bytes > 0) r.intensity = p.flops / p.min_bytes;
  if (r.best_ms) r.achieved_tflops = p.flops / (*r.best_ms * 1e-3) / 1e12;
  if (!stages.empty()) {
    r.first = stages.front();
    r.last = stages.back();
  }
  return r;
}

double geomean(const std::vector<std::optional<double>>& speedups) {
  if (speedups.empty()) return 1;
  double log_sum = 0;
  for (const auto& s : speedups) log_sum += std::log(s.value_or(1.0));
  return std::exp(log_sum / static_cast<double>(speedups.size()));
}

std::vector<CurvePoint> fast_curve(const std::vector<std::optional<double>>& speedups, double p_max) {
  constexpr int kSteps = 200;
  std::vector<CurvePoint> out;
  for (int i = 0; i <= kSteps; ++i) {
    double p = p_max * i / kSteps;
    out.push_back({p, fast_share(speedups, p)});
  }
  return out;
}

/// Per scored problem, k → fast_1 of the best counting attempt among its first k finished ones.
std::vector<CurvePoint> attempt_curve(const std::vector<std::pair<double, std::vector<AttemptRow>>>& scored,
                                      int budget) {
  std::vector<CurvePoint> out;
  for (int k = 1; k <= budget; ++k) {
    std::vector<std::optional<double>> speedups;
    for (const auto& [baseline, attempts] : scored) {
      std::optional<double> best;
      for (int i = 0; i < k && i < static_cast<int>(attempts.size()); ++i)
        if (attempts[i].counts()) keep_min(best, *attempts[i].time_ms);
      speedups.push_back(ratio(baseline, best));
    }
    out.push_back({static_cast<double>(k), fast_share(speedups, 1)});
  }
  return out;
}

TimeShare time_share(const std::vector<std::vector<AttemptRow>>& all, const std::vector<store::RunRow>& runs) {
  TimeShare t;
  std::set<int64_t> finished;
  for (const store::RunRow& r : runs)
    if (std::optional<double> s = seconds_between(r.started, r.finished); s && *s > 0) {
      finished.insert(r.id);
      t.wall_seconds += *s;
    }
  t.finished_runs = static_cast<int>(finished.size());
  for (const auto& attempts : all)
    for (const AttemptRow& a : attempts) {
      t.build_seconds += a.build_seconds;
      t.run_seconds += a.run_seconds;
      t.profile_seconds += a.profile_seconds;
      if (a.build_seconds > 0) ++t.kernels_built;
      if (a.build_seconds > 0 && finished.count(a.run_id)) ++t.wall_kernels;
    }
  if (t.build_seconds > 0) t.kernels_per_minute = t.kernels_built / (t.build_seconds / 60);
  if (t.wall_seconds > 0) t.kernels_per_wall_minute = t.wall_kernels / (t.wall_seconds / 60);
  double total = t.build_seconds + t.run_seconds + t.profile_seconds;
  if (total > 0) {
    t.build_pct = 100 * t.build_seconds / total;
    t.run_pct = 100 * t.run_seconds / total;
    t.profile_pct = 100 * t.profile_seconds / total;
  }
  return t;
}

}  // namespace

RooflineGpu roofline_gpu(const sol::GpuSpec& gpu) {
  return {gpu.key, gpu.name, gpu.peak_tflops(sol::Precision::tf32).value_or(0),
          gpu.peak_tflops(sol::Precision::fp16).value_or(0), gpu.bandwidth_tbs};
}

double fast_share(const std::vector<std::optional<double>>& speedups, double p) {
  if (speedups.empty()) return 0;
  auto fast = std::count_if(speedups.begin(), speedups.end(), [p](const auto& s) { return s && *s > p; });
  return static_cast<double>(fast) / static_cast<double>(speedups.size());
}

WorkspaceReport build_report(store::Workspace& ws, std::optional<RooflineGpu> gpu) {
  WorkspaceReport rep;
  rep.workspace = ws.path();
  rep.gpu = std::move(gpu);
  std::vector<store::RunRow> runs = ws.runs();
  for (const store::RunRow& r : runs)
    rep.runs.push_back({r.id, r.command, r.started, r.finished.empty() ? "unfinished" : r.finished,
                        ws.llm_usage({.run_id = r.id}).total()});

  std::vector<std::vector<AttemptRow>> all;
  std::vector<std::pair<double, std::vector<AttemptRow>>> scored;  // baseline, finished attempts
  std::vector<sched::RecordedProblem> recording;
  std::vector<std::optional<double>> filtered, unfiltered;
  std::set<std::string> machines;
  for (const store::ProblemRow& p : ws.problems()) {
    std::vector<AttemptRow> attempts = ws.attempts(p.id);
    for (const AttemptRow& a : attempts)
      if (std::string on = a.status == AttemptStatus::measured ? a.measured_on() : ""; !on.empty()) machines.insert(on);
    ProblemReport r = problem_report(p, attempts, analyzed(ws, p.id, runs));
    std::vector<AttemptRow> finished;
    for (const AttemptRow& a : attempts)
      if (a.status != AttemptStatus::pending) finished.push_back(a);
    rep.budget = std::max(rep.budget, static_cast<int>(finished.size()));
    if (r.baseline_ms) {
      filtered.push_back(r.speedup);
      unfiltered.push_back(r.speedup_any);
      scored.push_back({*r.baseline_ms, finished});
    } else {
      rep.no_baseline.push_back(p.id);
    }
    if (p.sol_fp16_ms > 0) {
      sched::RecordedProblem rec{p.id, p.sol_fp16_ms, r.baseline_ms, {}};
      for (const AttemptRow& a : finished)
        rec.attempts.push_back({a.counts() && *a.time_ms > 0, a.time_ms.value_or(0), 1.0});
      recording.push_back(std::move(rec));
    }
    all.push_back(std::move(attempts));
    rep.problems.push_back(std::move(r));
  }

  rep.scored = static_cast<int>(filtered.size());
  rep.geomean_filtered = geomean(filtered);
  rep.geomean_unfiltered = geomean(unfiltered);
  rep.inflation = rep.geomean_unfiltered / rep.geomean_filtered;
  for (double p : kFastP) rep.fast_p.push_back({p, fast_share(filtered, p), fast_share(unfiltered, p)});
  double top = 1;
  for (const auto& s : unfiltered) top = std::max(top, s.value_or(0));
  for (const auto& s : filtered) top = std::max(top, s.value_or(0));
  double p_max = std::max(2.0, std::ceil(top * 1.25 * 2) / 2);
  rep.curve_filtered = fast_curve(filtered, p_max);
  rep.curve_unfiltered = fast_curve(unfiltered, p_max);
  rep.attempt_fast_p = attempt_curve(scored, rep.budget);
  if (!recording.empty() && rep.budget > 0)
    rep.grid = sched::replay_grid(recording, kGridEps, kGridWindows, rep.budget);
  rep.time = time_share(all, runs);
  rep.measured_on.assign(machines.begin(), machines.end());
  return rep;
}

}  // namespace ucut::report
