// problem/reference.h — where the harness computes a problem's reference (a problem file's `reference`, `run
// --reference`, the worker request's field).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ucut {

/// `automatic` picks the FP64 CPU reference for small problems and the GPU (cuBLAS FP32 plus the reference epilogue)
/// otherwise; convolutions always use a direct FP64-accumulating GPU kernel.
enum class Reference { automatic, gpu, cpu };
const char* reference_name(Reference r);  // "auto", "gpu", "cpu"
std::optional<Reference> parse_reference(std::string_view name);
std::vector<std::string_view> reference_names();

}  // namespace ucut
