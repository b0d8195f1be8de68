// workflow/mskb_tune.cpp — see mskb_tune.h.
#include "workflow/mskb_tune.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>

#include "build/cache.h"
#include "build/toolchain.h"
#include "compiler/pipeline.h"
#include "export/export.h"
#include "mskb/signature.h"
#include "support/files.h"
#include "support/markdown_cell.h"
#include "workflow/mskb_floor.h"

namespace fs = std::filesystem;

namespace ucut {
namespace {

using mskb::Precision;
using mskb::Role;
using mskb::Task;
using search::LaunchPoint;

/// A variant ready to measure: its spec text and the launcher file built from it.
struct Prepared {
  LaunchPoint point;
  std::string text, hash, launcher_path, launcher_text;
};

/// The first error of a compilation, as "C702: message".
std::string first_error(const DiagEngine& diags) {
  for (const Diagnostic& d : diags.diagnostics())
    if (d.severity == Severity::error) return fmt::format("{}: {}", rule_info(d.rule).code, d.message);
  return "no error reported";
}

/// The launch `p` of `spec` (the spec's own text for its own launch), checked and exported as the pair's
/// launcher under `work`; nullopt when check refuses it (counted in `rejected`) or it does not export (`error`).
std::optional<Prepared> prepare(const std::string& spec, const LaunchPoint& p, bool as_written,
                                const std::string& name, const fs::path& work, search::Rejections& rejected,
                                std::string* error) {
  Prepared v{p, spec, "", "", ""};
  if (!as_written) {
    std::optional<std::string> text = search::apply_move(spec, search::launch_move(p), error);
    if (!text) return std::nullopt;
    v.text = *text;
  }
  search::Verdict verdict = search::validate(v.text, nullptr);
  if (!verdict.ok) {
    rejected.add(verdict.rule);
    if (as_written) *error = fmt::format("the spec does not check: {}: {}", verdict.rule, verdict.message);
    return std::nullopt;
  }
  v.hash = verdict.config_hash;
  interop::ExportResult x = interop::export_mskb(SourceFile(name + ".ucut", v.text), name);
  if (!x.ok()) {
    *error = "the spec does not export as the task's launcher: " + first_error(x.comp.diags);
    return std::nullopt;
  }
  fs::path dir = work / v.hash.substr(0, 16);
  fs::create_directories(dir);
  v.launcher_path = (dir / x.files.front().name).string();
  v.launcher_text = x.files.front().text;
  if (!write_file(v.launcher_path, v.launcher_text)) {
    *error = "cannot write " + v.launcher_path;
    return std::nullopt;
  }
  return v;
}

/// `label`'s first failure in `rep`: its build error, else the first case it did not pass.
std::string failure_of(const MskbPairReport& rep, const std::string& label) {
  if (auto it = rep.build_errors.find(label); it != rep.build_errors.end()) return it->second;
  for (const MskbCaseRow& row : rep.cases) {
    auto it = row.impls.find(label);
    if (it == row.impls.end()) return fmt::format("{}: not measured", row.label);
    if (!it->second.ok())
      return fmt::format("{}: {}", row.label,
                         !it->second.error.empty() ? it->second.error
                                                   : fmt::format("{}", enum_name(it->second.status)));
  }
  return "";
}

/// The variant measured as `label` in the round's report.
TuneVariant score_variant(const MskbPairReport& rep, const Prepared& v, const std::string& label, int round) {
  TuneVariant t;
  t.round = round;
  t.point = v.point;
  t.label = label;
  t.phrase = search::move_phrase(search::launch_move(v.point));
  t.spec_hash = v.hash;
  t.kernel = launcher_score(rep, label, "naive", false);
  t.compat = launcher_score(rep, label, "naive", true);
  t.ok = t.kernel.all_correct();
  if (!t.ok) t.error = failure_of(rep, label);
  if (!rep.cases.empty()) {
    const MskbCaseRow& largest = rep.cases.back();
    auto it = largest.impls.find(label);
    if (it != largest.impls.end() && it->second.gpu_ms > 0) {
      t.largest_ms = it->second.gpu_ms;
      t.sol_eff_share = std::max(largest.sol_ms, largest.sol_eff_ms) / t.largest_ms;
    }
  }
  return t;
}

class PairTuner {
 public:
  PairTuner(const MskbTuneOptions& o, const Task& t, Precision p, const KernelCache& cache,
            const sol::GpuTable* table, const sol::GpuSpec* gpu, MskbFloorSource& floors)
      : o_(o), task_(t), prec_(p), cache_(cache), table_(table), gpu_(gpu), floors_(floors) {
    pair_.task = t.name;
    pair_.name = launcher_name(t, p);
    pair_.precision = p;
    pair_.spec_path = (fs::path(o.specs_dir) / (pair_.name + ".ucut")).string();
    work_ = fs::path(o.out_dir) / "work" / pair_.name;
  }

