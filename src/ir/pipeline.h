// ir/pipeline.h — a pipeline: kernels (stages) that run in order, the later ones reading earlier outputs.
// A stage is a GEMM or convolution (a complete KernelConfig) or a memory-bound family kernel (a complete
// MemOpConfig: map, reduce, rownorm, scan, window), lowered from its stage with every link resolved: `A: H` or
// `input: H` (H an earlier stage's stored output) becomes H's declaration, a family input's view `input: H[E1, E2]`
// becomes H's element type over the restated row-major extents, and `from(T)` (the caller hands a GEMM/conv
// operand over in T) is recorded here and stripped. The last stage's output is the pipeline's; every other
// stage's output is an intermediate that lives in the pipeline's workspace. A GEMM or convolution stage reads
// only GEMM or convolution outputs (L018, C506).
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "ir/kernel_config.h"
#include "ir/memop.h"
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

/// A family stage's input that an earlier stage produces: `input: H` (read with H's type, extents and layout) or
/// the view `input: H[E1, E2, ...]` (H's memory read row-major with the restated extents; their element count is
/// H's, C507).
struct FamilyLink {
  size_t input = 0;   // index into the family config's inputs (a plain input: also its caller tensor)
  size_t caller = 0;  // index into its caller_inputs(): the slot of ucut_memop_args::inputs the pipeline binds
  int producer = -1;  // the stage whose output it reads
  Span link;          // `H`, or the whole view `H[E1, ...]`
  bool view = false;
  std::optional<Span> view_modifier;  // the first modifier written on a view (`H[E] align(4)`), refused (C507)
};

struct PipelineStage {
  KernelConfig config;               // a GEMM or convolution stage, named by the stage; unset for a family stage
  std::array<StageInput, 2> inputs;  // a, b (a GEMM or convolution stage)
  std::optional<MemOpConfig> family; // a memory-bound family stage
  std::vector<FamilyLink> links;     // a family stage's linked inputs, in input order

  bool is_family() const { return family.has_value(); }
  const Spanned<std::string>& name() const { return family ? family->name : config.name; }
  /// The stage's stored output (a family stage's only one: library families are refused, C506).
  const TensorDecl& output() const { return family ? family->output() : config.output(); }
  /// The producers this stage reads, one entry per linked operand or input.
  std::vector<int> producers() const;
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

/// Whether any stage is a memory-bound family kernel.
bool has_family_stage(const PipelineConfig& p);

/// {"pipeline", "arch", "stages": [...]}: a GEMM/conv stage {"name", "config" (canonical_config), "inputs": {"a",
/// "b": {"producer", "caller_dtype"}}}; a family stage {"name", "family" (its operator), "config"
/// (canonical_memop), "links": [{"input", "caller", "producer", "view" (the restated extents, when a view)}]}:
/// what the emitted pipeline's config_json holds and what the harness reads.
nlohmann::json canonical_pipeline(const PipelineConfig& p);
/// The header, each stage's inputs (caller, converted, or linked) with line:col, then each stage's dump_ir.
std::string dump_pipeline_ir(const SourceFile& src, const PipelineConfig& p);
/// sha256 of canonical_pipeline(p).dump(), and the namespace `ucut_pipe_` + its first 16 hex digits.
std::string pipeline_hash(const PipelineConfig& p);
std::string pipeline_namespace(const PipelineConfig& p);

}  // namespace ucut
