// eval/worker/problem_desc.h — what the worker needs to know about a problem, read from its canonical
// config JSON (ir/canonical.h): operand types and layouts, and the epilogue as a reference chain.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/worker/ref_stages.h"
#include "ir/kernel_config.h"

namespace ucut::worker {

struct Operand {
  DType dtype = DType::f32;
  Layout layout = Layout::row;
};

struct VectorSlot {
  Axis axis = Axis::col;
  DType dtype = DType::f32;
};

/// An aux slot of the ABI (`aux[i]`): aux_store and reduction stages take them in chain order.
struct AuxSlot {
  EpiKind kind = EpiKind::aux_store;  // aux_store | row_sum | row_max | col_sum | col_max
  std::string name;                   // the output's name in the chain ("Z", "R")
  Operand tensor;                     // aux_store: the [L, M, N] tensor; a reduction: its vector's element type
  int stage = -1;                     // its stage in the chain
  bool reduction() const { return kind != EpiKind::aux_store; }
  /// Reductions: one value per row m (Axis::row: row_sum, row_max) or per column n (Axis::col).
  Axis axis() const { return reduction_axis(kind); }
  bool max() const { return reduction_is_max(kind); }
};

struct ProblemDesc {
  OpKind op = OpKind::gemm;
  Operand a, b, d;
  std::string d_name = "D";         // the stored output's name
  MathMode math = MathMode::native;
  /// A kernel's `from(T)`: a and b hold the types the caller passes; the kernel multiplies them converted to this
  /// 16-bit type (the narrower of its two operands' where both convert).
  std::optional<DType> converted;
  bool scale_a = false, scale_b = false, scale_d = false;
  bool has_residual = false;
  Operand c;                        // the residual source, when has_residual
  std::vector<VectorSlot> vectors;  // in ABI slot order
  std::vector<AuxSlot> aux;         // aux_store outputs and reductions in ABI slot order
  std::vector<float> scalars;       // scalar values in ABI slot order (the problem's defaults)
  RefChain chain;
};

/// Parses a canonical config; throws std::runtime_error naming the field that is wrong.
ProblemDesc parse_problem_desc(const nlohmann::json& config);

/// Why the kernel's ABI slots cannot carry this problem's parameters (operands, slot counts, or an aux slot that
/// is a different kind of output: an aux_store tensor where the problem reduces, another reduction or axis), or "".
std::string slot_mismatch(const ProblemDesc& problem, const ProblemDesc& kernel);

}  // namespace ucut::worker
