// eval/worker/candidate_run.h — the candidate's part of a shape measurement, the same for one kernel
// (measure_shape) and a pipeline (measure_pipeline). prepare() runs with every input poisoned (the data is written
// only after it returned and the device is idle: nothing can be precomputed there). Then, in an order drawn afresh
// (eval/trial_schedule.h): verify every set with the integrity checks (poisoned outputs, hashed inputs, stream-sync
// then device-sync reads, constant and input-independent outputs, CUPTI's view of every stream), time the runs with
// the outputs poisoned before every call and randomly chosen timed calls verified, re-verify the last timed run,
// and time an empty launch as the wall-clock cross-check's floor.
#pragma once

#include <vector>

#include "abi/kernel_abi.h"
#include "eval/protocol.h"
#include "eval/worker/device_activity.h"
#include "eval/worker/device_buffer.h"
#include "eval/worker/timing.h"

namespace ucut::worker {

/// One output read back after a run, as row-major float, and its comparison with the reference.
struct OutputRead {
  std::vector<float> values;
  Comparison check;
};

/// What the candidate's verification needs of a shape measurement: its input sets, its outputs, their references.
class CandidateSubject {
 public:
  virtual size_t input_sets() const = 0;
  /// Every buffer the candidate reads of input set `set` (hashed across launches, hidden from prepare()).
  virtual std::vector<const DeviceBuffer*> input_buffers(size_t set) const = 0;
  /// Every output buffer filled with NaN (device_ops.h's poison), so an unwritten element fails.
  virtual void poison_outputs() = 0;
  /// Reads every output as the caller of the launch stream would see it and compares each with input set `set`'s
  /// reference; in output_names() order.
  virtual std::vector<OutputRead> read_outputs(size_t set) = 0;
  virtual const std::vector<float>& output_reference(size_t set, size_t output) const = 0;
  /// Content hashes of every output buffer, in output_names() order.
  virtual std::vector<uint64_t> output_hashes() = 0;
  virtual std::vector<OutputCheck> output_names() const = 0;

 protected:
  ~CandidateSubject() = default;
};

struct CandidateTiming {
  cudaStream_t stream = nullptr;
  int64_t l2_bytes = 0;
  TimingPlan plan;
  DeviceActivity* activity = nullptr;  // null or unavailable: no CUPTI records (the wall-clock check remains)
};

/// Runs the candidate on input set i with args[i] into r (status and error, verify and outputs, integrity,
/// candidate timing, reverify); a result that is not "ok" after verification is not timed.
void run_candidate(const ucut_kernel_api& api, std::vector<ucut_gemm_args> args, CandidateSubject& subject,
                   const CandidateTiming& timing, ShapeResult& r);
void run_candidate(const ucut_pipeline_api& api, std::vector<ucut_pipeline_args> args, CandidateSubject& subject,
                   const CandidateTiming& timing, ShapeResult& r);

/// WorkerRequest mode "profile": prepares the run of `args` and launches it once between cudaProfilerStart and
/// cudaProfilerStop, the device idle on both sides, so a profiler started with profiling off (ncu
/// --profile-from-start off) sees exactly the candidate's kernels; r gets the status and error.
void profile_candidate(const ucut_kernel_api& api, const ucut_gemm_args& args, cudaStream_t stream, ShapeResult& r);
void profile_candidate(const ucut_pipeline_api& api, const ucut_pipeline_args& args, cudaStream_t stream,
                       ShapeResult& r);

}  // namespace ucut::worker
