// workflow/profile_spec.cpp — see profile_spec.h.
#include "workflow/profile_spec.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "engine/profile/classify.h"
#include "engine/profile/metrics.h"
#include "eval/runner.h"
#include "ir/canonical.h"
#include "support/files.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

/// "MxNxK[xL]", a grouped GEMM's problem count or a pipeline's stage count; with its label.
std::string shape_text(const GemmShape& s) {
  std::string text = s.is_grouped()    ? fmt::format("grouped, {} problems", s.groups.size())
                     : s.is_pipeline() ? fmt::format("pipeline, {} stages", s.stages.size())
                                       : fmt::format("{}x{}x{}{}", s.m, s.n, s.k,
                                                     s.batch > 1 ? fmt::format("x{}", s.batch) : "");
  return s.label.empty() ? text : fmt::format("{} ({})", text, s.label);
}

/// The worker's request: the first shape, one input set, no reference, verification, timing or baseline.
WorkerRequest profile_request(const std::string& library, const Problem& problem,
                              const MeasureOptions& opts) {
  WorkerRequest req;
  req.mode = WorkerMode::profile;
  req.kernel_path = library;
  req.problem =
      problem.pipeline ? canonical_pipeline(*problem.pipeline) : canonical_config(problem.semantics);
  req.shapes = {problem.shapes.front()};
  req.pipeline_source = problem.pipeline_text;
  req.tolerance = problem.tolerance;
  req.seed = opts.seed;
  req.input_sets = 1;
  req.inputs = request_inputs(problem, opts);
  req.warmup = 0;
  req.trials = 1;
  req.time_cublas = false;
  return req;
}

/// A fresh scratch folder for the request and the response; "" when none can be made.
std::string scratch_dir() {
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (ec) return "";
  std::string pattern = (tmp / "ucutlass-profile-XXXXXX").string();
  return ::mkdtemp(pattern.data()) ? pattern : "";
}

