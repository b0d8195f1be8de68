// engine/search/proposer.h — the built-in, offline, SOL-guided proposer: hypotheses are families of moves with a
// causal link to the bottleneck (wave quantization, tile intensity, multicast, latency hiding, precision), each
// with a predicted speedup from engine/search/model.h, adjusted by lessons, and up to N concrete valid candidates.
#pragma once

#include <string>
#include <vector>

#include "engine/search/candidate.h"
#include "store/records.h"

namespace ucut::search {

struct Proposal {
  store::HypothesisRow hypothesis;  // bottleneck, move_json ({"family", "knobs", "variants"}), rationale, Ŝ, risks
  std::vector<Candidate> candidates;  // best first
  Rejections rejected;                // variants of this family that failed validation
};

/// At most `max_hypotheses` proposals: the families aimed at the bottleneck first, then the others as exploration
/// (rationale "Exploration, …", twice the performance risk), best predicted speedup first within each group; each
/// with up to `attempts_per_hypothesis` distinct valid candidates (none the seed's config, a `tried` hash, or
/// another proposal's). A pipeline spec gets propose_pipeline's stage moves (pipeline_proposer.h); one that does not
/// lower gets none.
std::vector<Proposal> propose(const std::string& spec, const Context& ctx, int max_hypotheses,
                              int attempts_per_hypothesis);

/// The shape class lessons are keyed on: grouped, conv, small-grid (fewer output tiles of 128x128 than SMs),
/// large-k (K ≥ 4·max(M, N)), skinny (one of M, N ≤ 256 and the other ≥ 8× it), square-large or square-small.
std::string shape_class(const Problem& problem, int sm_count = 132);

}  // namespace ucut::search
