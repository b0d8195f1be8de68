// workflow/search_compare.cpp — see search_compare.h.
#include "workflow/search_compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include <unistd.h>

#include "engine/recorded_executor.h"
#include "engine/search/random_search.h"
#include "sol/gpu_table.h"
#include "store/workspace.h"
#include "support/error.h"
#include "support/files.h"
#include "workflow/optimize.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

/// The settings `optimize` recorded with run `r` (an empty object when unreadable).
nlohmann::json run_settings(const store::RunRow& r) {
  nlohmann::json j = nlohmann::json::parse(r.settings_json, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

/// The recording's exhaustive run, or nullopt.
std::optional<store::RunRow> exhaustive_run(store::Workspace& ws) {
  for (const store::RunRow& r : ws.runs())
    if (run_settings(r).value("search", "") == "exhaustive") return r;
  return std::nullopt;
}

/// The GPU and driver the recording's measurements ran on (the first attempt whose report names one).
std::string recorded_machine(const std::vector<store::AttemptRow>& attempts) {
  for (const store::AttemptRow& a : attempts)
    if (std::string on = a.measured_on(); !on.empty()) return on;
  return "";
}

/// Index (1-based) of the first good attempt of `order`, or nullopt.
std::optional<int> reach(const std::vector<std::string>& order, const std::map<std::string, bool>& good) {
  for (size_t i = 0; i < order.size(); ++i)
    if (auto g = good.find(order[i]); g != good.end() && g->second) return static_cast<int>(i) + 1;
  return std::nullopt;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size()))) - 1;
  return v[std::min(i, v.size() - 1)];
}

/// Compares the three searches on one problem whose recorded attempts are `recorded`; the proposer's part is
/// filled in afterwards (it runs over all problems together, as `optimize` does).
SearchCompareRow compare_one(const store::ProblemRow& p, const std::vector<store::AttemptRow>& recorded,
                             const std::vector<std::string>& knobs, const SearchCompareOptions& o) {
  SearchCompareRow row;
  row.problem = p.id;
  auto seed = std::find_if(recorded.begin(), recorded.end(), [](const auto& a) { return a.proposer == "seed"; });
  if (seed == recorded.end()) {
    row.skipped = "the recording has no starting-spec attempt";
    return row;
  }
  std::map<std::string, const store::AttemptRow*> by_hash;
  std::optional<double> best;
  for (const store::AttemptRow& a : recorded) {
    by_hash[a.config_hash] = &a;
    if (a.counts() && (!best || *a.time_ms < *best)) best = a.time_ms;
  }
  if (!best) {
    row.skipped = "no recorded attempt counts (verified, unflagged)";
    return row;
  }
  auto lowered = lower_problem_file(p.path, p.tolerance);
  if (const auto* why = std::get_if<std::string>(&lowered)) {
    row.skipped = "the problem file: " + *why;
    return row;
  }
  search::Context ctx;
  ctx.problem = &std::get<LoweredProblem>(lowered).problem;
  ctx.knobs = knobs;
  search::SearchResult space = search::enumerate_space(seed->spec, ctx, SIZE_MAX);
  if (!space.unsupported.empty()) {
    row.skipped = "the starting spec cannot be searched: " + space.unsupported;
    return row;
  }
  size_t missing = 0;
  for (const search::Candidate& c : space.candidates) missing += by_hash.count(c.config_hash) ? 0 : 1;
  if (missing > 0) {
    row.skipped = fmt::format("the recording lacks {} of the space's {} configs: resume the exhaustive run", missing,
                              space.candidates.size());
    return row;
  }
  row.space = space.candidates.size();
  row.best_ms = *best;
  row.seed_ms = seed->time_ms.value_or(0);
  const double limit = *best / o.target;
  std::map<std::string, bool> good;
  for (const auto& [hash, a] : by_hash) good[hash] = a->counts() && *a->time_ms <= limit;
  for (const search::Candidate& c : space.candidates) row.good += good[c.config_hash] ? 1 : 0;

  // Exhaustive: the order the recording measured the space in.
  std::vector<std::string> measured;
  for (const store::AttemptRow& a : recorded) measured.push_back(a.config_hash);
  row.exhaustive_attempts = reach(measured, good).value_or(static_cast<int>(measured.size()));

  // Random: the seed, then the other valid configs in a uniform random order.
  std::vector<std::string> others;
  for (const search::Candidate& c : space.candidates)
    if (c.config_hash != seed->config_hash) others.push_back(c.config_hash);
  size_t good_others = std::count_if(others.begin(), others.end(), [&](const auto& h) { return good[h]; });
  row.random_expected = good[seed->config_hash] ? 1.0
                                                : 1.0 + static_cast<double>(others.size() + 1) / static_cast<double>(good_others + 1);
  std::vector<double> reached;
  int within = 0;
  double fraction_sum = 0;
  for (int k = 1; k <= o.random_seeds; ++k) {
    std::mt19937_64 rng(static_cast<uint64_t>(k));
    std::vector<std::string> order = others;
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[search::uniform_index(rng, i)]);
    order.insert(order.begin(), seed->config_hash);
    int r = reach(order, good).value_or(static_cast<int>(order.size()));
    reached.push_back(r);
    within += r <= o.budget ? 1 : 0;
    std::optional<double> b;
    for (size_t i = 0; i < order.size() && static_cast<int>(i) < o.budget; ++i)
      if (const store::AttemptRow* a = by_hash[order[i]]; a->counts() && (!b || *a->time_ms < *b)) b = a->time_ms;
    fraction_sum += b ? *best / *b : 0;
  }
  if (!reached.empty()) {
    row.random_mean = std::accumulate(reached.begin(), reached.end(), 0.0) / static_cast<double>(reached.size());
    row.random_median = percentile(reached, 0.5);
    row.random_p90 = percentile(reached, 0.9);
    row.random_within_budget = static_cast<double>(within) / static_cast<double>(reached.size());
    row.random_best_fraction = fraction_sum / static_cast<double>(reached.size());
  }
  return row;
}

