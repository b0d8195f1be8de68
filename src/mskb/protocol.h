// mskb/protocol.h — the messages between `ucutlass bench mskb` and its GPU process (`ucutlass-mskb-worker`), like
// eval/protocol.h for kernels: the parent writes an MskbRequest as JSON, the worker rewrites an MskbResponse after
// every item, so a crash or hang costs the item in flight and a fresh worker measures the rest.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/protocol.h"  // Stats as JSON
#include "eval/stats.h"
#include "mskb/protocol_enums.h"
#include "mskb/task.h"

namespace ucut::mskb {

/// One launcher library (a naive, vendor or candidate launcher built with its call adapter, mskb/adapter.h).
struct Implementation {
  Role role = Role::naive;
  std::string library;  // path of the .so
};

/// One (case, implementation) pair to measure.
struct Item {
  int case_index = 0;  // into Task::cases
  int impl = 0;        // into MskbRequest::impls
};

struct MskbRequest {
  std::string task;
  Precision precision = Precision::fp32;
  std::vector<Implementation> impls;
  std::vector<Item> items;  // grouped by case: inputs and the reference are made once per case
  uint64_t seed = 2026;     // case i draws from seed + i
  // MSKB-compatible timing: `compat_warmup` calls, then `compat_iterations` back-to-back calls between two events,
  // same inputs, no L2 flush; the time per call includes launch and the launcher's synchronize.
  int compat_warmup = 3;
  int compat_iterations = 50;
  double compat_seconds = 3.0;  // fewer iterations (at least 3) when 50 calls would take longer than this
  // Our timing: cold L2 before every trial, in-place arguments restored, GPU busy time (kernels, copies, sets)
  // from CUPTI and the host's launch+sync time; as many trials as fit in `trial_seconds`, within [min, max].
  int min_trials = 5;
  int max_trials = 50;
  double trial_seconds = 1.0;
  /// Cases whose CPU reference costs more operations than this are judged against the vendor launcher's output.
  double cpu_reference_limit = 4e9;
  /// For Nsight Compute (run with --profile-from-start off): each item's inputs made, then one call of its
  /// launcher between cudaProfilerStart and cudaProfilerStop; no reference, verification or timing.
  bool profile_only = false;
};

/// One output's comparison with the reference.
struct OutputResult {
  std::string name;
  int64_t checked = 0, mismatches = 0, nonfinite = 0;
  double max_abs_err = 0, max_rel_err = 0;
  int64_t worst_index = -1;
  double worst_value = 0, worst_reference = 0;
  std::string message;  // a custom checker's verdict (top_k)
  bool pass = false;
};

struct ItemResult {
  Item item;
  Role role = Role::naive;
  Status status = Status::ok;  // ok | load_failed | cuda_error | error | crashed | timed_out
  std::string error;
  ReferenceKind reference_kind = ReferenceKind::none;
  bool correct = false;        // every output within tolerance of the reference
  std::vector<OutputResult> outputs;
  bool compat_checked = false;         // a naive output existed to apply MSKB's own rule to
  bool compat_correct = false;         // MSKB's own rule: within its tolerance of the naive launcher's output
  bool reverify_correct = false;       // the output after the timing runs
  bool input_mutated = false;          // a read-only array changed
  bool output_input_independent = false;  // the same output for two different input sets
  std::vector<std::string> library_kernels;  // vendor kernels its timed calls launched (eval/vendor_kernels.def)
  std::string l2_persistence;  // a persisting-L2 carve-out or access-policy window found set before a call
  double compat_ms = 0;                // MSKB-compatible time per call
  int compat_calls = 0;                // how many calls it averaged
  Stats gpu_ms;                        // GPU busy time per call (kernel-only), cold L2
  Stats wall_ms;                       // host launch + synchronize per call, cold L2
  GpuTimer gpu_timer = GpuTimer::none;
  double seconds = 0;
};

struct MskbResponse {
  std::string gpu_name, driver_version, runtime_version;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  std::vector<ItemResult> results;
  std::string fatal_error;
};

NLOHMANN_JSON_SERIALIZE_ENUM(Precision, {{Precision::fp32, "fp32"}, {Precision::bf16, "bf16"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Implementation, role, library)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Item, case_index, impl)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MskbRequest, task, precision, impls, items, seed,
                                                compat_warmup, compat_iterations, compat_seconds, min_trials,
                                                max_trials, trial_seconds, cpu_reference_limit, profile_only)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OutputResult, name, checked, mismatches, nonfinite, max_abs_err,
                                                max_rel_err, worst_index, worst_value, worst_reference, message, pass)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ItemResult, item, role, status, error, reference_kind, correct, outputs,
                                                compat_checked, compat_correct, reverify_correct, input_mutated,
                                                output_input_independent, library_kernels, l2_persistence, compat_ms,
                                                compat_calls, gpu_ms, wall_ms, gpu_timer, seconds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MskbResponse, gpu_name, driver_version, runtime_version, sm_count,
                                                l2_bytes, results, fatal_error)

}  // namespace ucut::mskb
