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
  CandidateOutcome o;
  o.config_hash = spec_config_hash(spec);
  auto it = attempts_.find({problem.name, o.config_hash});
  if (it == attempts_.end()) {
    ++misses_;
    o.status = store::AttemptStatus::check_failed;
    o.error = fmt::format("config {} of `{}` is not in the recording", o.config_hash.substr(0, 12), problem.name);
    return o;
  }
  const store::AttemptRow& a = it->second;
  o.status = a.status;
  o.correct = a.correct;
  o.time_ms = a.time_ms;
  o.flags = a.flags;
  o.flagged = a.flagged;
  o.precision_change = a.precision_change;
  o.error = a.error;
  o.report = nlohmann::json::parse(a.result_json, nullptr, false);
  if (o.report.is_discarded()) o.report = nlohmann::json::object();
  o.build_seconds = a.build_seconds;
  o.run_seconds = a.run_seconds;
  return o;
}

}  // namespace ucut::engine
