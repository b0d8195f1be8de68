// engine/cudamaster/attempts.h — a CUDAMaster candidate as a workspace attempt: keyed by its file and its
// nvcc options (the same pair is one attempt, measured once), its spec the .cu text, its proposer
// "cudamaster:<role>", its outcome the harness's Evaluation, stored whole so a resumed run reads it back
// instead of measuring again.
#pragma once

#include <cstdint>
#include <string>

#include "engine/cudamaster/evaluator.h"
#include "store/workspace.h"

namespace ucut::engine::cudamaster {

/// The attempt's config hash: sha256 over the file and its options (the naive launcher is marked apart).
std::string candidate_hash(const Candidate& c);

/// The pending row for `c` (claim_attempt), or the one the workspace already holds for it.
store::AttemptRow claim_candidate(store::Workspace& ws, const std::string& problem_id, int64_t run_id,
                                  int iteration, const std::string& proposer, const Candidate& c,
                                  int64_t tokens);

/// Writes `e` as the outcome of attempt `a` (`c`: what was built).
void finish_candidate(store::Workspace& ws, store::AttemptRow a, const Candidate& c, const Evaluation& e);

/// A finished attempt's outcome, as finish_candidate stored it.
Evaluation stored_evaluation(const store::AttemptRow& a);

/// A finished attempt's candidate: its file and the options it was built with.
Candidate stored_candidate(const store::AttemptRow& a);

}  // namespace ucut::engine::cudamaster
