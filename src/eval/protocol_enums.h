// eval/protocol_enums.h — the closed sets of values the worker messages (eval/protocol.h) carry, each with
// its one name table: the JSON strings are these names, unchanged since results were first committed.
#pragma once

#include "support/enum_json.h"

namespace ucut {

/// What the worker does with a request.
enum class WorkerMode {
  measure,    // verify and time the shapes
  calibrate,  // measure the GPU's ceilings
  profile,  // per shape, inputs then one candidate launch between cudaProfilerStart and cudaProfilerStop (no
            // reference, verification, timing or baseline)
  probe,    // name the GPU and stop: whether one is usable here, asked before compiling for it
};

constexpr auto enum_names(WorkerMode) {
  using M = WorkerMode;
  return name_table<M>(
      "worker mode",
      {{M::measure, "measure"}, {M::calibrate, "calibrate"}, {M::profile, "profile"}, {M::probe, "probe"}});
}
UCUT_ENUM_JSON(WorkerMode)

/// How a shape's measurement ended: ok, or why the candidate's numbers are missing or void.
enum class ShapeStatus {
  ok,
  cannot_implement,  // the kernel's can_implement refused the shape
  prepare_failed,    // its workspace or arguments could not be set up
  launch_failed,     // a launch returned an error
  cuda_error,        // a CUDA call of the worker failed
  error,             // another error in the worker
  crashed,           // the worker died on it (eval/runner.h)
  timed_out,         // the worker was killed on it after the time limit (eval/runner.h)
};

constexpr auto enum_names(ShapeStatus) {
  using S = ShapeStatus;
  return name_table<S>("shape status", {{S::ok, "ok"},
                                        {S::cannot_implement, "cannot_implement"},
                                        {S::prepare_failed, "prepare_failed"},
                                        {S::launch_failed, "launch_failed"},
                                        {S::cuda_error, "cuda_error"},
                                        {S::error, "error"},
                                        {S::crashed, "crashed"},
                                        {S::timed_out, "timed_out"}});
}
UCUT_ENUM_JSON(ShapeStatus)

/// The reference a shape was verified against.
enum class ReferenceKind {
  none,        // not made (the shape stopped before its reference, or a profile run)
  cpu_f64,     // FP64 on the CPU
  cublas_f32,  // cuBLAS FP32 plus the reference epilogue on the GPU
  direct_f64,  // a direct FP64 convolution on the GPU
};

constexpr auto enum_names(ReferenceKind) {
  using R = ReferenceKind;
  return name_table<R>(
      "reference kind",
      {{R::none, ""}, {R::cpu_f64, "cpu-f64"}, {R::cublas_f32, "cublas-f32"}, {R::direct_f64, "direct-f64"}});
}
UCUT_ENUM_JSON(ReferenceKind)

/// The vendor library a baseline ran on.
enum class VendorLibrary {
  none,    // no baseline ran
  cublas,  // GEMMs
  cudnn,   // convolutions
};

constexpr auto enum_names(VendorLibrary) {
  using V = VendorLibrary;
  return name_table<V>("vendor library", {{V::none, ""}, {V::cublas, "cublas"}, {V::cudnn, "cudnn"}});
}
UCUT_ENUM_JSON(VendorLibrary)

}  // namespace ucut
