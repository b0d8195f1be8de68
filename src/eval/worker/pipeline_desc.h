// eval/worker/pipeline_desc.h — what the worker needs to know about a pipeline, read from its canonical JSON (a
// pipeline library's config_json, and a pipeline problem's WorkerRequest::problem): each stage's problem (its
// canonical kernel config, problem_desc.h) and where its operands a and b come from. The stages are all GEMMs
// (gemm, batched_gemm: A and B) or all convolutions (forward, grouped, depthwise or transposed: the activation X,
// linked or the caller's, and the filter W, always the caller's). No CUDA headers: unit-tested without a toolkit.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/protocol.h"
#include "eval/worker/problem_desc.h"

namespace ucut::worker {

/// Where a stage's operand a or b comes from: an earlier stage's D (stored as that stage declares D, packed), or the
/// caller, in `caller_dtype`, which the pipeline converts to the stage's operand type when they differ.
struct StageInput {
  int producer = -1;  // the earlier stage; -1: the caller
  DType caller_dtype = DType::f32;
  bool linked() const { return producer >= 0; }
  /// The caller hands it over in another type than the stage multiplies (`stage_dtype`).
  bool converted(DType stage_dtype) const { return !linked() && caller_dtype != stage_dtype; }
};

struct PipelineStage {
  std::string name;
  ProblemDesc problem;
  StageInput a, b;
};

struct PipelineDesc {
  std::string name;
  std::vector<PipelineStage> stages;  // in order; the last one's D is the output, every other one's an intermediate
  /// The stages' operator family: all GEMMs or all convolutions (parse_pipeline_desc refuses a mix).
  OpFamily family() const { return op_family(stages.front().problem.op); }
  /// "stage `up` (0)", for messages.
  std::string stage_label(size_t s) const;
};

/// Whether a canonical config describes a pipeline rather than one kernel.
bool is_pipeline_config(const nlohmann::json& config);

/// Parses a canonical pipeline config; throws std::runtime_error starting with `whose` ("the problem's", "the
/// kernel's") and naming the stage, when a field is wrong or the pipeline is not one the harness measures: stages
/// are all gemm or batched_gemm, or all convolutions other than filter gradients (wgrad), without aux outputs,
/// reductions or FP8 scales; an operand reads an earlier stage's D of its own type and layout, and a convolution's
/// filter is never read from a stage; conversions are between f32, f16 and bf16; every stage but the last is read.
/// (Whether a linked activation has its producer's extents depends on the shape: conv_link_mismatch says.)
PipelineDesc parse_pipeline_desc(const nlohmann::json& config, const std::string& whose);

/// Why convolution stage s cannot read its linked activation (its operand a) from its producer at these shapes
/// (`from`: the producer's, `to`: stage s's): the producer's output and the activation are the same packed
/// channels-last tensor only when they agree in images, every spatial extent and channels; "" when they do.
std::string conv_link_mismatch(const PipelineDesc& p, size_t s, const ConvShape& from, const ConvShape& to);

/// Why a pipeline kernel cannot run a pipeline problem: another number of stages, a stage whose operands come from
/// elsewhere (producers, caller types), or a stage whose ABI slots differ (slot_mismatch); "" when it can.
std::string pipeline_mismatch(const PipelineDesc& problem, const PipelineDesc& kernel);

}  // namespace ucut::worker