  MskbTunePair run();

 private:
  bool start();
  /// Measures `batch` (the spec as written first) side by side with the naive launcher; false when no GPU ran it.
  bool measure(const std::vector<Prepared>& batch);
  std::vector<Prepared> prepare_all(const std::vector<LaunchPoint>& points);
  void write_best();

  const MskbTuneOptions& o_;
  const Task& task_;
  Precision prec_;
  const KernelCache& cache_;
  const sol::GpuTable* table_;
  const sol::GpuSpec* gpu_;
  MskbFloorSource& floors_;
  MskbTunePair pair_;
  fs::path work_;
  std::string spec_;
  std::optional<Prepared> as_written_;
  std::optional<Prepared> best_;
  std::set<LaunchPoint> tried_;
  std::set<std::string> hashes_;  // variants measured, by spec hash (two launches may lower the same)
  search::LaunchSpace space_;
};

bool PairTuner::start() {
  std::optional<std::string> text = read_file(pair_.spec_path);
  if (!text) {
    pair_.error = fmt::format("no spec {} (write one, or pass --specs)", pair_.spec_path);
    return false;
  }
  spec_ = *text;
  Compilation c = compile_spec(SourceFile(pair_.spec_path, spec_), StopAfter::lower);
  if (!c.memop) {
    pair_.error = c.ok() ? "not a memory-bound family kernel (map, reduce, ...): `mskb tune` moves their launch"
                         : "the spec does not lower: " + first_error(c.diags);
    return false;
  }
  space_ = search::launch_space(*c.memop);
  std::string error;
  as_written_ = prepare(spec_, search::launch_point(c.memop->tune), true, pair_.name, work_, pair_.rejected, &error);
  if (!as_written_) pair_.error = error;
  return as_written_.has_value();
}

std::vector<Prepared> PairTuner::prepare_all(const std::vector<LaunchPoint>& points) {
  std::vector<Prepared> out;
  for (const LaunchPoint& p : points) {
    if (static_cast<int>(hashes_.size()) >= o_.budget) break;
    tried_.insert(p);
    std::string error;
    std::optional<Prepared> v = prepare(spec_, p, false, pair_.name, work_, pair_.rejected, &error);
    if (!v || !hashes_.insert(v->hash).second) continue;
    out.push_back(std::move(*v));
  }
  return out;
}

bool PairTuner::measure(const std::vector<Prepared>& batch) {
  std::vector<mskb::LauncherSource> sources;
  for (const mskb::LauncherSource& s : mskb::launcher_sources(task_, prec_, o_.bench.suite_dir, ""))
    if (s.role == Role::naive) sources.push_back(s);
  for (size_t i = 0; i < batch.size(); ++i)
    sources.push_back({Role::candidate, batch[i].launcher_path, pair_.name + "_optimized", {}, fmt::format("v{}", i)});
  MskbPairReport rep = measure_mskb_pair(task_, prec_, sources, o_.bench, cache_, table_, gpu_);
  floors_.apply(rep);
  ++pair_.rounds;
  if (pair_needs_gpu(rep)) {
    pair_.stop = TuneStop::needs_gpu;
    return false;
  }
  pair_.gpu_name = rep.gpu_name;
  pair_.driver_version = rep.driver_version;
  pair_.date = utc_now();
  const size_t first = pair_.variants.size();
  for (size_t i = 0; i < batch.size(); ++i)
    pair_.variants.push_back(score_variant(rep, batch[i], fmt::format("v{}", i), pair_.rounds - 1));
  // The round's winner: the highest P among the variants correct and unflagged on every case.
  int winner = -1;
  for (size_t i = first; i < pair_.variants.size(); ++i) {
    const TuneVariant& v = pair_.variants[i];
    if (v.ok && (winner < 0 || v.kernel.weighted > pair_.variants[static_cast<size_t>(winner)].kernel.weighted))
      winner = static_cast<int>(i);
  }
  pair_.start = static_cast<int>(first);  // the spec as written leads every batch
  if (winner >= 0) {
    pair_.best = winner;
    best_ = batch[static_cast<size_t>(winner) - first];
  }
  return true;
}

MskbTunePair PairTuner::run() {
  if (!start()) {
    pair_.stop = TuneStop::failed;
    return pair_;
  }
  tried_.insert(as_written_->point);
  hashes_.insert(as_written_->hash);
  std::vector<LaunchPoint> seeds = search::seed_points(as_written_->point, space_);
  std::vector<LaunchPoint> points(seeds.begin() + 1, seeds.end());
  double previous = 0;  // the best P before this round, as this round measured it
  for (int round = 0;; ++round) {
    if (round == o_.rounds) {
      pair_.stop = TuneStop::rounds;
      break;
    }
    std::vector<Prepared> batch = {*as_written_};
    if (best_ && best_->hash != as_written_->hash) batch.push_back(*best_);
    const size_t fresh = batch.size();
    for (Prepared& v : prepare_all(points)) batch.push_back(std::move(v));
    if (round > 0 && batch.size() == fresh) {
      pair_.stop = static_cast<int>(hashes_.size()) >= o_.budget ? TuneStop::budget : TuneStop::exhausted;
      break;
    }
    std::cerr << fmt::format("mskb tune: {} round {}: {} variants\n", pair_.name, round + 1, batch.size());
    const size_t first = pair_.variants.size();
    if (!measure(batch)) break;
    if (pair_.best < 0) {
      pair_.stop = TuneStop::failed;
      pair_.error = "no variant was correct on every case: " + pair_.variants[first].error;
      break;
    }
    const TuneVariant& best = pair_.variants[static_cast<size_t>(pair_.best)];
    if (round > 0) previous = pair_.variants[first + (fresh > 1 ? 1 : 0)].kernel.weighted;
    if (best.sol_eff_share >= o_.stop_at) {
      pair_.stop = TuneStop::at_sol;
      break;
    }
    if (round > 0 && best.kernel.weighted < previous * (1 + o_.min_gain)) {
      pair_.stop = TuneStop::converged;
      break;
    }
    points = search::next_points(best.point, tried_, space_, o_.batch);
  }
  if (pair_.best >= 0) write_best();
  return pair_;
}

void PairTuner::write_best() {
  fs::path dir = fs::path(o_.out_dir) / mskb::precision_name(prec_);
  fs::create_directories(dir);
  pair_.best_spec = best_->text;
  fs::path spec = dir / (pair_.name + ".ucut"), launcher = dir / (pair_.name + ".cu");
  if (write_file(spec.string(), best_->text) && write_file(launcher.string(), best_->launcher_text))
    pair_.written = spec.string();
  else
    pair_.error = "cannot write " + spec.string();
}

nlohmann::json score_json(const mskb::PairScore& s) {
  return {{"P", s.weighted}, {"G", s.log_geometric}, {"cases", s.cases}, {"failed", s.failed}};
}

}  // namespace

const char* tune_stop_name(TuneStop s) {
  switch (s) {
    case TuneStop::at_sol:
      return "at SOL";
    case TuneStop::converged:
      return "converged";
    case TuneStop::exhausted:
      return "no untried neighbour";
    case TuneStop::budget:
      return "budget";
    case TuneStop::rounds:
      return "rounds";
    case TuneStop::needs_gpu:
      return "needs a GPU";
    case TuneStop::failed:
      return "failed";
  }
  return "";
}

bool MskbTuneReport::needs_gpu() const {
  return std::any_of(pairs.begin(), pairs.end(), [](const MskbTunePair& p) { return p.stop == TuneStop::needs_gpu; });
}

bool MskbTuneReport::failed() const {
  return std::any_of(pairs.begin(), pairs.end(), [](const MskbTunePair& p) { return p.stop == TuneStop::failed; });
}

MskbTuneReport tune_mskb(const MskbTuneOptions& o) {
  MskbTuneReport report;
  report.date = utc_now();
  std::string error;
  std::vector<const Task*> tasks = selected_tasks(o.bench, &error);
  if (tasks.empty()) throw std::invalid_argument(error);
  auto table = sol::load_default_gpu_table(&error);
  const sol::GpuSpec* gpu = table ? table->find(o.bench.gpu) : nullptr;
  MskbFloorSource floors(o.bench, table ? &*table : nullptr, gpu);
  auto tc = find_toolchain(o.bench.cutlass_dir, &error);
  if (!tc) throw std::runtime_error(error);
  KernelCache cache(o.bench.cache_dir.empty() ? default_cache_dir() : o.bench.cache_dir, *tc);
  auto started = std::chrono::steady_clock::now();
  for (const Task* t : tasks)
    for (Precision p : o.bench.precisions) {
      if (report.needs_gpu()) break;
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (o.bench.time_limit_s > 0 && elapsed > o.bench.time_limit_s) {
        std::cerr << fmt::format("mskb tune: {} not started: past --time-limit\n", launcher_name(*t, p));
        continue;
      }
      PairTuner tuner(o, *t, p, cache, table ? &*table : nullptr, gpu, floors);
      report.pairs.push_back(tuner.run());
      const MskbTunePair& done = report.pairs.back();
      std::cerr << fmt::format("mskb tune: {}: {}\n", done.name,
                               done.error.empty() ? tune_stop_name(done.stop) : done.error);
      if (done.stop == TuneStop::needs_gpu) std::cerr << "mskb tune: no GPU here; the other pairs are not tried\n";
    }
  return report;
}

nlohmann::json mskb_tune_json(const MskbTuneReport& r) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const MskbTunePair& p : r.pairs) {
    nlohmann::json variants = nlohmann::json::array();
    for (const TuneVariant& v : p.variants)
      variants.push_back({{"round", v.round},
                          {"label", v.label},
                          {"launch", nlohmann::json::parse(search::move_json(search::launch_move(v.point)))},
                          {"spec_hash", v.spec_hash},
                          {"kernel", score_json(v.kernel)},
                          {"compat", score_json(v.compat)},
                          {"largest_ms", v.largest_ms},
                          {"sol_eff_share", v.sol_eff_share},
                          {"ok", v.ok},
                          {"error", v.error}});
    pairs.push_back({{"task", p.task},
                     {"name", p.name},
                     {"precision", mskb::precision_name(p.precision)},
                     {"spec", p.spec_path},
                     {"gpu", p.gpu_name},
                     {"driver", p.driver_version},
                     {"date", p.date},
                     {"rounds", p.rounds},
                     {"rejected", p.rejected.by_rule},
                     {"best", p.best},
                     {"start", p.start},
                     {"stop", tune_stop_name(p.stop)},
                     {"error", p.error},
                     {"written", p.written},
                     {"variants", variants}});
  }
  return {{"date", r.date}, {"pairs", pairs}};
}

