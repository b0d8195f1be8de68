// report/html.cpp — see html.h. Sections: header, summary, charts, bottlenecks, problems.
#include "report/html.h"

#include <fmt/format.h>

#include "engine/sched/policy.h"
#include "report/charts.h"
#include "report/format.h"
#include "report/svg.h"

namespace ucut::report {
namespace {

constexpr const char* kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; color: #1d2330; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; }
table { border-collapse: collapse; margin: 8px 0; } th, td { border: 1px solid #d5d9e2; padding: 3px 8px; }
th { background: #eef1f6; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.box { border: 1px solid #c4cbd8; background: #f7f9fc; padding: 10px 16px; border-radius: 6px; }
.muted { color: #667085; } .warn { color: #a4410e; }
svg { display: block; margin: 12px 0; background: #fff; }
svg .grid { stroke: #eceff4; } svg .frame { fill: none; stroke: #98a2b3; }
svg text { font-size: 11px; fill: #344054; } svg .title { font-size: 13px; font-weight: 600; }
svg polyline.line { fill: none; stroke-width: 2; } svg .filtered { stroke: #1f6feb; fill: #1f6feb; }
svg .unfiltered { stroke: #d1242f; stroke-dasharray: 5 4; } svg .frontier { stroke: #2da44e; }
svg .roof-fp16 { stroke: #8250df; } svg .roof-tf32 { stroke: #0a7b83; }
svg .pt { stroke: #fff; stroke-width: 1; } svg .policy { fill: #8c959f; }
svg .fixed { fill: #d1242f; } svg .best { fill: #2da44e; } svg .problem { fill: #bf8700; }
svg .pt-label { font-weight: 600; } svg .note { fill: #667085; }
)";

std::string td(const std::string& text, bool number = false) {
  return fmt::format("<td{}>{}</td>", number ? " class=\"n\"" : "", escape(text));
}

std::string header(const WorkspaceReport& r) {
  std::string h = fmt::format("<h1>μCUTLASS optimization report</h1>\n<p class=\"muted\">workspace {}</p>\n",
                              escape(r.workspace));
  h += "<table><tr><th>run</th><th>command</th><th>started</th><th>finished</th></tr>\n";
  for (const RunReport& run : r.runs)
    h += "<tr>" + td(std::to_string(run.id), true) + td(run.command) + td(run.started) + td(run.finished) + "</tr>\n";
  h += "</table>\n";
  if (std::string calls = model_calls_sentence(r.runs); !calls.empty()) h += "<p>" + escape(calls) + "</p>\n";
  if (!r.measured_on.empty()) h += "<p>Measured on " + escape(fmt::format("{}", fmt::join(r.measured_on, "; "))) + ".</p>\n";
  h += r.gpu ? fmt::format("<p>Roofline GPU: {} ({}): TF32 {} TFLOP/s, FP16 {} TFLOP/s, DRAM {} TB/s.</p>\n",
                           escape(r.gpu->name), escape(r.gpu->key), short_num(r.gpu->tf32_tflops, 4),
                           short_num(r.gpu->fp16_tflops, 4), short_num(r.gpu->bandwidth_tbs))
             : "<p class=\"muted\">No GPU given: the roofline has no roofs.</p>\n";
  return h;
}

std::string gain_sentence(const WorkspaceReport& r) {
  if (!r.grid) return "No recorded attempts to replay.";
  const sched::GridResult& g = *r.grid;
  if (!g.best)
    return fmt::format("No SOL policy keeps {:.0f}% of the fixed policy's geomean: no efficiency gain.",
                       100 * g.min_retention);
  const sched::GridPoint& p = g.points[g.best->point];
  return fmt::format("Best efficiency gain {:.2f}x with {}: {:.0f}% less cost, {:.1f}% of the fixed geomean kept.",
                     g.best->gain, sched::print_policy(p.policy), g.best->cost_saved_pct, 100 * g.best->retention);
}

std::string summary(const WorkspaceReport& r) {
  std::string s = "<h2>Summary</h2>\n<div class=\"box\">\n";
  s += fmt::format("<p>{} problems, {} with a baseline. Geomean speedup over eager: <b>{}</b> integrity-filtered, {} "
                   "unfiltered (inflation {}).</p>\n",
                   r.problems.size(), r.scored, times_text(r.geomean_filtered), times_text(r.geomean_unfiltered),
                   times_text(r.inflation));
  if (std::string note = baseline_note(r); !note.empty()) s += "<p>" + escape(note) + "</p>\n";
  if (!r.no_baseline.empty()) {
    std::string ids;
    for (const std::string& id : r.no_baseline) ids += (ids.empty() ? "" : ", ") + escape(id);
    s += fmt::format("<p class=\"warn\">Without a baseline, left out of the speedup statistics: {}.</p>\n", ids);
  }
  s += "<table><tr><th>p</th><th>fast_p filtered</th><th>fast_p unfiltered</th></tr>\n";
  for (const FastP& f : r.fast_p)
    s += "<tr>" + td(short_num(f.p), true) + td(share_text(f.filtered), true) + td(share_text(f.unfiltered), true) +
         "</tr>\n";
  s += "</table>\n";
  const TimeShare& t = r.time;
  s += "<p>" + escape(throughput_sentence(t)) + "</p>\n";
  s += "<p>" + escape(gain_sentence(r)) + "</p>\n</div>\n";
  return s;
}

std::string bottlenecks(const WorkspaceReport& r) {
  std::string s = "<h2>Bottleneck class, first and last analyzed iteration</h2>\n"
                  "<table><tr><th>#</th><th>problem</th><th>first</th><th>last</th><th>changed</th></tr>\n";
  for (std::size_t i = 0; i < r.problems.size(); ++i) {
    const ProblemReport& p = r.problems[i];
    bool changed = p.first && p.last && p.first->cls != p.last->cls;
    s += "<tr>" + td(std::to_string(i + 1), true) + td(p.id) + td(bottleneck_text(p.first)) +
         td(bottleneck_text(p.last)) + td(!p.first ? kNone : changed ? "yes" : "no") + "</tr>\n";
  }
  return s + "</table>\n";
}

std::string problems(const WorkspaceReport& r) {
  std::string s =
      "<h2>Problems</h2>\n<table><tr><th>#</th><th>problem</th><th>family</th><th>shape</th><th>attempts</th>"
      "<th>measured</th><th>failed</th><th>flagged</th><th>pending</th><th>seed</th><th>best</th>"
      "<th>best incl. flagged</th><th>baseline</th><th>speedup</th><th>gap to TF32 SOL</th><th>% of SOL</th>"
      "<th>FLOP/byte</th><th>TFLOP/s</th><th>compile s</th><th>run s</th><th>profile s</th></tr>\n";
  for (std::size_t i = 0; i < r.problems.size(); ++i) {
    const ProblemReport& p = r.problems[i];
    s += "<tr>" + td(std::to_string(i + 1), true) + td(p.id) + td(p.family) + td(p.shape_class) +
         td(std::to_string(p.attempts), true) + td(std::to_string(p.measured), true) +
         td(std::to_string(p.failed), true) + td(std::to_string(p.flagged), true) +
         td(std::to_string(p.pending), true) + td(ms_text(p.seed_ms), true) + td(ms_text(p.best_ms), true) +
         td(ms_text(p.best_any_ms), true) + td(ms_text(p.baseline_ms), true) + td(times_text(p.speedup), true) +
         td(num_text(p.gap), true) + td(pct_text(p.sol_pct), true) + td(num_text(p.intensity), true) +
         td(num_text(p.achieved_tflops), true) + td(fmt::format("{:.1f}", p.build_seconds), true) +
         td(fmt::format("{:.1f}", p.run_seconds), true) + td(fmt::format("{:.1f}", p.profile_seconds), true) +
         "</tr>\n";
  }
  return s + "</table>\n";
}

}  // namespace

std::string render_html(const WorkspaceReport& r) {
  std::string page = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>μCUTLASS report: {}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n",
      escape(r.workspace), kStyle);
  page += header(r) + summary(r);
  page += "<h2>Charts</h2>\n" + fast_p_chart(r) + attempt_fast_p_chart(r) + pareto_chart(r);
  page += "<p>" + escape(gain_sentence(r)) + "</p>\n" + roofline_chart(r);
  page += bottlenecks(r) + problems(r);
  return page + "</body>\n</html>\n";
}

}  // namespace ucut::report
