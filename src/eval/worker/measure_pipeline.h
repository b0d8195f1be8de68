// eval/worker/measure_pipeline.h — one shape of a pipeline, end to end, as measure_shape.h does for one kernel:
// seeded caller inputs for every stage, the independent reference stage by stage, the candidate pipeline's
// verification with the integrity checks, its timing and re-verification, and the baseline of the same stages as
// separate library calls (the conversions, then one cuBLASLt matmul per GEMM stage or one cuDNN convolution per
// convolution stage).
#pragma once

#include <vector>

#include "eval/protocol.h"
#include "eval/worker/kernel_library.h"
#include "eval/worker/measure_common.h"
#include "eval/worker/pipeline_desc.h"

namespace ucut::worker {

struct PipelineCandidate {
  const PipelineLibrary* library = nullptr;  // null: baseline only
  std::vector<MathMode> math;                // per stage: the kernel's precision, which the baseline matches
};

/// `shape` has one GEMM or convolution per stage (GemmShape::stages); throws std::runtime_error naming the stage when
/// they do not fit the pipeline (another number of stages, a stage shape of another kind, an operand read from a
/// stage whose D has other extents).
ShapeResult measure_pipeline(const DeviceContext& ctx, const WorkerRequest& req, const PipelineDesc& pipeline,
                             const PipelineCandidate& cand, const GemmShape& shape);

}  // namespace ucut::worker
