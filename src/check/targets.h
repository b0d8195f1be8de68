// check/targets.h — the support matrix `check` enforces, as data: for every architecture its backend, the CUDA
// toolkits that can target it, the operators, and each operand type's MMA with its legal accumulators. Built from
// the same tables the rules read (ir/archs.def, check/mma_table, ir/sm80_mma), so it cannot drift from them.
#pragma once

#include <string>
#include <vector>

#include "ir/kernel_config.h"

namespace ucut {

struct OperandSupport {
  std::string operands;             // "bf16", "f32 (math = tf32x3)", "e4m3/e5m2"
  std::string mma;                  // "wgmma", "f16 tensor op", ...
  std::vector<DType> accumulators;
};

struct TargetSupport {
  Arch arch;
  BackendKind backend;
  int min_cuda = 0, max_cuda = 0;   // 120 = CUDA 12.0; 0 = unbounded
  std::vector<std::string> operators;
  std::vector<std::string> kernel_schedules;
  std::vector<OperandSupport> operands;  // empty when the arch has no backend
};

std::vector<TargetSupport> support_matrix();

/// Whether a toolkit (`cuda` = major*10+minor, e.g. 130) can compile for the target.
bool toolkit_targets(const TargetSupport& t, int cuda);

}  // namespace ucut