/// Runs `optimize` with the proposer over the compared problems, answered from the recording, and fills in the
/// proposer's columns.
std::string replay_proposer(const SearchCompareOptions& o, store::Workspace& recorded, const nlohmann::json& settings,
                            std::vector<SearchCompareRow>& rows) {
  fs::path dir = o.workdir.empty() ? fs::temp_directory_path() / fmt::format("ucut-search-compare-{}", ::getpid())
                                   : fs::path(o.workdir);
  fs::create_directories(dir / "seeds");
  fs::path db = dir / "proposer.db";
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db.string() + suffix);
  OptimizeOptions opt;
  opt.workspace = db.string();
  opt.seeds_dir = (dir / "seeds").string();
  opt.baseline = o.baseline;
  opt.measure.gpu = o.gpu;
  opt.policy.budget = o.budget;
  opt.mantis.iterations = std::max(5, o.budget);  // the budget, not the iteration count, ends the search
  opt.mantis.knobs = settings.value("knobs", std::vector<std::string>{});
  if (settings.contains("tolerance") && settings["tolerance"].is_number()) opt.tolerance = settings["tolerance"].get<double>();
  opt.command = "search-compare replay";
  std::map<std::string, SearchCompareRow*> by_id;
  for (SearchCompareRow& row : rows) {
    if (!row.skipped.empty()) continue;
    auto p = recorded.problem(row.problem);
    for (const store::AttemptRow& a : recorded.attempts(row.problem))
      if (a.proposer == "seed") std::ofstream(dir / "seeds" / (row.problem + ".ucut")) << a.spec;
    opt.paths.push_back(p->path);
    by_id[row.problem] = &row;
  }
  if (by_id.empty()) return "";
  engine::RecordedExecutor executor(recorded);
  OptimizeReport r = optimize(opt, executor, nullptr);
  if (!r.message.empty()) return r.message;
  store::Workspace replay = store::Workspace::open(db.string());
  for (auto& [id, row] : by_id) {
    std::vector<store::AttemptRow> attempts = replay.attempts(id);
    std::sort(attempts.begin(), attempts.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    row->proposer_used = static_cast<int>(attempts.size());
    std::optional<double> b;
    for (size_t i = 0; i < attempts.size(); ++i) {
      const store::AttemptRow& a = attempts[i];
      if (a.status == store::AttemptStatus::check_failed && a.error.find("not in the recording") != std::string::npos)
        ++row->proposer_misses;
      if (!a.counts()) continue;
      if (!b || *a.time_ms < *b) b = a.time_ms;
      if (!row->proposer_attempts && *a.time_ms <= row->best_ms / o.target) row->proposer_attempts = static_cast<int>(i) + 1;
    }
    row->proposer_best_fraction = b ? row->best_ms / *b : 0;
  }
  return "";
}

}  // namespace

