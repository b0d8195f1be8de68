// compiler/build_errors.h — an nvcc failure shown where it came from in the spec. Every config `check` accepts
// must compile, so any failure is a ucutlass bug; the message points at the construct most likely involved.
#pragma once

#include <string>

#include "build/cache.h"
#include "compiler/pipeline.h"
#include "support/source.h"

namespace ucut {

/// `spec:line:col: error: ...` with the source line, the nvcc summary and the log path.
/// A pipeline's failure points at its header (the stages share one translation unit).
std::string render_build_failure(const SourceFile& src, const Compilation& c, const BuildResult& r);

}  // namespace ucut
