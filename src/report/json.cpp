// report/json.cpp — see json.h.
#include "report/json.h"

namespace ucut::report {
namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json bottleneck_json(const std::optional<Bottleneck>& b) {
  if (!b) return nullptr;
  return {
      {"iteration", b->iteration}, {"class", b->cls}, {"source", b->source ? json(*b->source) : json("")}};
}

json curve_json(const std::vector<CurvePoint>& points) {
  json out = json::array();
  for (const CurvePoint& p : points) out.push_back({p.x, p.y});
  return out;
}

json problem_json(const ProblemReport& p) {
  return {{"id", p.id},
          {"family", p.family},
          {"shape_class", p.shape_class},
          {"attempts", {{"all", p.attempts}, {"measured", p.measured}, {"failed", p.failed}, {"flagged", p.flagged},
                        {"pending", p.pending}}},
          {"seed_ms", opt(p.seed_ms)},
          {"best_ms", opt(p.best_ms)},
          {"best_including_flagged_ms", opt(p.best_any_ms)},
          {"baseline_ms", opt(p.baseline_ms)},
          {"speedup", opt(p.speedup)},
          {"speedup_including_flagged", opt(p.speedup_any)},
          {"sol_tf32_ms", p.sol_tf32_ms},
          {"sol_fp16_ms", p.sol_fp16_ms},
          {"gap_tf32", opt(p.gap)},
          {"sol_pct", opt(p.sol_pct)},
          {"arithmetic_intensity", opt(p.intensity)},
          {"achieved_tflops", opt(p.achieved_tflops)},
          {"bottleneck_first", bottleneck_json(p.first)},
          {"bottleneck_last", bottleneck_json(p.last)},
          {"seconds", {{"compile", p.build_seconds}, {"run", p.run_seconds}, {"profile", p.profile_seconds}}}};
}

}  // namespace

json report_json(const WorkspaceReport& r) {
  json runs = json::array();
  for (const RunReport& run : r.runs)
    runs.push_back({{"id", run.id},
                    {"command", run.command},
                    {"started", run.started},
                    {"finished", run.finished},
                    {"model_calls",
                     {{"calls", run.model_calls.calls},
                      {"failed", run.model_calls.failed},
                      {"prompt_tokens", run.model_calls.prompt_tokens},
                      {"completion_tokens", run.model_calls.completion_tokens},
                      {"cost_usd", run.model_calls.cost_usd}}}});
  json fast = json::array();
  for (const FastP& f : r.fast_p) fast.push_back({{"p", f.p}, {"filtered", f.filtered}, {"unfiltered", f.unfiltered}});
  const TimeShare& t = r.time;
  json summary = {{"problems", r.problems.size()},
                  {"scored", r.scored},
                  {"no_baseline", r.no_baseline},
                  {"geomean_filtered", r.geomean_filtered},
                  {"geomean_unfiltered", r.geomean_unfiltered},
                  {"inflation", r.inflation},
                  {"fast_p", fast},
                  {"budget", r.budget},
                  {"time", {{"compile_seconds", t.build_seconds}, {"run_seconds", t.run_seconds},
                            {"profile_seconds", t.profile_seconds}, {"kernels_built", t.kernels_built},
                            {"kernels_per_minute", t.kernels_per_minute},
                            {"kernels_per_wall_minute", t.kernels_per_wall_minute}, {"wall_seconds", t.wall_seconds},
                            {"wall_kernels", t.wall_kernels}, {"finished_runs", t.finished_runs}, {"compile_pct", t.build_pct},
                            {"run_pct", t.run_pct}, {"profile_pct", t.profile_pct}}}};
  json gpu = nullptr;
  if (r.gpu)
    gpu = {{"key", r.gpu->key}, {"name", r.gpu->name}, {"tf32_tflops", r.gpu->tf32_tflops},
           {"fp16_tflops", r.gpu->fp16_tflops}, {"bandwidth_tbs", r.gpu->bandwidth_tbs}};
  json problems = json::array();
  for (const ProblemReport& p : r.problems) problems.push_back(problem_json(p));
  return {{"workspace", r.workspace},
          {"gpu", gpu},
          {"measured_on", r.measured_on},
          {"runs", runs},
          {"summary", summary},
          {"curves", {{"fast_p_filtered", curve_json(r.curve_filtered)},
                      {"fast_p_unfiltered", curve_json(r.curve_unfiltered)},
                      {"attempt_fast_p", curve_json(r.attempt_fast_p)}}},
          {"grid", r.grid ? sched::grid_to_json(*r.grid) : json(nullptr)},
          {"problems", problems}};
}

}  // namespace ucut::report
