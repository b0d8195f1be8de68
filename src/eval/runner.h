// eval/runner.h — runs the GPU worker as a child process with a deadline, and survives it: a crash or a
// hang costs the shape in flight (reported as such), and a fresh worker measures the shapes left.
#pragma once

#include <string>

#include "eval/protocol.h"

namespace ucut {

struct RunnerOptions {
  std::string worker;               // path of ucutlass-worker
  double seconds_per_shape = 120;   // the worker must report progress at least this often (it does per phase)
  std::string scratch_dir;          // where request/response files go (default: a fresh temp dir)
};

/// $`env_var` when set, else `name` beside the running executable; "" if neither exists.
std::string find_beside_executable(const std::string& name, const char* env_var);

/// $UCUT_WORKER, else `ucutlass-worker` beside the running executable; "" if neither exists.
std::string find_worker();

/// Measures every shape of `req`. Never throws for worker failures: they come back as shape statuses
/// ("crashed", "timed_out") or, when nothing could run, as fatal_error. A worker that hangs in a vendor baseline's
/// phase (cuBLAS, cuDNN) costs only that baseline: the shape is measured again without it (its `cublas_error` says so).
WorkerResponse run_worker(const WorkerRequest& req, const RunnerOptions& opts);

}  // namespace ucut
