// emit/pipeline.h — a pipeline's translation unit: every stage's kernel as its backend emits it (each in its own
// namespace), the conversion kernels, and one host entry point,
// `ucut_pipeline_entry` (abi/kernel_abi.h), that owns the intermediates and runs the stages in order.
#pragma once

#include "emit/backend.h"
#include "ir/pipeline.h"

namespace ucut {

/// Emits a checked pipeline. Precondition: check() reported no errors for it.
EmittedKernel emit_pipeline(const SourceFile& src, const PipelineConfig& p);

}  // namespace ucut
