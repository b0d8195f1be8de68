// mskb/runner.h — runs ucutlass-mskb-worker as a child process and survives it, as eval/runner.h does for kernels:
// a crash or a hang (no progress line for `idle_seconds`) costs the item in flight, recorded as crashed or
// timed_out, and a fresh worker measures the items left.
#pragma once

#include <string>

#include "mskb/protocol.h"

namespace ucut::mskb {

struct RunnerOptions {
  std::string worker;         // path of ucutlass-mskb-worker
  double idle_seconds = 300;  // the worker prints a line per phase of every case and item
  bool echo_progress = false; // copy those lines to our stderr as they come (`bench mskb --verbose`)
};

/// $UCUT_MSKB_WORKER, else `ucutlass-mskb-worker` beside the running executable; "" if neither exists.
std::string find_mskb_worker();

/// Measures every item of `req`; never throws for worker failures.
MskbResponse run_mskb_worker(const MskbRequest& req, const RunnerOptions& opts);

}  // namespace ucut::mskb
