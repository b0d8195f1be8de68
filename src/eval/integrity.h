// eval/integrity.h — turns a shape's measurements into integrity flags (DESIGN.md §5). A flagged result
// never counts as a speedup; a label (precision change) is reported but does not disqualify.
#pragma once

#include <string>
#include <vector>

#include "eval/flags.h"
#include "eval/protocol.h"

namespace ucut {

/// A raised flag (eval/flags.def says whether it disqualifies).
struct IntegrityFlag {
  FlagId id = FlagId::not_verified;
  std::string reason;  // with the numbers that triggered it
};

struct IntegrityContext {
  double sol_floor_ms =
      0;  // the smallest physically possible time (FP16 bound, or FP8's if faster); 0: unknown
  bool precision_change = false;  // the kernel multiplies in lower precision than the problem states
  std::string precision_reason;   // how that was decided (eval/precision.h's PrecisionDecision::reason)
};

std::vector<IntegrityFlag> integrity_flags(const ShapeResult& r, const IntegrityContext& ctx);

/// faster_than_sol's factor on the floor for the harness's time: the median of CUDA events on the launch
/// stream.
inline constexpr double kEventTimeSolFactor = 1.0;
/// faster_than_sol's factor on the floor for the MSKB bench's time: CUPTI's GPU busy time, the kernels'
/// execution alone without the launch gaps that events include, flagged only more than 5% below the floor
/// (docs/mskb.md).
inline constexpr double kBusyTimeSolFactor = 0.95;

/// The faster_than_sol rule: `ms` below `factor` times a known (positive) floor.
bool faster_than_sol(double ms, double sol_floor_ms, double factor);

/// True when no flag disqualifies the result (eval/flags.def).
bool counts(const std::vector<IntegrityFlag>& flags);

/// The off-stream cross-check alone: wall time (host clock to a device-wide sync, minus an empty launch)
/// above 1.25 times the launch-stream event time + 20 us means work ran where the events did not see it.
bool wall_clock_exceeds_events(const TimingResult& t, double empty_launch_wall_ms);

/// The device-wide cross-check (CUPTI): the median time a call kept any stream busy (the union of its work's
/// intervals: gaps while the host enqueues do not count) above the launch-stream event time by more than 10% + 5 us.
bool device_busy_exceeds_events(const TimingResult& t, double device_busy_ms);

}  // namespace ucut
