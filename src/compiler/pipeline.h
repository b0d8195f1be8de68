// compiler/pipeline.h — the compiler on one screen: parse → lower → check → emit. A kernel spec lowers to a
// KernelConfig (GEMMs, convolutions) or a MemOpConfig (the memory-bound families), a pipeline spec to a
// PipelineConfig.
#pragma once

#include <optional>

#include "dsl/ast.h"
#include "emit/backend.h"
#include "ir/kernel_config.h"
#include "ir/memop.h"
#include "ir/pipeline.h"
#include "support/diag.h"

namespace ucut {

struct Compilation {
  DiagEngine diags;
  std::optional<SpecAst> ast;              // partial after syntax errors (dsl/parser.h)
  std::optional<KernelConfig> config;      // a GEMM or convolution kernel spec
  std::optional<MemOpConfig> memop;        // a kernel spec of a memory-bound family (`map`)
  std::optional<PipelineConfig> pipeline;  // a pipeline spec (its stages' configs inside)
  std::optional<EmittedKernel> kernel;     // the kernel's or the pipeline's translation unit
  bool ok() const { return !diags.has_errors(); }
};

enum class StopAfter { parse, lower, check, emit };

/// Runs the stages up to `stop`. One run reports every independent error: the parser recovers from syntax
/// errors, lowering lowers each part that parsed (config and pipeline are set only when all of it lowered),
/// and check runs on a lowered config even after syntax errors elsewhere (a stray character, the kernel's
/// name); emit runs only on a spec without errors. `ok()` says whether the spec is valid. Which of config,
/// memop and pipeline is set follows the spec's header and operator.
Compilation compile_spec(const SourceFile& src, StopAfter stop = StopAfter::emit);

}  // namespace ucut
