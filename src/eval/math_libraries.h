// eval/math_libraries.h — the vendor math libraries of eval/math_libraries.def: their ids and names, and
// which one a shared-library name or a dynamic symbol belongs to.
#pragma once

#include <optional>
#include <string_view>

namespace ucut {

enum class MathLibrary {
#define MATH_LIBRARY(id, shown, sonames, symbols) id,
#include "eval/math_libraries.def"
#undef MATH_LIBRARY
};

/// "cublas", "torch": the id in reasons and LibraryCall::library.
std::string_view library_id(MathLibrary l);
/// "cuBLAS", "PyTorch".
std::string_view library_shown(MathLibrary l);

/// The library a DT_NEEDED entry loads ("libcublas.so.13" → cublas); nullopt for any other.
std::optional<MathLibrary> library_of_soname(std::string_view needed);
/// The library a dynamic symbol belongs to ("cublasGemmEx" → cublas, "_ZN2at6matmulERKNS_6TensorES2_" →
/// torch).
std::optional<MathLibrary> library_of_symbol(std::string_view symbol);

}  // namespace ucut
