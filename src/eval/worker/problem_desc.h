// eval/worker/problem_desc.h — what the worker needs to know about a problem, read from its canonical
// config JSON (ir/canonical.h): operand types and layouts, and the epilogue as a reference chain.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/worker/ref_chain.h"
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

struct ProblemDesc {
  OpKind op = OpKind::gemm;
  Operand a, b, d;
  MathMode math = MathMode::native;
  bool scale_a = false, scale_b = false, scale_d = false;
  bool has_residual = false;
  Operand c;                        // the residual source, when has_residual
  std::vector<VectorSlot> vectors;  // in ABI slot order
  std::vector<Operand> aux;         // aux_store outputs in ABI slot order
  std::vector<float> scalars;       // scalar values in ABI slot order (the problem's defaults)
  RefChain chain;
};

/// Parses a canonical config; throws std::runtime_error naming the field that is wrong.
ProblemDesc parse_problem_desc(const nlohmann::json& config);

/// Why the kernel's ABI slots cannot carry this problem's parameters (counts differ), or "".
std::string slot_mismatch(const ProblemDesc& problem, const ProblemDesc& kernel);

}  // namespace ucut::worker
