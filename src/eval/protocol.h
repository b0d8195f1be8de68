// eval/protocol.h — the messages between `ucutlass` and its GPU worker process (`ucutlass-worker`).
// The parent writes a WorkerRequest as JSON; the worker answers a WorkerResponse as JSON on stdout.
// A kernel runs only inside the worker, so a crash or hang costs one attempt, never the run.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/compare.h"
#include "eval/precision.h"
#include "eval/protocol_enums.h"
#include "eval/stats.h"
#include "ir/epilogue_ops.h"
#include "ir/types.h"
#include "problem/input_draw.h"
#include "problem/reference.h"
#include "problem/shape.h"

namespace ucut {

struct WorkerRequest {
  WorkerMode mode = WorkerMode::measure;
  std::string kernel_path;  // a kernel library exporting ucut_entry; empty: measure the baseline only
  nlohmann::json problem;   // canonical config (ir/canonical.h) of the problem's reference semantics
  std::vector<GemmShape> shapes;
  Tolerance tolerance;
  Reference reference = Reference::automatic;  // auto: the CPU (FP64) below cpu_reference_max_macs, else the GPU
  int64_t cpu_reference_max_macs = int64_t(1) << 27;  // auto picks the CPU below this many multiply-adds
  uint64_t seed = 0;                     // input set i uses seed + i
  int input_sets = 3;                    // distinct seeded inputs, rotated during timing
  InputDraws inputs;                     // how each operand is drawn (default: signed, every role)
  int warmup = 10;
  int trials = 100;
  bool flush_l2 = true;
  bool time_cublas = true;               // the vendor baseline at the same precision, in the same process
  /// A pipeline problem's spec text (Problem::pipeline_text): the worker lowers its family stages' MemOpConfigs
  /// from it (ir/pipeline.h), as canonical JSON does not round-trip; each shape's symbols and scalars give their
  /// calls (problem/family_call.h).
  std::string pipeline_source;
};

struct TimingResult {
  bool measured = false;
  Stats event_ms;  // CUDA events on the launch stream
  Stats wall_ms;   // host clock around launch + cudaDeviceSynchronize (sees work on any stream)
};

struct IntegrityResult {
  bool input_mutated = false;             // an input's hash changed across a candidate run
  bool output_constant = false;           // every element of an output (D, aux, reduction) equal, its reference not
  bool output_input_independent = false;  // an output was bit-identical for two different input sets
  bool incomplete_at_stream_sync = false; // wrong after syncing the launch stream, right after syncing the device
  double empty_launch_wall_ms = 0;        // wall time of an empty kernel, the cross-check's floor
  // The call schedule (eval/trial_schedule.h), drawn afresh per shape, and what its verified timed calls found.
  uint64_t schedule_seed = 0;
  int timed_checks = 0;           // timed calls whose output was poisoned before and compared after
  int timed_check_failures = 0;   // of them, wrong after the synchronization the schedule chose
  int first_failed_check = -1;    // the first such call's index among the event-timed calls
  // CUPTI's records of every stream (eval/worker/device_activity.h) around the verified and the wall-clock calls.
  bool device_activity = false;   // the records were available (a profiler attached takes them)
  int off_stream_records = 0;     // work on another stream still running when the launch stream's work was done
  std::string off_stream_example; // the first such record: a kernel's name, or "memcpy" / "memset"
  double device_busy_ms = 0;      // median over the wall-clock calls: the time any stream was busy with the call
  // Vendor-library kernels (eval/vendor_kernels.h) among every kernel of the verified and wall-clock calls,
  // any stream: "cuBLAS: nvjet_…", at most 16 distinct names.
  std::vector<std::string> library_kernels;
  std::string l2_persistence;     // what the candidate set: a persisting-L2 carve-out, an access-policy window
  // The precision the verified outputs show (eval/precision.h), whatever the candidate declares.
  PrecisionClass measured_precision = PrecisionClass::unmeasured;
  double precision_error = 0;     // the worst normalized error of D over the verified reads
  double precision_rms = 0;       // its RMS over the outputs outside the probe's tiny columns
  double precision_wide_rms = 0;  // its RMS over the tiny columns (fp16's range test)
  std::string precision_note;     // why the shape was not measured, when it was not
};

/// One output's share of a shape's verification (every input set): D, an aux_store tensor or a reduction vector.
struct OutputCheck {
  std::string name;   // the tensor's name in the problem: "D", "Z", "R"
  EpiKind stage = EpiKind::store;  // the stage that writes it: store, aux_store or a reduction
  Comparison verify;
};

struct ShapeResult {
  GemmShape shape;
  ShapeStatus status = ShapeStatus::ok;
  std::string error;
  ReferenceKind reference_kind = ReferenceKind::none;
  Comparison verify;                 // all input sets, D, aux outputs and reduction vectors, before timing
  std::vector<OutputCheck> outputs;  // `verify` per output, D first, then aux slots in chain order
  Comparison reverify;               // the last timed run's output
  IntegrityResult integrity;
  std::vector<std::string> launched_kernels;  // the kernels the candidate's verified calls ran, on any stream
  TimingResult candidate;
  TimingResult cublas;               // grouped GEMMs: one cuBLAS call per problem on the stream, timed as one run
  VendorLibrary baseline_library = VendorLibrary::none;  // the vendor baseline in `cublas*`
  std::string cublas_kernel;         // what the baseline ran, e.g. "cublasLt bf16 TN f32-acc + BIAS+GELU"
  std::string cublas_error;          // why the baseline did not run, when it did not
  TimingResult cublas_grouped;       // grouped GEMMs: cublasGemmGroupedBatchedEx over all problems in one call
  std::string cublas_grouped_kernel; // what it ran
  std::string cublas_grouped_error;  // why it did not run (e.g. a precision the grouped API lacks)
  double seconds = 0;                // wall time the worker spent on this shape
  bool cublas_fused_epilogue = false;
};

struct WorkerResponse {
  std::string gpu_name, gpu_uuid, driver_version, runtime_version, cublas_version;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  int64_t l2_carve_out_default = 0;  // the persisting-L2 carve-out the driver gave the context, cleared before the candidate loads
  std::string kernel_name;
  nlohmann::json kernel_config;  // what the kernel library says about itself
  std::vector<ShapeResult> shapes;
  nlohmann::json calibration;    // calibrate mode: {copy_tbs, gemm_tflops{precision: rate}, method}
  std::string fatal_error;       // set when nothing could be measured (no GPU, bad library, ...)
};

void to_json(nlohmann::json& j, const GemmShape& v);
void from_json(const nlohmann::json& j, GemmShape& v);
void to_json(nlohmann::json& j, const WorkerRequest& v);
void from_json(const nlohmann::json& j, WorkerRequest& v);
void to_json(nlohmann::json& j, const Stats& v);
void from_json(const nlohmann::json& j, Stats& v);
void to_json(nlohmann::json& j, const Comparison& v);
void from_json(const nlohmann::json& j, Comparison& v);
void to_json(nlohmann::json& j, const OutputCheck& v);
void from_json(const nlohmann::json& j, OutputCheck& v);
void to_json(nlohmann::json& j, const TimingResult& v);
void from_json(const nlohmann::json& j, TimingResult& v);
void to_json(nlohmann::json& j, const IntegrityResult& v);
void from_json(const nlohmann::json& j, IntegrityResult& v);
void to_json(nlohmann::json& j, const ShapeResult& v);
void from_json(const nlohmann::json& j, ShapeResult& v);
void to_json(nlohmann::json& j, const WorkerResponse& v);
void from_json(const nlohmann::json& j, WorkerResponse& v);

}  // namespace ucut
