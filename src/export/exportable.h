// export/exportable.h — which compiled specs `ucutlass export` can wrap as one PyTorch function: a single
// kernel (not a pipeline) whose operator takes and returns tensors only — a GEMM, a batched GEMM, a forward
// convolution (dense, grouped, depthwise) or a transposed one. Anything else (a memory-bound family's kernel
// too) is refused with X001 and why.
#pragma once

#include "compiler/pipeline.h"

namespace ucut::interop {

/// True when `comp` (compiled without errors) can be exported; otherwise reports X001 into comp.diags.
bool check_exportable(Compilation& comp);

}  // namespace ucut::interop
