// eval/integrity.h — turns a shape's measurements into integrity flags (DESIGN.md §5). A flagged result
// never counts as a speedup; a label (precision change) is reported but does not disqualify.
#pragma once

#include <string>
#include <vector>

#include "eval/protocol.h"

namespace ucut {

struct IntegrityFlag {
  std::string id;       // not_verified | reverify_failed | faster_than_sol | input_mutated | output_constant |
                        // output_input_independent | off_stream | precision_change
  std::string reason;   // with the numbers that triggered it
  bool disqualifies = true;
};

struct IntegrityContext {
  double sol_floor_ms = 0;        // the smallest physically possible time (FP16 bound, or FP8's if faster); 0: unknown
  bool precision_change = false;  // the kernel multiplies in lower precision than the problem states
};

std::vector<IntegrityFlag> integrity_flags(const ShapeResult& r, const IntegrityContext& ctx);

/// True when no flag disqualifies the result.
bool counts(const std::vector<IntegrityFlag>& flags);

/// The off-stream cross-check alone: wall time (host clock to a device-wide sync, minus an empty launch)
/// far above the launch-stream event time means work ran where the events did not see it.
bool wall_clock_exceeds_events(const TimingResult& t, double empty_launch_wall_ms);

}  // namespace ucut
