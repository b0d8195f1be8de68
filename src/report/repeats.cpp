// report/repeats.cpp
#include "report/repeats.h"

#include <fmt/format.h>

#include <algorithm>

#include "eval/protocol.h"
#include "report/format.h"

namespace ucut::report {
namespace {

double fast_1_of(const WorkspaceReport& r) {
  for (const FastP& f : r.fast_p)
    if (f.p == 1) return f.filtered;
  return 0;
}

std::string spread_text(const Stats& s, int digits) {
  if (s.n == 0) return kNone;
  return fmt::format("{:.{}f} ± {:.{}f} (CV {:.1f}%)", s.mean, digits, s.stddev, digits, 100 * s.cv());
}

/// The project's Stats JSON (eval/protocol.h) with the coefficient of variation.
nlohmann::json stats_json(const Stats& s) {
  nlohmann::json j = s;
  j["cv"] = s.cv();
  return j;
}

}  // namespace

RepeatSummary summarize_repeats(const std::vector<std::pair<std::string, WorkspaceReport>>& reports) {
  RepeatSummary s;
  std::vector<double> geomeans, fast, attempts;
  for (size_t i = 0; i < reports.size(); ++i) {
    const auto& [path, r] = reports[i];
    RepeatRow row{path, r.geomean_filtered, fast_1_of(r), 0};
    for (const ProblemReport& p : r.problems) {
      row.attempts += p.attempts;
      if (!p.baseline_ms) continue;
      auto it = std::find_if(s.problems.begin(), s.problems.end(), [&](const ProblemSpread& q) { return q.id == p.id; });
      if (it == s.problems.end()) {
        s.problems.push_back({p.id, std::vector<std::optional<double>>(reports.size()), {}});
        it = s.problems.end() - 1;
      }
      it->speedups[i] = p.speedup;
    }
    geomeans.push_back(row.geomean);
    fast.push_back(row.fast_1);
    attempts.push_back(row.attempts);
    s.repeats.push_back(row);
  }
  s.geomean = summarize(geomeans);
  s.fast_1 = summarize(fast);
  s.attempts = summarize(attempts);
  for (ProblemSpread& p : s.problems) {
    std::vector<double> v;
    for (const auto& x : p.speedups)
      if (x) v.push_back(*x);
    p.stats = summarize(v);
  }
  return s;
}

std::string repeats_markdown(const RepeatSummary& s) {
  std::string md = fmt::format("# Spread over {} repeated runs\n\n", s.repeats.size());
  md += fmt::format("Geomean speedup (integrity-filtered): {}. fast_1: {}. Attempts: {}.\n\n", spread_text(s.geomean, 3),
                    spread_text(s.fast_1, 3), spread_text(s.attempts, 1));
  md += "| repeat | workspace | geomean | fast_1 | attempts |\n|---|---|---|---|---|\n";
  for (size_t i = 0; i < s.repeats.size(); ++i) {
    const RepeatRow& r = s.repeats[i];
    md += fmt::format("| {} | `{}` | {:.3f}x | {} | {} |\n", i + 1, r.workspace, r.geomean, share_text(r.fast_1),
                      r.attempts);
  }
  md += "\n| problem | speedup per repeat | mean ± sd (CV) |\n|---|---|---|\n";
  for (const ProblemSpread& p : s.problems) {
    std::string per;
    for (const auto& x : p.speedups) per += (per.empty() ? "" : ", ") + times_text(x);
    md += fmt::format("| {} | {} | {} |\n", p.id, per, spread_text(p.stats, 3));
  }
  return md;
}

nlohmann::json repeats_json(const RepeatSummary& s) {
  nlohmann::json repeats = nlohmann::json::array(), problems = nlohmann::json::array();
  for (const RepeatRow& r : s.repeats)
    repeats.push_back({{"workspace", r.workspace}, {"geomean", r.geomean}, {"fast_1", r.fast_1}, {"attempts", r.attempts}});
  for (const ProblemSpread& p : s.problems) {
    nlohmann::json per = nlohmann::json::array();
    for (const auto& x : p.speedups) per.push_back(x ? nlohmann::json(*x) : nlohmann::json(nullptr));
    problems.push_back({{"id", p.id}, {"speedups", per}, {"spread", stats_json(p.stats)}});
  }
  return {{"repeats", repeats},
          {"geomean", stats_json(s.geomean)},
          {"fast_1", stats_json(s.fast_1)},
          {"attempts", stats_json(s.attempts)},
          {"problems", problems}};
}

}  // namespace ucut::report
