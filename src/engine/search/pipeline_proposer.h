// engine/search/pipeline_proposer.h — the built-in proposer's moves for a pipeline spec: one stage at a time. A GEMM
// or convolution stage moves its tile or mainloop stages within its own space (space.h; its precision stays), ranked
// by the cost model on the stage's own GEMMs (model.h, the problem's stage shapes); a memory-bound family stage moves
// its launch (launch_search.h's first round: vector width, block, items, grid, rows). Each candidate is the whole
// pipeline with that one stage rewritten (rewrite.h apply_move), judged as the harness would (validate).
#pragma once

#include <string>
#include <vector>

#include "engine/search/proposer.h"

namespace ucut::search {

/// At most `max_hypotheses` proposals, one per stage ("stage `s1` (gemm): tile and stages"), GEMM and convolution
/// stages first by the model's best predicted speedup of the stage, then family stages (launch exploration: no cost
/// model, Ŝ = 1); each with up to `attempts_per_hypothesis` valid candidates (none the spec's own config or a
/// `tried` hash). A spec that is no pipeline, or does not lower, gets none.
std::vector<Proposal> propose_pipeline(const std::string& spec, const Context& ctx, int max_hypotheses,
                                       int attempts_per_hypothesis);

}  // namespace ucut::search
