// agent/tool_gpu.cpp — the `run` and `profile` tools: `ucutlass run --json` and `ucutlass profile --json`
// through the same library calls (workflow/measure.h, workflow/profile_spec.h). A spec with errors or a
// machine that cannot time (no GPU, no worker) is answered before anything is built.
#include <fmt/format.h>

#include "agent/tool_handlers.h"
#include "compiler/compilation_json.h"
#include "engine/profile/default_thresholds.h"
#include "engine/profile/ncu_run.h"
#include "suite/problem_file.h"
#include "workflow/profile_spec.h"

namespace ucut::agent {
namespace {

/// What the GPU tools need before a GPU: a spec that checks, a problem that loads, a machine that can time.
struct Prepared {
  std::optional<SourceFile> spec;
  std::optional<Problem> problem;
  std::optional<ToolResult> stop;  // set when one of them is missing
};

Prepared prepare(const nlohmann::json& args, const ToolContext& ctx, const char* tool) {
  Prepared p;
  p.spec.emplace("<spec>", args.at("spec").get<std::string>());
  Compilation c = compile_spec(*p.spec, StopAfter::check);
  if (!c.ok()) {
    nlohmann::json j = compilation_json(*p.spec, c, false);
    p.stop = error_result("the spec has errors:\n" + diagnostics_text(j), j);
    return p;
  }
  std::string error;
  ProblemPath path = resolve_problem(args.at("problem").get<std::string>(), ctx, &error);
  if (path) p.problem = load_problem_or_suite(*path, &error);
  if (!p.problem) {
    p.stop = error_result(error);
    return p;
  }
  if (std::string why = no_gpu_reason(ctx.profile.measure); !why.empty())
    p.stop =
        error_result(fmt::format("cannot {} on this machine: {}\n(the spec checks clean; `compile` and `sol` "
                                 "work without a GPU)",
                                 tool, why),
                     {{"error", why}, {"needs", "gpu"}});
  return p;
}

}  // namespace

ToolResult tool_run(const nlohmann::json& args, const ToolContext& ctx) {
  Prepared p = prepare(args, ctx, "time a kernel");
  if (p.stop) return *p.stop;
  MeasureOptions o = ctx.profile.measure;
  o.trials = args.value("trials", o.trials);
  MeasureReport r = measure_spec(*p.spec, *p.problem, o);
  nlohmann::json j = report_json(r);
  if (r.stopped_at != MeasureStep::none) return error_result(r.message + "\n" + report_text(r), j);
  return ok_result(j);
}

ToolResult tool_profile(const nlohmann::json& args, const ToolContext& ctx) {
  Prepared p = prepare(args, ctx, "profile a kernel");
  if (p.stop) return *p.stop;
  ProfileOptions o = ctx.profile;
  if (o.ncu.empty())
    return error_result("cannot profile: no Nsight Compute (ncu) found; start the server with --ncu");
  std::string error;
  auto t = profile::resolve_thresholds("", &error);
  if (!t) return error_result(error);
  o.thresholds = *t;
  ProfileReport r = profile_spec(*p.spec, *p.problem, o);
  nlohmann::json j = profile_report_json(r, false);
  if (r.stopped_at != MeasureStep::none || !r.counters())
    return error_result(
        (r.message.empty() ? "no counters" : r.message) + "\n" + profile_report_text(r, false), j);
  return ok_result(j);
}

}  // namespace ucut::agent
