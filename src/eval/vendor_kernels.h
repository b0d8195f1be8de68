// eval/vendor_kernels.h — which vendor math library a launched kernel belongs to, by its name (the table:
// eval/vendor_kernels.def). The worker asks this of every kernel a candidate's verified and timed calls ran
// (CUPTI's records): a match is the `library_kernels` flag, a hand-off that neither the source scan nor the
// import check can see (a library opened with dlopen at run time).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/math_libraries.h"

namespace ucut {

/// The library whose kernel `name` (mangled or demangled) is; nullopt for any other kernel.
std::optional<MathLibrary> library_of_kernel(std::string_view name);

/// Adds "cuBLAS: <name>" to `found` when `name` is a vendor kernel not listed yet, while `found` has fewer than `max`
/// entries: the evidence both workers report.
void note_vendor_kernel(std::string_view name, std::vector<std::string>& found, size_t max);

}  // namespace ucut
