// eval/worker/pipeline_desc.h — what the worker needs to know about a pipeline, read from its canonical JSON (a
// pipeline library's config_json, and a pipeline problem's WorkerRequest::problem): each stage's problem (its
// canonical kernel config, problem_desc.h) and where its operands a and b come from. The GEMM or convolution stages
// are all GEMMs (gemm, batched_gemm: A and B) or all convolutions (forward, grouped, depthwise or transposed: the
// activation X, linked or the caller's, and the filter W, always the caller's); memory-bound family stages may
// follow or sit between them. No CUDA headers: unit-tested without a toolkit.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/protocol.h"
#include "eval/worker/problem_desc.h"
#include "ir/memop.h"

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

/// A family stage's input that an earlier stage produces (ir/pipeline.h's FamilyLink): the pipeline binds
/// ucut_memop_args::inputs[caller] to the producer's output, read with the input's extents (`view`: restated).
struct FamilyInput {
  std::string input;  // the family kernel's input, by name (ir/pipeline.h canonical_family_stage)
  size_t caller = 0;
  int producer = -1;
  bool view = false;
};

/// A memory-bound family stage (map, reduce, rownorm, scan, window): its canonical config and links from the JSON,
/// and its kernel as the pipeline spec lowers it (attach_family_configs, from the request's pipeline_source).
struct FamilyStage {
  std::string op;
  nlohmann::json config;  // canonical_memop
  std::vector<FamilyInput> links;
  std::shared_ptr<const MemOpConfig> memop;  // null until attach_family_configs
  /// Whether caller input `c` (MemOpConfig::caller_inputs order) is bound by the pipeline to a producer.
  const FamilyInput* link_of(size_t c) const;
};

struct PipelineStage {
  std::string name;
  ProblemDesc problem;  // a GEMM or convolution stage's; unset at a family stage
  StageInput a, b;
  std::optional<FamilyStage> family;
  bool is_family() const { return family.has_value(); }
};

struct PipelineDesc {
  std::string name;
  std::vector<PipelineStage> stages;  // in order; the last one's D is the output, every other one's an intermediate
  /// The GEMM and convolution stages' operator family: all GEMMs or all convolutions (parse_pipeline_desc refuses a
  /// mix, and a pipeline of family stages only).
  OpFamily family() const;
  bool has_family_stage() const;
  /// "stage `up` (0)", for messages.
  std::string stage_label(size_t s) const;
};

/// Whether a canonical config describes a pipeline rather than one kernel.
bool is_pipeline_config(const nlohmann::json& config);

/// Parses a canonical pipeline config; throws std::runtime_error starting with `whose` ("the problem's", "the
/// kernel's") and naming the stage, when a field is wrong or the pipeline is not one the harness measures: stages
/// are all gemm or batched_gemm, or all convolutions other than filter gradients (wgrad), without aux outputs,
/// reductions or FP8 scales, with memory-bound family stages among them (at least one GEMM or convolution: a family
/// stage reads earlier outputs, a GEMM or convolution never a family stage's); an operand reads an earlier stage's D of its own type and layout, and a convolution's
/// filter is never read from a stage; conversions are between f32, f16 and bf16; every stage but the last is read.
/// (Whether a linked activation has its producer's extents depends on the shape: conv_link_mismatch says.)
PipelineDesc parse_pipeline_desc(const nlohmann::json& config, const std::string& whose);

/// Sets each family stage's `memop` from the pipeline spec `source` (lowered as ucutlass lowers it); throws
/// std::runtime_error naming the stage when the source does not lower, or lowers to other stages or to a family
/// kernel whose canonical form (launch knobs aside) differs from the config's.
void attach_family_configs(PipelineDesc& p, const std::string& source);

/// Why convolution stage s cannot read its linked activation (its operand a) from its producer at these shapes
/// (`from`: the producer's, `to`: stage s's): the producer's output and the activation are the same packed
/// channels-last tensor only when they agree in images, every spatial extent and channels; "" when they do.
std::string conv_link_mismatch(const PipelineDesc& p, size_t s, const ConvShape& from, const ConvShape& to);

/// Why a pipeline kernel cannot run a pipeline problem: another number of stages, a stage whose operands come from
/// elsewhere (producers, caller types), or a stage whose ABI slots differ (slot_mismatch); "" when it can.
std::string pipeline_mismatch(const PipelineDesc& problem, const PipelineDesc& kernel);

}  // namespace ucut::worker
