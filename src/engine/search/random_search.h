// engine/search/random_search.h — the baselines the built-in proposer is compared with: uniformly random valid
// configs from the same space (same budget), and the exhaustive enumeration of every valid config.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/search/candidate.h"

namespace ucut::search {

/// Uniform in [0, n) from a 64-bit generator, without modulo bias (std distributions differ between libraries,
/// so a seed gives the same draws everywhere).
size_t uniform_index(std::mt19937_64& rng, size_t n);

struct SearchResult {
  std::vector<Candidate> candidates;
  size_t total = 0;       // enumerate_space: distinct valid configs in the whole space; random: points drawn
  size_t space_size = 0;  // points in the knob product (valid or not)
  Rejections rejected;    // points that failed validation
  std::string unsupported;  // why the spec cannot be searched (a pipeline, a spec that does not lower)
};

/// Up to `n` distinct valid configs drawn uniformly from the space's points (rejection sampling), none the seed's
/// or a `ctx.tried` hash. Same spec, context and `seed`, same result.
SearchResult random_candidates(const std::string& spec, const Context& ctx, int n, uint64_t seed);

/// Every distinct valid config of the space, the seed's own included, in the space's point order; `candidates`
/// holds the first `limit`, `total` counts them all.
SearchResult enumerate_space(const std::string& spec, const Context& ctx, size_t limit);

}  // namespace ucut::search
