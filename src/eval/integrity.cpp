// eval/integrity.cpp — the flag rules, each with the measurement behind it.
#include "eval/integrity.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ucut {

bool wall_clock_exceeds_events(const TimingResult& t, double empty_launch_wall_ms) {
  if (!t.measured) return false;
  double unseen = t.wall_ms.median - empty_launch_wall_ms;
  return unseen > 1.25 * t.event_ms.median + 0.02;  // 20 us absorbs host jitter around tiny kernels
}

bool device_busy_exceeds_events(const TimingResult& t, double device_busy_ms) {
  return t.measured && device_busy_ms > 1.1 * t.event_ms.median + 0.005;  // both on the GPU's clock: no host jitter
}

bool faster_than_sol(double ms, double sol_floor_ms, double factor) {
  return sol_floor_ms > 0 && ms < sol_floor_ms * factor;
}

std::vector<IntegrityFlag> integrity_flags(const ShapeResult& r, const IntegrityContext& ctx) {
  std::vector<IntegrityFlag> f;
  if (r.status != ShapeStatus::ok) {
    f.push_back({FlagId::not_verified, fmt::format("{}: {}", enum_name(r.status), r.error)});
    return f;
  }
  if (!r.verify.pass)
    f.push_back(
        {FlagId::not_verified,
         fmt::format("{} of {} outputs outside tolerance ({} not finite); max rel err {:.3g}, rel L2 {:.3g}",
                     r.verify.mismatches, r.verify.checked, r.verify.nonfinite, r.verify.max_rel_err,
                     r.verify.rel_l2)});
  if (r.candidate.measured && r.integrity.timed_check_failures > 0)
    f.push_back({FlagId::reverify_failed,
                 fmt::format("{} of {} randomly chosen timed runs gave a wrong output (the first: event-timed run "
                             "{}); the untimed verification passed",
                             r.integrity.timed_check_failures, r.integrity.timed_checks,
                             r.integrity.first_failed_check)});
  else if (r.candidate.measured && !r.reverify.pass)
    f.push_back({FlagId::reverify_failed,
                 fmt::format("the output after {} timed runs differs from the reference ({} mismatches)",
                             r.candidate.event_ms.n, r.reverify.mismatches)});
  if (r.integrity.input_mutated)
    f.push_back({FlagId::input_mutated, "an input's content hash changed across a launch"});
  if (r.integrity.output_constant)
    f.push_back({FlagId::output_constant, "every output element is equal while the reference varies"});
  if (r.integrity.output_input_independent)
    f.push_back(
        {FlagId::output_input_independent, "two different input sets produced bit-identical outputs"});
  if (r.integrity.incomplete_at_stream_sync)
    f.push_back(
        {FlagId::off_stream,
         "the output was wrong after synchronizing the launch stream and right only after a device-wide "
         "synchronize: work ran on another stream"});
  else if (r.integrity.off_stream_records > 0)
    f.push_back({FlagId::off_stream,
                 fmt::format("{} piece(s) of work on another stream were still running when the launch stream's "
                             "work was done (the first: {})",
                             r.integrity.off_stream_records, r.integrity.off_stream_example)});
  else if (r.integrity.device_activity && device_busy_exceeds_events(r.candidate, r.integrity.device_busy_ms))
    f.push_back({FlagId::off_stream,
                 fmt::format("the device was busy {:.4f} ms per run (every stream) while "
                             "the launch stream's events saw {:.4f} ms",
                             r.integrity.device_busy_ms, r.candidate.event_ms.median)});
  else if (wall_clock_exceeds_events(r.candidate, r.integrity.empty_launch_wall_ms))
    f.push_back({FlagId::off_stream,
                 fmt::format("wall clock to a device sync {:.4f} ms (empty launch {:.4f} ms) far exceeds the "
                             "launch-stream events {:.4f} ms",
                             r.candidate.wall_ms.median, r.integrity.empty_launch_wall_ms,
                             r.candidate.event_ms.median)});
  if (!r.integrity.l2_persistence.empty())
    f.push_back({FlagId::l2_persistence, r.integrity.l2_persistence});
  if (!r.integrity.library_kernels.empty())
    f.push_back({FlagId::library_kernels, fmt::format("its calls ran vendor-library kernels: {}",
                                                      fmt::join(r.integrity.library_kernels, ", "))});
  if (r.candidate.measured &&
      faster_than_sol(r.candidate.event_ms.median, ctx.sol_floor_ms, kEventTimeSolFactor))
    f.push_back({FlagId::faster_than_sol,
                 fmt::format("{:.4f} ms is below the physical floor {:.4f} ms (FP16 speed-of-light bound)",
                             r.candidate.event_ms.median, ctx.sol_floor_ms)});
  if (ctx.precision_change)
    f.push_back({FlagId::precision_change,
                 "multiplies in lower precision than the problem states (f32 operands as tf32, or converted "
                 "to 16 bits): a precision change, not an algorithmic speedup" +
                     (ctx.precision_reason.empty() ? std::string() : "; " + ctx.precision_reason)});
  return f;
}

bool counts(const std::vector<IntegrityFlag>& flags) {
  for (const IntegrityFlag& f : flags)
    if (disqualifies(f.id)) return false;
  return true;
}

}  // namespace ucut
