// engine/cudamaster/brief.h — what the roles are told about the (task, precision) pair: the `task` slot (the
// launcher, what it writes, MSKB's calling convention, the tolerance and the size cases) and the `signature`
// slot (the declaration the candidate must define). Both come from the task table alone (mskb/task.h).
#pragma once

#include <string>

#include "mskb/task.h"

namespace ucut::engine::cudamaster {

/// The `task` slot of the Planner, Coder and Debug prompts.
std::string task_text(const mskb::Task& t, mskb::Precision p);

/// The launcher a candidate defines, as the harness declares it: "void RELU_optimized(float* output, ...)".
std::string candidate_signature(const mskb::Task& t, mskb::Precision p);

/// The candidate's launcher name: "RELU_optimized", "RELU_bf16_optimized".
std::string candidate_symbol(const mskb::Task& t, mskb::Precision p);

}  // namespace ucut::engine::cudamaster