bool SearchCompareReport::compared_any() const {
  return std::any_of(rows.begin(), rows.end(), [](const SearchCompareRow& r) { return r.skipped.empty(); });
}

std::string search_compare_unready(const SearchCompareOptions& o, store::Workspace& recorded) {
  std::optional<store::RunRow> run = exhaustive_run(recorded);
  if (!run) {
    std::vector<store::RunRow> runs = recorded.runs();
    std::set<std::string> searches;
    for (const store::RunRow& r : runs) searches.insert(run_settings(r).value("search", "proposer"));
    return fmt::format(
        "'{}' holds {}: search-compare replays the measurements of an exhaustive run. Record one on a GPU "
        "machine with `ucutlass optimize PROBLEMS --workspace {} --search exhaustive --knobs KNOBS` (KNOBS: "
        "the knobs whose every valid combination is measured, e.g. tile,cluster)",
        o.recorded,
        runs.empty() ? "no run"
                     : fmt::format("no exhaustive run ({} run{}, searched by {})", runs.size(),
                                   runs.size() == 1 ? "" : "s", fmt::join(searches, " and ")),
        o.recorded);
  }
  size_t measured = 0, pending = 0;
  for (const store::ProblemRow& p : recorded.problems())
    for (const store::AttemptRow& a : recorded.attempts(p.id))
      ++(a.status == store::AttemptStatus::pending ? pending : measured);
  if (measured == 0)
    return fmt::format(
        "the exhaustive run of '{}' (run {}) has measured nothing yet{}: resume it on a GPU machine "
        "with the command that started it{}",
        o.recorded, run->id,
        pending ? fmt::format(" ({} attempts wait, compiled but not timed)", pending) : "",
        run->command.empty() ? "" : fmt::format(", `{}`", run->command));
  std::string error;
  auto table = sol::load_default_gpu_table(&error);
  if (!table) return error;
  if (!table->find_key(o.gpu))
    return fmt::format("unknown GPU `{}` for --gpu (see `ucutlass sol --gpus`)", o.gpu);
  return "";
}

SearchCompareReport search_compare(const SearchCompareOptions& o, store::Workspace& recorded) {
  SearchCompareReport report;
  report.budget = o.budget;
  report.random_seeds = o.random_seeds;
  report.target = o.target;
  report.date = utc_now();
  std::optional<store::RunRow> run = exhaustive_run(recorded);
  UC_ASSERT(run) << "search_compare_unready let '" << o.recorded << "' through without an exhaustive run";
  nlohmann::json settings = run_settings(*run);
  std::vector<std::string> knobs = settings.value("knobs", std::vector<std::string>{});
  report.knobs = knobs.empty() ? "all" : fmt::format("{}", fmt::join(knobs, ", "));
  const nlohmann::json tolerance = settings.value("tolerance", nlohmann::json("problem's"));
  report.tolerance = tolerance.is_number() ? fmt::format("{:g}", tolerance.get<double>()) : "each problem's own";
  for (const store::ProblemRow& p : recorded.problems()) {
    std::vector<store::AttemptRow> attempts = recorded.attempts(p.id);
    std::erase_if(attempts, [](const auto& a) { return a.status == store::AttemptStatus::pending; });
    std::sort(attempts.begin(), attempts.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    if (report.recorded_on.empty()) report.recorded_on = recorded_machine(attempts);
    report.rows.push_back(compare_one(p, attempts, knobs, o));
  }
  report.error = replay_proposer(o, recorded, settings, report.rows);
  return report;
}

nlohmann::json search_compare_json(const SearchCompareReport& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const SearchCompareRow& x : r.rows) {
    nlohmann::json j = {{"problem", x.problem}};
    if (!x.skipped.empty()) {
      j["skipped"] = x.skipped;
      rows.push_back(j);
      continue;
    }
    j.update({{"space", x.space}, {"good", x.good}, {"best_ms", x.best_ms}, {"seed_ms", x.seed_ms},
              {"exhaustive", {{"cost", x.space}, {"attempts_to_target", x.exhaustive_attempts}}},
              {"random", {{"mean", x.random_mean}, {"median", x.random_median}, {"p90", x.random_p90},
                          {"expected", x.random_expected}, {"reached_within_budget", x.random_within_budget},
                          {"best_fraction_within_budget", x.random_best_fraction}}},
              {"proposer", {{"attempts_to_target", x.proposer_attempts ? nlohmann::json(*x.proposer_attempts) : nlohmann::json(nullptr)},
                            {"attempts_used", x.proposer_used}, {"best_fraction_within_budget", x.proposer_best_fraction},
                            {"unrecorded_candidates", x.proposer_misses}}}});
    rows.push_back(j);
  }
  return {{"schema", "ucutlass.search_compare/1"}, {"date", r.date}, {"command", r.command}, {"recorded_on", r.recorded_on},
          {"knobs", r.knobs}, {"tolerance", r.tolerance}, {"budget", r.budget}, {"random_seeds", r.random_seeds},
          {"target", r.target}, {"problems", rows}, {"error", r.error}};
}