std::string mskb_tune_markdown(const MskbTuneReport& r, const std::string& command) {
  std::string gpu, driver;
  for (const MskbTunePair& p : r.pairs)
    if (!p.gpu_name.empty()) {
      gpu = p.gpu_name;
      driver = p.driver_version;
    }
  std::string md = "# MSKB: the launch search of family specs (`ucutlass mskb tune`)\n\n";
  md += fmt::format("- GPU: {}{}\n- date: {}\n- command: `{}`\n", gpu.empty() ? "none" : gpu,
                    driver.empty() ? "" : fmt::format(" (driver {})", driver), r.date, command);
  md +=
      "- P: the complexity-weighted mean speedup over MSKB's naive launcher, GPU busy time (cold L2), each "
      "variant measured beside the naive launcher, the spec as written and the best so far in one worker run; "
      "`best / as written` compares the two in the same run. % SOL_eff: t_SOL_eff over the best's time on the "
      "largest case.\n\n";
  md +=
      "| pair | rounds | variants (rejected) | as written: P | best: P | best / as written | best launch | % SOL_eff "
      "(largest case) | stop |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const MskbTunePair& p : r.pairs) {
    if (p.best < 0) {
      md += fmt::format("| {} | {} | {} ({}) | — | — | — | — | — | {}{} |\n", p.name, p.rounds, p.variants.size(),
                        p.rejected.count, tune_stop_name(p.stop),
                        p.error.empty() ? "" : ": " + markdown_cell(p.error));
      continue;
    }
    const TuneVariant& best = p.variants[static_cast<size_t>(p.best)];
    const TuneVariant& start = p.variants[static_cast<size_t>(p.start)];
    std::set<std::string> distinct;
    for (const TuneVariant& v : p.variants) distinct.insert(v.spec_hash);
    md += fmt::format("| {} | {} | {} ({}) | {:.2f} | {:.2f} | {:.3f} | {} | {:.1f}% | {} |\n", p.name, p.rounds,
                      distinct.size(), p.rejected.count, start.kernel.weighted, best.kernel.weighted,
                      start.kernel.weighted > 0 ? best.kernel.weighted / start.kernel.weighted : 0.0,
                      best.phrase, 100 * best.sol_eff_share, tune_stop_name(p.stop));
  }
  return md;
}

}  // namespace ucut
