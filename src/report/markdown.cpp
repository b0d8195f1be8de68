// report/markdown.cpp — see markdown.h.
#include "report/markdown.h"

#include <fmt/format.h>

#include "engine/sched/policy.h"
#include "report/format.h"
#include "report/svg.h"
#include "support/markdown_cell.h"

namespace ucut::report {

std::string render_markdown(const WorkspaceReport& r) {
  std::string md = fmt::format("# μCUTLASS optimization report\n\nWorkspace `{}`", r.workspace);
  if (r.gpu) md += fmt::format(", roofline GPU {} ({})", r.gpu->name, r.gpu->key);
  if (!r.measured_on.empty()) md += fmt::format(", measured on {}", fmt::join(r.measured_on, "; "));
  md += ".\n\n| run | command | started | finished |\n|---|---|---|---|\n";
  for (const RunReport& run : r.runs)
    md += fmt::format("| {} | {} | {} | {} |\n", run.id, markdown_cell(run.command), run.started, run.finished);
  if (std::string calls = model_calls_sentence(r.runs); !calls.empty()) md += "\n" + calls + "\n";

  md += fmt::format("\n## Summary\n\n{} problems, {} with a baseline. Geomean speedup: **{}** integrity-filtered, {} "
                    "unfiltered (inflation {}).\n",
                    r.problems.size(), r.scored, times_text(r.geomean_filtered), times_text(r.geomean_unfiltered),
                    times_text(r.inflation));
  if (std::string note = baseline_note(r); !note.empty()) md += note + "\n";
  if (!r.no_baseline.empty()) {
    std::string ids;
    for (const std::string& id : r.no_baseline) ids += (ids.empty() ? "" : ", ") + id;
    md += fmt::format("Without a baseline (left out of the speedup statistics): {}.\n", ids);
  }
  md += "\n| p | fast_p filtered | fast_p unfiltered |\n|---|---|---|\n";
  for (const FastP& f : r.fast_p)
    md += fmt::format("| {} | {} | {} |\n", short_num(f.p), share_text(f.filtered), share_text(f.unfiltered));
  const TimeShare& t = r.time;
  md += "\n" + throughput_sentence(t) + "\n";
  if (r.grid && r.grid->best) {
    const sched::GridPoint& p = r.grid->points[r.grid->best->point];
    md += fmt::format("\nPolicy replay (budget {}): best efficiency gain {:.2f}x with {} ({:.0f}% less cost, {:.1f}% "
                      "of the fixed geomean kept).\n",
                      r.budget, r.grid->best->gain, sched::print_policy(p.policy), r.grid->best->cost_saved_pct,
                      100 * r.grid->best->retention);
  } else if (r.grid) {
    md += fmt::format("\nPolicy replay (budget {}): no SOL policy keeps {:.0f}% of the fixed geomean.\n", r.budget,
                      100 * r.grid->min_retention);
  }

  md += "\n## Problems\n\n| problem | attempts (measured/failed/flagged/pending) | seed | best | baseline | speedup | "
        "gap to TF32 SOL | bottleneck first → last |\n|---|---|---|---|---|---|---|---|\n";
  for (const ProblemReport& p : r.problems)
    md += fmt::format("| {} | {} ({}/{}/{}/{}) | {} | {} | {} | {} | {} | {} → {} |\n", markdown_cell(p.id), p.attempts,
                      p.measured, p.failed, p.flagged, p.pending, ms_text(p.seed_ms), ms_text(p.best_ms),
                      ms_text(p.baseline_ms), times_text(p.speedup), num_text(p.gap), bottleneck_text(p.first),
                      bottleneck_text(p.last));
  return md;
}

}  // namespace ucut::report
