// report/format.cpp — see format.h.
#include "report/format.h"

#include <fmt/format.h>

#include <set>

#include "report/svg.h"

namespace ucut::report {

std::string ms_text(const std::optional<double>& ms) { return ms ? fmt::format("{:.4g} ms", *ms) : kNone; }

std::string times_text(const std::optional<double>& x) { return x ? fmt::format("{:.2f}x", *x) : kNone; }

std::string pct_text(const std::optional<double>& pct) { return pct ? fmt::format("{:.1f}%", *pct) : kNone; }

std::string share_text(double share) { return fmt::format("{:.0f}%", 100 * share); }

std::string num_text(const std::optional<double>& v, int digits) { return v ? short_num(*v, digits) : kNone; }

std::string bottleneck_text(const std::optional<Bottleneck>& b) {
  if (!b) return kNone;
  return fmt::format("{} ({}, it {})", enum_name(b->cls),
                     b->source ? enum_name(*b->source) : "unknown source", b->iteration);
}

std::string model_calls_sentence(const std::vector<RunReport>& runs) {
  std::string out;
  for (const RunReport& run : runs) {
    const store::LlmRoleUsage& u = run.model_calls;
    if (u.calls == 0) continue;
    out += fmt::format("{}run {}: {} calls ({} failed), {} prompt + {} completion tokens, ${:.4f}",
                       out.empty() ? "Model calls: " : "; ", run.id, u.calls, u.failed, u.prompt_tokens,
                       u.completion_tokens, u.cost_usd);
  }
  return out.empty() ? out : out + ".";
}

std::string throughput_sentence(const TimeShare& t) {
  std::string wall = t.finished_runs == 0
                         ? "no finished run to time the loop's wall-clock"
                         : fmt::format("{:.2f} per minute of wall-clock ({} kernels in the {:.0f} s of {} finished run{})",
                                       t.kernels_per_wall_minute, t.wall_kernels, t.wall_seconds, t.finished_runs,
                                       t.finished_runs == 1 ? "" : "s");
  return fmt::format("Compile throughput: {} kernels built; {}; {:.2f} per minute of one nvcc ({:.0f} nvcc-seconds, "
                     "parallel builds overlap). Time of the attempts: compile {:.0f}%, run {:.0f}%, profile {:.0f}%.",
                     t.kernels_built, wall, t.kernels_per_minute, t.build_seconds, t.build_pct, t.run_pct,
                     t.profile_pct);
}

std::string baseline_note(const WorkspaceReport& r) {
  std::set<std::string> kinds;
  for (const ProblemReport& p : r.problems)
    if (p.baseline_ms) kinds.insert(p.baseline_kind.empty() ? "unstated" : p.baseline_kind);
  if (kinds.empty()) return "";
  std::string list;
  for (const std::string& k : kinds) list += (list.empty() ? "" : "; ") + k;
  return fmt::format("Speedups are against each problem's recorded baseline ({}), which steers the search; a claim "
                     "needs `ucutlass bench kernelbench --best WORKSPACE`, which times PyTorch beside these kernels in "
                     "one run.",
                     list);
}

}  // namespace ucut::report
