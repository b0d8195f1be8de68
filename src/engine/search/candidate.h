// engine/search/candidate.h — what every proposer returns (a validated spec with its move) and the builder that
// turns moves on a seed spec into such candidates, skipping invalid, already tried and repeated configs.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/search/rewrite.h"
#include "engine/search/space.h"
#include "problem/problem.h"
#include "sol/bottleneck.h"
#include "store/records.h"

namespace ucut::search {

struct Context {
  const Problem* problem = nullptr;
  sol::Bottleneck bottleneck = sol::Bottleneck::unknown;
  double gap = 0;       // t_best / t_SOL(TF32); 0 when unknown
  double gap_fp16 = 0;  // t_best / t_SOL(FP16), the bound 16-bit operands can approach; 0 when unknown
  double conversion_share = 0;  // converting f32 A and B to 16 bits, over t_best (model.h `math`); 0: unknown
  int sm_count = 132;
  std::vector<store::LessonRow> lessons;
  std::set<std::string> tried;  // config hashes never to propose again
  uint64_t seed = 0;
  std::vector<std::string> knobs;  // the knobs that may move (Move::knobs names); empty: all of them
};

struct Candidate {
  std::string spec;
  std::string config_hash;
  std::string move_json;  // the knobs it changes relative to the seed spec
  std::string phrase;
  bool precision_change = false;
};

/// The seed spec lowered with its space; builds candidates from moves relative to it.
class CandidateBuilder {
 public:
  /// `keep_known`: also return the seed's own config and tried ones (the exhaustive enumeration lists the space).
  CandidateBuilder(const std::string& spec, const Context& ctx, bool keep_known = false);

  /// Empty when the spec can be searched; otherwise why not (a pipeline, or a spec that does not lower).
  const std::string& unsupported() const { return unsupported_; }
  const KernelConfig& seed() const { return *seed_; }
  const Space& space() const { return space_; }
  const Rejections& rejected() const { return rejected_; }

  /// The candidate for `move`, or nullopt when it is invalid (counted in rejected()), the seed, tried or already built.
  std::optional<Candidate> build(const Move& move, KernelConfig* config = nullptr);
  /// The same for a full point of the space.
  std::optional<Candidate> build_point(const Move& point, KernelConfig* config = nullptr);

 private:
  std::string spec_;
  const Context& ctx_;
  bool keep_known_;
  std::string unsupported_;
  std::optional<KernelConfig> seed_;
  std::string seed_hash_;
  Space space_;
  Rejections rejected_;
  std::set<std::string> built_;
};

}  // namespace ucut::search
