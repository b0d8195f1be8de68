// mskb/worker/measure_item.h — one (case, launcher) item: verify against the case's reference, apply MSKB's own
// rule against the naive output, time it both ways, re-verify, and look for the gaming signs the harness checks.
#pragma once

#include <string>

#include "eval/worker/device_activity.h"
#include "mskb/protocol.h"
#include "mskb/signature.h"
#include "mskb/worker/launcher.h"

namespace ucut::mskb::worker {

/// What every launcher of one case shares: its inputs, the reference, and the naive launcher's outputs.
struct CaseState {
  int index = -1;
  Instance input;               // rounded to the launcher's types
  Outputs reference;
  ReferenceKind reference_kind = ReferenceKind::none;
  Outputs naive;                // set once the naive launcher ran
  bool have_naive = false;
};

struct Harness {
  const MskbRequest& request;
  const Task& task;
  Signature signature;
  std::vector<std::string> names;  // FP32 parameter names by position
  ::ucut::worker::DeviceActivity& gpu_timer;  // CUPTI: the GPU busy time of what a launcher enqueues
  int64_t l2_bytes = 0;
};

/// Makes the case's inputs and reference; above the CPU cost limit the vendor launcher (`vendor`, may be null)
/// provides the reference.
CaseState prepare_case(const Harness& h, int case_index, const Launcher* vendor);

ItemResult measure_item(const Harness& h, CaseState& cs, const Item& item, const Launcher& launcher);

/// MskbRequest::profile_only: the item's inputs, then one call between cudaProfilerStart and cudaProfilerStop
/// (the device idle before and after, so only the launcher's own kernels fall inside).
ItemResult profile_item(const Harness& h, const Item& item, const Launcher& launcher);

}  // namespace ucut::mskb::worker
