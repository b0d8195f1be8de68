// mskb/protocol_enums.h — the closed sets of values the MSKB worker's messages (mskb/protocol.h) and the
// bench's results carry, each with its one name table: the JSON strings are these names, as committed results
// hold them.
#pragma once

#include "support/enum_json.h"

namespace ucut::mskb {

/// Which launcher of a (task, precision) pair.
enum class Role { naive, vendor, candidate };

constexpr auto enum_names(Role) {
  return name_table<Role>("launcher role",
                          {{Role::naive, "naive"}, {Role::vendor, "vendor"}, {Role::candidate, "candidate"}});
}
UCUT_ENUM_JSON(Role)

/// How one (case, launcher) item ended.
enum class Status {
  ok,
  wrong,  // ran, but an output is outside tolerance (the bench's verdict; the worker says ok, not correct)
  not_built,    // the launcher did not compile (the bench's)
  load_failed,  // its library did not load
  cuda_error,   // a CUDA call failed
  error,        // another error in the worker
  crashed,      // the worker died on it (mskb/runner.h)
  timed_out,    // the worker was killed on it after the time limit (mskb/runner.h)
};

constexpr auto enum_names(Status) {
  using S = Status;
  return name_table<S>("item status", {{S::ok, "ok"},
                                       {S::wrong, "wrong"},
                                       {S::not_built, "not_built"},
                                       {S::load_failed, "load_failed"},
                                       {S::cuda_error, "cuda_error"},
                                       {S::error, "error"},
                                       {S::crashed, "crashed"},
                                       {S::timed_out, "timed_out"}});
}
UCUT_ENUM_JSON(Status)

/// What a case's outputs were judged against.
enum class ReferenceKind {
  none,     // no reference was made (the item failed first)
  cpu_f64,  // the task's FP64 CPU reference
  vendor,   // the vendor launcher's output (cases too large for the CPU reference)
};

constexpr auto enum_names(ReferenceKind) {
  using R = ReferenceKind;
  return name_table<R>("reference kind", {{R::none, ""}, {R::cpu_f64, "cpu-f64"}, {R::vendor, "vendor"}});
}
UCUT_ENUM_JSON(ReferenceKind)

/// What timed the GPU busy time.
enum class GpuTimer {
  none,    // nothing was timed
  cupti,   // CUPTI's activity records: kernels, copies and sets the launcher enqueued
  events,  // CUPTI unavailable: CUDA events around the call
};

constexpr auto enum_names(GpuTimer) {
  using G = GpuTimer;
  return name_table<G>("GPU timer", {{G::none, ""}, {G::cupti, "cupti"}, {G::events, "events"}});
}
UCUT_ENUM_JSON(GpuTimer)

}  // namespace ucut::mskb
