// engine/search/random_search.cpp — rejection sampling and enumeration over Space points.
#include "engine/search/random_search.h"

#include <algorithm>
#include <limits>
#include <random>

namespace ucut::search {
size_t uniform_index(std::mt19937_64& rng, size_t n) {
  const uint64_t span = n, limit = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % span;
  uint64_t x = rng();
  while (x >= limit) x = rng();
  return static_cast<size_t>(x % span);
}

SearchResult random_candidates(const std::string& spec, const Context& ctx, int n, uint64_t seed) {
  SearchResult r;
  CandidateBuilder builder(spec, ctx);
  r.unsupported = builder.unsupported();
  if (!r.unsupported.empty() || n <= 0) return r;
  r.space_size = builder.space().size();
  std::mt19937_64 rng(seed);
  // Enough draws to find n valid configs in a sparse space; a space with fewer simply runs out.
  size_t max_draws = std::max<size_t>(4096, 64 * static_cast<size_t>(n));
  while (static_cast<int>(r.candidates.size()) < n && r.total < max_draws) {
    ++r.total;
    if (auto c = builder.build_point(builder.space().point(uniform_index(rng, r.space_size))))
      r.candidates.push_back(std::move(*c));
  }
  r.rejected = builder.rejected();
  return r;
}

SearchResult enumerate_space(const std::string& spec, const Context& ctx, size_t limit) {
  SearchResult r;
  CandidateBuilder builder(spec, ctx, /*keep_known=*/true);
  r.unsupported = builder.unsupported();
  if (!r.unsupported.empty()) return r;
  r.space_size = builder.space().size();
  for (size_t i = 0; i < r.space_size; ++i) {
    auto c = builder.build_point(builder.space().point(i));
    if (!c) continue;
    ++r.total;
    if (r.candidates.size() < limit) r.candidates.push_back(std::move(*c));
  }
  r.rejected = builder.rejected();
  return r;
}

}  // namespace ucut::search
