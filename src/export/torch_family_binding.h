// export/torch_family_binding.h — the PyTorch binding of a memory-bound family kernel (ir/memop.h: `map`, `reduce`,
// `rownorm`, `scan`; not yet `window`, `sparse` or the library calls): one function that takes the tensors the
// caller passes (each input, or the tensor a `slice`/`reverse` view reads, once, in declaration order) and, keyword-
// only and required, each run-time scalar as a float; checks every tensor (device, element type, rank, each extent
// against the first tensor that gives its symbol and the spec's fixed sizes, layout); reads the extent symbols off
// the tensors; allocates the output of the spec's extents and layout; and runs the kernel through its C entry
// (abi/kernel_abi.h's ucut_memop_api) on the current CUDA stream. The kernel checks alignment itself; its refusal is
// a RuntimeError with its reason.
#pragma once

#include <optional>
#include <string>

#include "export/torch_binding.h"
#include "ir/memop.h"
#include "support/diag.h"

namespace ucut::interop {

/// The binding calling `<kernel_namespace>_api()`, or nullopt after an X001 when an extent of the output is no
/// extent of any input (nothing the caller passes gives its size), or for a `window`, `sparse` or library-call kernel
/// (their sizes, counts and outputs are not tensor extents; they export with `--mskb`).
std::optional<Binding> torch_family_binding(const MemOpConfig& m, const std::string& kernel_namespace,
                                            DiagEngine& diags);

}  // namespace ucut::interop
