// compiler/pipeline.h — the compiler on one screen: parse → lower → check → emit.
#pragma once

#include <optional>

#include "dsl/ast.h"
#include "emit/backend.h"
#include "ir/kernel_config.h"
#include "ir/pipeline.h"
#include "support/diag.h"

namespace ucut {

struct Compilation {
  DiagEngine diags;
  std::optional<SpecAst> ast;
  std::optional<KernelConfig> config;      // a kernel spec
  std::optional<PipelineConfig> pipeline;  // a pipeline spec (its stages' configs inside)
  std::optional<EmittedKernel> kernel;     // the kernel's or the pipeline's translation unit
  bool ok() const { return !diags.has_errors(); }
};

enum class StopAfter { parse, lower, check, emit };

/// Runs the stages up to `stop`; each stage runs only if the previous produced no errors.
Compilation compile_spec(const SourceFile& src, StopAfter stop = StopAfter::emit);

}  // namespace ucut
