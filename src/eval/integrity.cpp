// eval/integrity.cpp — the flag rules, each with the measurement behind it.
#include "eval/integrity.h"

#include <fmt/format.h>

namespace ucut {

bool wall_clock_exceeds_events(const TimingResult& t, double empty_launch_wall_ms) {
  if (!t.measured) return false;
  double unseen = t.wall_ms.median - empty_launch_wall_ms;
  return unseen > 1.5 * t.event_ms.median + 0.02;  // 20 us absorbs host jitter around tiny kernels
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
  if (r.candidate.measured && !r.reverify.pass)
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
  else if (wall_clock_exceeds_events(r.candidate, r.integrity.empty_launch_wall_ms))
    f.push_back({FlagId::off_stream,
                 fmt::format("wall clock to a device sync {:.4f} ms (empty launch {:.4f} ms) far exceeds the "
                             "launch-stream events {:.4f} ms",
                             r.candidate.wall_ms.median, r.integrity.empty_launch_wall_ms,
                             r.candidate.event_ms.median)});
  if (r.candidate.measured &&
      faster_than_sol(r.candidate.event_ms.median, ctx.sol_floor_ms, kEventTimeSolFactor))
    f.push_back({FlagId::faster_than_sol,
                 fmt::format("{:.4f} ms is below the physical floor {:.4f} ms (FP16 speed-of-light bound)",
                             r.candidate.event_ms.median, ctx.sol_floor_ms)});
  if (ctx.precision_change)
    f.push_back({FlagId::precision_change,
                 "multiplies in lower precision than the problem states (f32 operands as tf32, or converted "
                 "to 16 bits): a precision change, not an algorithmic speedup"});
  return f;
}

bool counts(const std::vector<IntegrityFlag>& flags) {
  for (const IntegrityFlag& f : flags)
    if (disqualifies(f.id)) return false;
  return true;
}

}  // namespace ucut
