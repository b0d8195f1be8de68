// emit/memory/memop_api.h — the C entry of a memory-bound family kernel (abi/kernel_abi.h's ucut_memop_api):
// what a harness, a PyTorch binding or a pipeline calls instead of the family's own run function. Appended to
// every family kernel's translation unit by emit_memop.
#pragma once

#include <string>

#include "ir/memop.h"
#include "support/source.h"

namespace ucut {

/// The emitted kernel's run function (emit/memory/): one per family, each taking the caller's inputs, the
/// output, the scalars (f32) and the extents (MemOpConfig::extent_symbols order), then stream, err, err_len.
const char* memop_run_function(const MemOpConfig& m);

/// The ucut_memop_api block for the kernel in namespace `ns`: `<ns>_api()`, and `ucut_memop_entry` under
/// UCUT_DEFINE_ENTRY.
std::string memop_api_block(const SourceFile& src, const MemOpConfig& m, const std::string& ns);

}  // namespace ucut