std::string search_compare_markdown(const SearchCompareReport& r) {
  std::string md = fmt::format(
      "# Built-in proposer vs random vs exhaustive search\n\n"
      "Attempts until one is within {:.0f}% of the best-known speedup (the best of the whole space), every search "
      "starting from the same spec (attempt 1). Space: the knobs {} at tolerance {}; measured on {}. Proposer budget "
      "{} attempts; random over {} seeds (mean, exact expectation, 90th percentile, share reaching the target within "
      "the budget). Generated {}{}.\n\n",
      r.target * 100, r.knobs, r.tolerance, r.recorded_on.empty() ? "(unknown)" : r.recorded_on, r.budget, r.random_seeds,
      r.date, r.command.empty() ? "" : fmt::format(" by `{}`", r.command));
  if (!r.error.empty()) md += "**Error:** " + r.error + "\n\n";
  md += "| problem | space (valid) | within target | seed → best | exhaustive: cost (reach in order) | random: mean (expected) | "
        "random p90 | random ≤ budget | proposer: reach (used) | best within budget: proposer / random |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
  std::vector<double> prop, rand_mean, ratio;
  int reached = 0, compared = 0;
  for (const SearchCompareRow& x : r.rows) {
    if (!x.skipped.empty()) {
      md += fmt::format("| {} | skipped: {} |||||||||\n", x.problem, x.skipped);
      continue;
    }
    ++compared;
    std::string p = x.proposer_attempts ? std::to_string(*x.proposer_attempts) : fmt::format("> {}", x.proposer_used);
    if (x.proposer_attempts) {
      ++reached;
      prop.push_back(*x.proposer_attempts);
    }
    rand_mean.push_back(x.random_mean);
    md += fmt::format("| {} | {} | {} | {:.4g} → {:.4g} ms | {} ({}) | {:.1f} ({:.1f}) | {:.0f} | {:.0f}% | {} ({}) | {:.1f}% / {:.1f}% |\n",
                      x.problem, x.space, x.good, x.seed_ms, x.best_ms, x.space, x.exhaustive_attempts, x.random_mean,
                      x.random_expected, x.random_p90, 100 * x.random_within_budget, p, x.proposer_used,
                      100 * x.proposer_best_fraction, 100 * x.random_best_fraction);
  }
  if (compared > 0) {
    auto mean = [](const std::vector<double>& v) {
      return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    };
    md += fmt::format("\nThe proposer reached the target on {} of {} problems within {} attempts (mean {:.1f} attempts "
                      "where it did); random search needed {:.1f} on average; exhaustive search costs the whole space.\n",
                      reached, compared, r.budget, mean(prop), mean(rand_mean));
  }
  return md;
}

}  // namespace ucut
