// emit/memory/registry.h — the emitters of the memory-bound families (ir/memop.h), one file per family; this
// picks the one for a config's operator. Each writes one self-contained .cu translation unit, deterministic,
// with the spec as its opening comment (emit/abi_wrapper.h write_provenance) and its kernel from
// emit/templates/memop_runtime.inc, then its C entry (emit/memory/memop_api.h).
#pragma once

#include "emit/backend.h"
#include "ir/memop.h"
#include "support/source.h"

namespace ucut {

/// Emits a checked config. Precondition: check(MemOpConfig) reported no errors.
EmittedKernel emit_memop(const SourceFile& src, const MemOpConfig& m);

}  // namespace ucut
