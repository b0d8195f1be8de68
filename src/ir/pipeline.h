// ir/pipeline.h — a pipeline: kernels (stages) that run in order, the later ones reading earlier outputs.
// Each stage is a complete KernelConfig, lowered from its stage with every link resolved: `A: H` (H an earlier
// stage's stored output) becomes H's declaration, and `from(T)` (the caller hands the operand over in T) is
// recorded here and stripped. The last stage's output is the pipeline's; every other stage's output is an
// intermediate that lives in the pipeline's workspace.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "ir/kernel_config.h"
#include "support/diag.h"

namespace ucut {

/// Where a stage's operand a or b comes from.
struct StageInput {
  int producer = -1;                 // the stage whose output it is; -1: the caller
  Span link;                         // `A: H` (a link) or the `from(T)` modifier (a conversion)
  std::optional<DType> caller_dtype; // `from(T)`: the caller's element type, converted to the operand's
  bool linked() const { return producer >= 0; }
  bool converted() const { return caller_dtype.has_value(); }
};

struct PipelineStage {
  KernelConfig config;               // named by the stage
  std::array<StageInput, 2> inputs;  // a, b
};

struct PipelineConfig {
  Spanned<std::string> name;
  Span header;  // `pipeline NAME : ARCH`
  Spanned<Arch> arch;
  std::vector<PipelineStage> stages;
  /// Whether stage s's output is read by a later stage (an intermediate).
  bool intermediate(size_t s) const;
};

/// Lowers every stage; on a lowering error in any stage, nullopt (with the diagnostics reported).
std::optional<PipelineConfig> lower_pipeline(const SourceFile& src, const SpecAst& ast, DiagEngine& diags);

/// {"pipeline", "arch", "stages": [{"name", "config" (canonical_config), "inputs": {"a", "b": {"producer",
/// "caller_dtype"}}}]}: what the emitted pipeline's config_json holds and what the harness reads.
nlohmann::json canonical_pipeline(const PipelineConfig& p);
/// The header, each stage's inputs (caller, converted, or linked) with line:col, then each stage's dump_ir.
std::string dump_pipeline_ir(const SourceFile& src, const PipelineConfig& p);
/// sha256 of canonical_pipeline(p).dump(), and the namespace `ucut_pipe_` + its first 16 hex digits.
std::string pipeline_hash(const PipelineConfig& p);
std::string pipeline_namespace(const PipelineConfig& p);

}  // namespace ucut
