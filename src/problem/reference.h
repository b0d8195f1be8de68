// problem/reference.h — where the harness computes a problem's reference (a problem file's `reference`, `run
// --reference`, the worker request's field).
#pragma once

#include "support/enum_json.h"
#include "support/enum_names.h"

namespace ucut {

/// `automatic` picks the FP64 CPU reference for small problems and the GPU (cuBLAS FP32 plus the reference epilogue)
/// otherwise; convolutions always use a direct FP64-accumulating GPU kernel.
enum class Reference { automatic, gpu, cpu };
constexpr auto enum_names(Reference) {
  return name_table<Reference>("reference", {{Reference::automatic, "auto"}, {Reference::gpu, "gpu"},
                                             {Reference::cpu, "cpu"}});
}
UCUT_ENUM_JSON(Reference)

}  // namespace ucut
