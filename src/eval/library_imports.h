// eval/library_imports.h — the import check of a prebuilt candidate library (DESIGN.md §5): a DT_NEEDED
// vendor math library (eval/math_libraries.def) or an undefined symbol of one is a hand-off of the work, as a
// call in the source is for the source scan (eval/library_calls.h). Without device code of its own the
// library is `library_only`, with it `library_main_op`. The runtime the harness itself loads (cudart,
// libcuda, the C and C++ runtimes) is not a math library and passes.
#pragma once

#include <vector>

#include "eval/elf_imports.h"
#include "eval/integrity.h"

namespace ucut {

/// library_only or library_main_op naming each vendor library and the symbols imported from it; empty when
/// the library imports none.
std::vector<IntegrityFlag> library_import_flags(const ElfImports& imports);

}  // namespace ucut
