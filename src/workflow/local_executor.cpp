// workflow/local_executor.cpp — see local_executor.h.
#include "workflow/local_executor.h"

#include <fmt/format.h>

#include <chrono>

#include "build/toolchain.h"
#include "compiler/pipeline.h"
#include "engine/profile/default_thresholds.h"

namespace ucut::engine {

CandidateOutcome outcome_of(const MeasureReport& r) {
  CandidateOutcome o;
  o.config_hash = r.config_hash;
  o.precision_change = r.precision_change;
  o.report = report_json(r);
  o.build_seconds = r.build.cached ? 0 : r.build.seconds;
  o.machine = r.worker.gpu_name.empty() ? "" : fmt::format("{} (driver {})", r.worker.gpu_name, r.worker.driver_version);
  if (r.stopped_at == MeasureStep::check || r.stopped_at == MeasureStep::problem) {
    o.status = store::AttemptStatus::check_failed;
    o.error = r.message;
    return o;
  }
  if (r.stopped_at == MeasureStep::build) {
    o.status = store::AttemptStatus::build_failed;
    o.error = r.message;
    return o;
  }
  if (r.shapes.empty()) {
    // No shape came back: no GPU here (the attempt waits for one), or the worker died before the first shape.
    o.needs_gpu = r.worker.gpu_name.empty();
    o.status = o.needs_gpu ? store::AttemptStatus::pending : store::AttemptStatus::crashed;
    o.error = r.message.empty() ? "the worker measured nothing" : r.message;
    if (!o.needs_gpu && o.error.find("timed out") != std::string::npos) o.status = store::AttemptStatus::timed_out;
    return o;
  }
  const ShapeReport& s = r.shapes.front();
  for (const IntegrityFlag& f : s.flags) o.flags.push_back(f.id);
  o.flagged = !counts(s.flags);
  o.correct = s.result.status == ShapeStatus::ok && s.result.verify.pass;
  if (s.result.status != ShapeStatus::ok) {
    o.status = s.result.status == ShapeStatus::cuda_error || s.result.status == ShapeStatus::launch_failed
                   ? store::AttemptStatus::crashed
                   : store::AttemptStatus::wrong;
    o.error = fmt::format("{}: {}", enum_name(s.result.status), s.result.error);
    return o;
  }
  o.status = o.correct ? store::AttemptStatus::measured : store::AttemptStatus::wrong;
  if (!o.correct) o.error = "wrong result on the timed shape";
  if (s.result.candidate.measured) o.time_ms = s.result.candidate.event_ms.median;
  return o;
}

ProfileOutcome profile_outcome_of(const ProfileReport& r) {
  ProfileOutcome o;
  o.counters = r.stopped_at == MeasureStep::none && r.counters();
  o.report =
      profile_report_json(r, true);  // every metric too: the model's full profile view (--profile-view full)
  o.seconds = r.seconds;
  if (r.stopped_at != MeasureStep::none) {
    o.reason = fmt::format("not profiled: stopped at {}: {}", enum_name(r.stopped_at),
                           r.message.substr(0, r.message.find('\n')));
    return o;
  }
  o.bottleneck = r.filtered.classification.bottleneck;
  o.reason = r.filtered.degraded ? *r.filtered.degraded : r.filtered.classification.reason;
  return o;
}

LocalExecutor::LocalExecutor(MeasureOptions options)
    : options_(std::move(options)),
      thresholds_(profile::resolve_thresholds("", nullptr).value_or(profile::prior_thresholds())),
      slots_(std::max(1, std::min(options_.jobs, 1024))) {
  std::string error;
  if (auto tc = find_toolchain(options_.cutlass_dir, &error)) cache_ = std::make_unique<KernelCache>(options_.cache_dir, *tc);
}

LocalExecutor::~LocalExecutor() {
  for (auto& [hash, build] : builds_) build.wait();  // no compile outlives the executor that started it
}

void LocalExecutor::prebuild(const std::vector<std::string>& specs) {
  if (!cache_) return;
  for (const std::string& spec : specs) {
    Compilation c = compile_spec(SourceFile("candidate.ucut", spec));
    if (!c.ok() || !c.kernel) continue;  // measure reports the diagnostics
    std::lock_guard lock(mutex_);
    if (builds_.count(c.kernel->config_hash)) continue;
    EmittedKernel kernel = *c.kernel;
    builds_[kernel.config_hash] = std::async(std::launch::async, [this, kernel] {
                                    slots_.acquire();
                                    BuildResult r = cache_->build(kernel);
                                    slots_.release();
                                    return r;
                                  }).share();
  }
}

CandidateOutcome LocalExecutor::measure(const std::string& spec, const Problem& problem) {
  double prebuilt_seconds = 0;  // the prebuild's compile time, waited for here
  Compilation c = compile_spec(SourceFile("candidate.ucut", spec));
  if (c.ok() && c.kernel) {
    std::shared_future<BuildResult> pending;
    {
      std::lock_guard lock(mutex_);
      auto it = builds_.find(c.kernel->config_hash);
      if (it != builds_.end()) pending = it->second;
    }
    if (pending.valid()) prebuilt_seconds = pending.get().seconds;
  }
  auto t0 = std::chrono::steady_clock::now();
  MeasureReport r = measure_spec(SourceFile("candidate.ucut", spec), problem, options_);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CandidateOutcome o = outcome_of(r);
  o.run_seconds = std::max(0.0, wall - o.build_seconds);  // outcome_of counted a build measure_spec had to do
  o.build_seconds += prebuilt_seconds;
  return o;
}

std::string LocalExecutor::timing_unavailable() { return no_gpu_reason(options_); }

ProfileOutcome LocalExecutor::profile(const std::string& spec, const Problem& problem,
                                      std::optional<double> measured_ms) {
  ProfileOptions o;
  o.measure = options_;
  o.thresholds = thresholds_;
  o.measured_ms = measured_ms;
  try {
    return profile_outcome_of(profile_spec(SourceFile("candidate.ucut", spec), problem, o));
  } catch (const std::exception& e) {  // a profile is advice: its failure must not end the run
    ProfileOutcome failed;
    failed.reason = std::string("profiling failed: ") + e.what();
    return failed;
  }
}

}  // namespace ucut::engine
