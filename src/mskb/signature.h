// mskb/signature.h — an MSKB launcher declaration, parsed: "void matrix_mul(const float* A, ..., int K)". The
// harness allocates and passes arguments by it, and `export --mskb` and the call adapter are written from it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mskb/task.h"

namespace ucut::mskb {

enum class CType { f32, bf16, i32 };
const char* ctype_spelling(CType t);  // "float" | "__nv_bfloat16" | "int"
int ctype_bytes(CType t);

struct Param {
  std::string name;
  CType type = CType::f32;
  bool pointer = false;
  bool is_const = false;             // `const float*` (pointee) or `const int` (value)
  std::string spelling;              // the declaration as written, default removed: "const float* A"
  std::optional<std::string> default_value;  // "1.0" in `float alpha = 1.0`
};

struct Signature {
  std::string name;
  std::vector<Param> params;
  /// "void NAME(<params as written, defaults dropped>)" with `symbol` as NAME.
  std::string declaration(const std::string& symbol) const;
};

/// Parses `decl`; throws std::invalid_argument naming the offending parameter for anything but a void function
/// of float/__nv_bfloat16/int/int32_t values and pointers (optionally const, optionally defaulted).
Signature parse_signature(const std::string& decl);

/// The task's launcher in `p`: its parsed signature.
Signature task_signature(const Task& t, Precision p);

/// The launcher name in `p`: "RELU" / "RELU_bf16".
std::string launcher_name(const Task& t, Precision p);

}  // namespace ucut::mskb
