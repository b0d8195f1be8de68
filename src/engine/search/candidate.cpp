// engine/search/candidate.cpp — moves to validated, de-duplicated candidates.
#include "engine/search/candidate.h"

#include "ir/canonical.h"

namespace ucut::search {

CandidateBuilder::CandidateBuilder(const std::string& spec, const Context& ctx, bool keep_known)
    : spec_(spec), ctx_(ctx), keep_known_(keep_known) {
  seed_ = lower_kernel(spec, &unsupported_);
  if (!seed_) return;
  seed_hash_ = config_hash(*seed_);
  space_ = space_for(*seed_, ctx.problem);
  if (!ctx.knobs.empty()) restrict_space(space_, *seed_, ctx.knobs);
}

std::optional<Candidate> CandidateBuilder::build(const Move& move, KernelConfig* config) {
  if (!seed_) return std::nullopt;
  if (!ctx_.knobs.empty() && !space_.contains(move)) {
    rejected_.add("outside_knobs");
    return std::nullopt;
  }
  std::string error;
  std::optional<std::string> text = apply_move(spec_, move, &error);
  if (!text) return std::nullopt;
  Verdict v = validate(*text, ctx_.problem);
  if (!v.ok) {
    rejected_.add(v.rule);
    return std::nullopt;
  }
  if (built_.count(v.config_hash)) return std::nullopt;
  if (!keep_known_ && (v.config_hash == seed_hash_ || ctx_.tried.count(v.config_hash))) return std::nullopt;
  built_.insert(v.config_hash);
  if (config) *config = *lower_kernel(*text, &error);
  return Candidate{*text, v.config_hash, move_json(move), move_phrase(move), v.precision_change};
}

std::optional<Candidate> CandidateBuilder::build_point(const Move& point, KernelConfig* config) {
  if (!seed_) return std::nullopt;
  return build(relative_move(space_, *seed_, point), config);
}

}  // namespace ucut::search
