// engine/recorded_executor.cpp
#include "engine/recorded_executor.h"

#include <fmt/format.h>

namespace ucut::engine {

RecordedExecutor::RecordedExecutor(store::Workspace& ws) {
  for (const store::ProblemRow& p : ws.problems())
    for (store::AttemptRow& a : ws.attempts(p.id))
      if (a.status != store::AttemptStatus::pending) attempts_[{p.id, a.config_hash}] = std::move(a);
}

CandidateOutcome RecordedExecutor::measure(const std::string& spec, const Problem& problem) {
  std::string hash = spec_config_hash(spec);
  auto it = attempts_.find({problem.name, hash});
  if (it != attempts_.end()) return stored_outcome(it->second);
  ++misses_;
  CandidateOutcome o;
  o.config_hash = hash;
  o.status = store::AttemptStatus::check_failed;
  o.error = fmt::format("config {} of `{}` is not in the recording", hash.substr(0, 12), problem.name);
  return o;
}

}  // namespace ucut::engine
