// eval/worker/ref_stages.h — the reference epilogue's description: the problem's `>>` chain as plain stages (kind,
// parameters, slot), read from the canonical config (problem_desc.h) and evaluated by ref_chain.h. No CUDA headers,
// so the parsing side is unit-tested on machines without a CUDA toolkit.
#pragma once

#include "ir/epilogue_ops.h"
#include "ir/expr.h"
#include "ir/types.h"

namespace ucut::worker {

constexpr int kMaxRefStages = 24;
constexpr int kMaxRefExprOps = 64;  // all `expr(...)` programs of a chain together
constexpr int kMaxRefAux = 4;       // aux outputs (aux_store tensors and reduction captures) the reference carries

struct RefStage {
  EpiKind kind = EpiKind::store;
  double p0 = 0, p1 = 0;  // activation parameters
  int slot = -1;          // vector / scalar / aux slot (aux_store and reductions share the aux slots)
  bool per_row = false;   // vector stages: one value per M (true) or per N (false)
  DType dtype = DType::f32;  // cast target
  int expr_begin = 0, expr_len = 0;  // `expr(...)`: its postfix program in RefChain::program
};

struct RefChain {
  int count = 0;
  RefStage stages[kMaxRefStages];
  bool round_output = false;  // integer outputs: the reference rounds and saturates like the store does
  DType out = DType::f32;
  ExprOp program[kMaxRefExprOps];
  int program_len = 0;
};

}  // namespace ucut::worker
