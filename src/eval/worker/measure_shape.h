// eval/worker/measure_shape.h — one problem shape, end to end: seeded inputs, the independent reference,
// the candidate's verification with integrity checks, its timing, re-verification, and the vendor baseline
// (cuBLAS for GEMMs, cuDNN for convolutions).
#pragma once

#include "eval/protocol.h"
#include "eval/worker/kernel_library.h"
#include "eval/worker/measure_common.h"
#include "eval/worker/problem_desc.h"

namespace ucut::worker {

struct Candidate {
  const KernelLibrary* library = nullptr;  // null: baseline only
  MathMode math = MathMode::native;        // the kernel's precision, which the vendor baseline matches
  std::optional<DType> converted;          // the 16-bit type it converts its operands to (ProblemDesc::converted)
};

ShapeResult measure_shape(const DeviceContext& ctx, const WorkerRequest& req, const ProblemDesc& problem,
                          const Candidate& cand, const GemmShape& shape);

}  // namespace ucut::worker