/// The worker's answer, when it wrote one.
std::optional<WorkerResponse> read_response(const std::string& path) {
  auto text = read_file(path);
  if (!text) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  try {
    return j.get<WorkerResponse>();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

/// Why there are no counters, in the words that say what to do: ncu's reason, or the worker's when it ran.
std::string degraded_reason(const profile::NcuOutcome& n, const std::optional<WorkerResponse>& resp) {
  if (n.status == profile::NcuStatus::not_installed)
    return n.reason + "; counters need Nsight Compute (ncu on PATH, or --ncu PATH) and an NVIDIA GPU";
  if (n.status != profile::NcuStatus::no_kernel && n.status != profile::NcuStatus::failed) return n.reason;
  if (resp && !resp->fatal_error.empty())
    return "the worker could not run the kernel under ncu: " + resp->fatal_error +
           (resp->gpu_name.empty() ? " (counters need an NVIDIA GPU)" : "");
  if (resp && !resp->shapes.empty() && resp->shapes.front().status != ShapeStatus::ok)
    return fmt::format("the kernel did not run under ncu: {}: {}", enum_name(resp->shapes.front().status),
                       resp->shapes.front().error);
  return n.reason;
}

/// Runs the worker's profile mode under ncu; `resp` gets the worker's answer when it wrote one.
profile::NcuOutcome run_profiled_worker(const std::string& worker, const WorkerRequest& req,
                                        const ProfileOptions& o, std::optional<WorkerResponse>* resp) {
  std::string dir = scratch_dir();
  if (dir.empty()) {
    profile::NcuOutcome failed;
    failed.reason =
        "cannot create a scratch folder for the worker's request: check that TMPDIR (or /tmp) is writable";
    return failed;
  }
  std::string req_path = dir + "/request.json", resp_path = dir + "/response.json";
  { std::ofstream(req_path) << nlohmann::json(req).dump(1); }
  profile::NcuOptions no = worker_ncu_options(o.ncu, o.timeout_s);
  profile::NcuOutcome n = profile::run_ncu(no, {worker, req_path, resp_path});
  *resp = read_response(resp_path);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return n;
}

/// The first shape's bound at the kernel's precision (TF32 where the GPU has no unit for it), on the GPU the
/// worker ran on when it named one, else on opts.gpu (`sol`).
std::optional<sol::Bound> first_shape_bound(sol::SolReport sol, const Compilation& c, const Problem& problem,
                                            const MeasureOptions& opts, const std::string& gpu_name) {
  std::string note;
  const KernelConfig& kernel = c.config ? *c.config : c.pipeline->stages.front().config;
  if (!gpu_name.empty())
    if (sol::SolReport on = problem_sol(gpu_name, true, kernel, problem, opts, &note); !on.gpu_key.empty())
      sol = std::move(on);
  if (sol.shapes.empty()) return std::nullopt;
  const sol::ShapeSol& first = sol.shapes.front();
  return first.kernel.peak ? first.kernel.peak : first.tf32.peak;
}

}  // namespace

std::string short_kernel_name(std::string_view name) {
  std::string out;
  int depth = 0;
  for (char c : name) {
    if (c == '<') ++depth;
    if (depth <= 1)
      out += c;
    else if (c == '<' && depth == 2)
      out += "<…";
    if (c == '>' && depth > 0) {
      if (depth == 2) out += '>';
      --depth;
    }
  }
  return out;
}

ProfileReport profile_spec(const SourceFile& spec, const Problem& problem, const ProfileOptions& opts) {
  ProfileReport r;
  r.problem_name = problem.name;
  r.thresholds = opts.thresholds;
  if (problem.shapes.empty()) {
    r.stopped_at = MeasureStep::problem;
    r.message = fmt::format("problem `{}` has no shapes to profile: add one to its `shapes`", problem.name);
    return r;
  }
  r.shape = shape_text(problem.shapes.front());
  Compilation c = compile_spec(spec);
  MeasureReport m = prepare_spec(spec, c, problem, opts.measure);
  r.kernel_name = m.kernel_name;
  r.config_hash = m.config_hash;
  r.build = m.build;
  if (m.stopped_at != MeasureStep::none) {
    r.stopped_at = m.stopped_at;
    r.message = m.message;
    return r;
  }

  std::optional<WorkerResponse> resp;
  profile::NcuOutcome n;
  std::string worker = opts.measure.worker.empty() ? find_worker() : opts.measure.worker;
  if (worker.empty())
    n.reason = "ucutlass-worker is not installed (it is built only where CMake finds a CUDA compiler)";
  else
    n = run_profiled_worker(worker, profile_request(m.build.library, problem, opts.measure), opts, &resp);
  r.ncu_status = n.status;
  r.seconds = n.seconds;
  if (resp) r.gpu_name = resp->gpu_name;
  if (n.ok()) {
    r.kernels = std::move(n.kernels);
    for (profile::KernelProfile& k : r.kernels)
      k.source = fmt::format("{} on {}, shape {}", spec.name(), problem.name, r.shape);
    r.classified = profile::longest_kernel(r.kernels);
    r.message = n.reason;  // a note: the command's exit code, when it failed after the profile
  }

  std::optional<sol::Bound> bound = first_shape_bound(m.sol, c, problem, opts.measure, r.gpu_name);
  std::optional<double> t_measured_ms = opts.measured_ms;
  if (t_measured_ms) {
    r.t_measured_from = MeasuredFrom::timing;
  } else if (r.counters()) {
    double ns = 0;
    for (const profile::KernelProfile& k : r.kernels) ns += k.get(profile::metric::duration).value_or(0);
    if (ns > 0) {
      t_measured_ms = ns * 1e-6;
      r.t_measured_from = MeasuredFrom::ncu;
    }
  }
  std::optional<double> sol_pct;
  if (bound) {
    r.t_sol_ms = bound->t_sol_s() * 1e3;
    r.bound = bound->kind();
  }
  if (bound && t_measured_ms && *t_measured_ms > 0) sol_pct = 100 * r.t_sol_ms / *t_measured_ms;

  if (r.counters()) {
    const profile::KernelProfile& k = r.kernels[r.classified];
    r.filtered = profile::filter(k, profile::classify(k, r.thresholds));
    r.filtered.sol_pct = sol_pct;
    return r;
  }
  profile::DegradedInput in;
  in.kernel = r.kernel_name;
  in.reason = degraded_reason(n, resp);
  if (opts.measured_ms) in.duration_ns = *opts.measured_ms * 1e6;
  in.sol_pct = sol_pct;
  if (bound) in.roofline_bound = bound->kind();
  r.filtered = profile::degraded(in, r.thresholds);
  return r;
}

nlohmann::json profile_report_json(const ProfileReport& r, bool all_metrics) {
  using nlohmann::json;
  json j = {{"kernel", r.kernel_name},
            {"problem", r.problem_name},
            {"config_hash", r.config_hash},
            {"stopped_at", r.stopped_at},
            {"message", r.message},
            {"build",
             {{"ok", r.build.ok},
              {"cached", r.build.cached},
              {"library", r.build.library},
              {"seconds", r.build.seconds}}}};
  if (r.stopped_at != MeasureStep::none) return j;
  json kernels = json::array();
  for (const profile::KernelProfile& k : r.kernels) {
    auto ns = k.get(profile::metric::duration);
    kernels.push_back({{"kernel", k.kernel}, {"id", k.id}, {"duration_ns", ns ? json(*ns) : json(nullptr)}});
  }
  j["shape"] = r.shape;
  j["gpu"] = r.gpu_name;
  j["ncu_status"] = std::string(profile::ncu_status_name(r.ncu_status));
  j["profile_seconds"] = r.seconds;
  j["thresholds"] = {{"sm_pct", r.thresholds.sm_pct},
                     {"dram_pct", r.thresholds.dram_pct},
                     {"mem_pct", r.thresholds.mem_pct},
                     {"source", r.thresholds.source}};
  j["sol"] = {{"t_sol_ms", r.t_sol_ms},
              {"bound", r.bound ? nlohmann::json(*r.bound) : nlohmann::json("")},
              {"t_measured_from", r.t_measured_from}};
  j["kernels"] = kernels;
  j["profile"] = profile::render_json(r.filtered);
  if (all_metrics && r.counters()) j["all_metrics"] = profile::render_all_json(r.kernels[r.classified]);
  return j;
}

std::string profile_report_text(const ProfileReport& r, bool all_metrics) {
  std::string o;
  if (!r.kernel_name.empty())
    o += fmt::format("kernel {} ({}) on problem {}\n", r.kernel_name, r.config_hash.substr(0, 16),
                     r.problem_name);
  if (r.build.ok)
    o += fmt::format("build {} ({})\n", r.build.library,
                     r.build.cached ? "cached" : fmt::format("nvcc {:.0f} s", r.build.seconds));
  if (r.stopped_at != MeasureStep::none)
    return o + r.message + (r.message.empty() || r.message.back() == '\n' ? "" : "\n");
  o += fmt::format("shape {}{}\n", r.shape, r.gpu_name.empty() ? "" : " on " + r.gpu_name);
  o += fmt::format("thresholds: SM {:.4g}%, DRAM {:.4g}%, Memory {:.4g}% — {}\n", r.thresholds.sm_pct,
                   r.thresholds.dram_pct, r.thresholds.mem_pct, r.thresholds.source);
  if (r.kernels.size() > 1) {
    o += fmt::format("{} kernels in the launch; the longest is classified:\n", r.kernels.size());
    for (const profile::KernelProfile& k : r.kernels)
      o += fmt::format("  {:.2f} us  {}\n", k.get(profile::metric::duration).value_or(0) / 1e3,
                       short_kernel_name(k.kernel));
  }
  profile::FilteredProfile shown = r.filtered;
  shown.kernel = short_kernel_name(shown.kernel);
  o += profile::render_text(shown);
  if (r.t_sol_ms > 0)
    o += fmt::format("  SOL: t_SOL {:.4g} ms ({}-bound) at the kernel's precision; {}\n", r.t_sol_ms,
                     r.bound ? enum_name(*r.bound) : "",
                     r.t_measured_from == MeasuredFrom::ncu
                         ? "t_measured: the profiled launch's kernel durations"
                     : r.t_measured_from == MeasuredFrom::timing ? "t_measured: the timed median"
                                                                 : "no measured time to compare it with");
  if (all_metrics && r.counters()) {
    profile::KernelProfile k = r.kernels[r.classified];
    k.kernel = short_kernel_name(k.kernel);
    o += profile::render_all_text(k);
  }
  if (!r.message.empty()) o += "note: " + r.message + "\n";
  return o;
}

}  // namespace ucut
