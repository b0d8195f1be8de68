// eval/trial_schedule.h — the order of a candidate's calls in one shape measurement, drawn afresh every time
// so that a kernel counting its calls cannot tell verified calls from timed ones: which input set each call
// gets, how many extra verification calls and warm-up calls there are, and which timed calls are verified too
// (their output poisoned before and compared after, behind a stream-wide or a device-wide synchronization
// chosen at random).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "support/enum_json.h"

namespace ucut {

/// What a verified timed call waits for before its output is read.
enum class SyncScope {
  stream,  // the launch stream only: work left on another stream is still missing
  device,  // the whole device
};

constexpr auto enum_names(SyncScope) {
  return name_table<SyncScope>("sync scope", {{SyncScope::stream, "stream"}, {SyncScope::device, "device"}});
}

struct TrialSchedule {
  uint64_t seed = 0;
  std::vector<int> verify_sets;  // the input set of each verification call: every set once in a random order,
                                 // then 0-2 sets again
  int warmup = 0;                                      // drawn around the requested count
  std::vector<int> event_sets;                         // the input set of each event-timed call
  std::vector<std::optional<SyncScope>> event_checks;  // per event-timed call: verified after it, and how
  std::vector<int> wall_sets;  // the input set of each wall-clock call (the device-wide pass)

  int checked_calls() const;
};

/// A schedule for `sets` input sets (at least 1), about `warmup` warm-up calls and `trials` timed calls per
/// pass: max(3, trials / 10) of the event-timed calls (all when fewer) are verified. The same seed gives the
/// same schedule.
TrialSchedule draw_trial_schedule(uint64_t seed, int sets, int warmup, int trials);

}  // namespace ucut
