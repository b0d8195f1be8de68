// engine/mantis/briefings.cpp — see briefings.h.
#include "engine/mantis/briefings.h"

#include <fmt/format.h>

#include <map>

#include "engine/profile/filter.h"
#include "support/diag.h"
#include "support/diag_render.h"

namespace ucut::mantis {

namespace {

std::string ms_text(double ms) { return fmt::format("{:.4g} ms", ms); }

std::string shape_text(const GemmShape& g) {
  std::string text = g.is_conv() || g.is_pipeline() || g.is_grouped() ? g.label : "";
  if (text.empty()) text = fmt::format("M={} N={} K={}", g.m, g.n, g.k);
  if (g.batch > 1) text += fmt::format(" batch {}", g.batch);
  return text;
}

/// How the profiled kernel is named in a prompt: CUTLASS's own names run to thousands of characters.
std::string kernel_name(const BestProfile& p) {
  return fmt::format("attempt #{} (config {})", p.attempt, p.config_hash.substr(0, 12));
}

}  // namespace

const llm::PromptPack& prompt_pack(std::string_view name) {
  static std::map<std::string, llm::PromptPack, std::less<>> packs;
  auto it = packs.find(name);
  if (it == packs.end()) it = packs.emplace(std::string(name), llm::load_prompt_pack(name)).first;
  return it->second;
}

std::string problem_text(const Subject& s) {
  std::vector<std::string> shapes;
  for (const GemmShape& g : s.harness.shapes) shapes.push_back(shape_text(g));
  return fmt::format("`{}` ({} family, {} shapes, for {}; shapes: {}; tolerance atol = {:g}, rtol = {:g})",
                     s.row.id, s.row.family, s.row.shape_class, s.row.arch, fmt::join(shapes, "; "),
                     s.harness.tolerance.atol, s.harness.tolerance.rtol);
}

std::string history_text(const std::vector<store::AttemptRow>& attempts) {
  if (attempts.empty()) return "none yet";
  std::string out;
  for (const store::AttemptRow& a : attempts) {
    out += fmt::format("- #{} (iteration {}, config {}): {}", a.id, a.iteration, a.config_hash.substr(0, 12),
                       enum_name(a.status));
    if (a.time_ms) out += ", " + ms_text(*a.time_ms);
    if (a.status == store::AttemptStatus::measured && !a.correct) out += ", wrong result";
    if (!a.flags.empty()) out += fmt::format(", flags {}", nlohmann::json(a.flags).dump());
    out += "\n";
  }
  return out;
}

std::string best_text(const std::optional<store::AttemptRow>& best, const std::string& spec,
                      double sol_tf32_ms) {
  std::string head = "none verified yet; the starting spec:";
  if (best && best->time_ms) {
    head = fmt::format("attempt #{}: {}", best->id, ms_text(*best->time_ms));
    if (sol_tf32_ms > 0)
      head += fmt::format(" (gap to the TF32 speed of light {:.2f})", *best->time_ms / sol_tf32_ms);
  }
  return fmt::format("{}\n\n```ucut\n{}\n```", head, spec);
}

std::string lessons_text(const std::vector<store::LessonRow>& lessons) {
  if (lessons.empty()) return "none";
  std::string out;
  for (const store::LessonRow& l : lessons)
    out += fmt::format("- expected {:.2f}x, measured {:.2f}x ({}, {}): {}\n", l.expected_speedup,
                       l.measured_speedup, l.problem_id, l.shape_class, l.text);
  return out;
}

std::string dsl_system_prompt(const std::string& arch) {
  std::string rules;
  for (const RuleInfo& r : all_rules())
    rules += fmt::format("- {} `{}` ({}): {}\n", r.code, r.slug, severity_name(r.severity), r.summary);
  return prompt_pack("dsl").render("system.md", {{"target", arch}, {"rule_hints", rules}});
}

std::string sol_briefing(const Subject& s, const sol::GpuSpec& gpu,
                         const std::optional<store::AttemptRow>& best, bool sol_on) {
  if (!sol_on) return "Speed-of-light bounds are switched off for this run (an ablation): no gap is given.";
  std::string table = fmt::format(
      "| bound | time |\n|---|---|\n| TF32 tensor cores (steering) | {} |\n| FP16/BF16 tensor cores | {} |",
      ms_text(s.row.sol_tf32_ms), ms_text(s.row.sol_fp16_ms));
  if (s.row.flops > 0)
    table += fmt::format("\n\nWork: {:.4g} GFLOP; at least {:.4g} MB moved.", s.row.flops / 1e9,
                         s.row.min_bytes / 1e6);
  if (s.roofline_bottleneck != sol::Bottleneck::unknown)
    table += fmt::format(" Its side of the roofline: {}.", enum_name(s.roofline_bottleneck));
  std::string gpu_text = fmt::format("{} ({} SMs, boost {:g} MHz, {:g} TB/s DRAM, {:g} MB L2)", gpu.name,
                                     gpu.sms, gpu.boost_clock_mhz, gpu.bandwidth_tbs, gpu.l2_mb);
  bool timed = best && best->time_ms;
  return prompt_pack("sol").render(
      "sol.md",
      {{"problem", s.row.id},
       {"gpu", gpu_text},
       {"sol_table", table},
       {"best",
        timed ? fmt::format("{} (attempt #{}, median of the timed runs)", ms_text(*best->time_ms), best->id)
              : "none yet"},
       {"gap", timed && s.row.sol_tf32_ms > 0 ? fmt::format("{:.2f}", *best->time_ms / s.row.sol_tf32_ms)
                                              : "unknown (nothing verified yet)"}});
}

std::string profile_text(const std::optional<BestProfile>& p, ProfileView view) {
  if (!p) return "not profiled";
  const engine::ProfileOutcome& o = p->outcome;
  std::optional<profile::FilteredProfile> filtered = o.report.is_object() && o.report.contains("profile")
                                                         ? profile::filtered_from_json(o.report["profile"])
                                                         : std::nullopt;
  if (!o.counters || !filtered)
    return "not profiled: " + (o.reason.empty() ? "no counters were read" : o.reason);
  std::string kernel = kernel_name(*p);
  filtered->kernel = kernel;
  if (view == ProfileView::filtered)
    return prompt_pack("profile").render("filtered.md",
                                         {{"kernel", kernel}, {"report", profile::render_text(*filtered)}});
  std::string metrics =
      o.report.contains("all_metrics")
          ? profile::render_all_text(kernel, o.report["all_metrics"])
          : profile::render_text(*filtered) + "(only these metrics were stored with this profile)\n";
  return prompt_pack("profile").render(
      "full.md", {{"kernel", kernel},
                  {"classification", fmt::format("{} — {}", enum_name(filtered->classification.bottleneck),
                                                 filtered->classification.reason)},
                  {"metrics", metrics}});
}

}  // namespace ucut::mantis
