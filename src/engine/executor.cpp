// engine/executor.cpp — the two directions between an outcome and its stored attempt; the config and code hashes.
#include "engine/executor.h"

#include <fmt/format.h>

#include "compiler/pipeline.h"
#include "support/sha256.h"

namespace ucut::engine {

void store_outcome(const CandidateOutcome& o, store::AttemptRow& a) {
  a.status = o.status;
  a.correct = o.correct;
  a.time_ms = o.time_ms;
  a.flags = o.flags;
  a.flagged = o.flagged;
  a.precision_change = o.precision_change;
  a.error = o.error;
  a.result_json = o.report.dump();
  a.build_seconds = o.build_seconds;
  a.run_seconds = o.run_seconds;
  a.gpu_seconds = o.run_seconds;
}

CandidateOutcome stored_outcome(const store::AttemptRow& a) {
  CandidateOutcome o;
  o.config_hash = a.config_hash;
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

ProfileOutcome Executor::profile(const std::string&, const Problem&, std::optional<double>) {
  ProfileOutcome o;
  o.reason = "this executor does not profile";
  return o;
}

std::string Executor::timing_unavailable() { return ""; }

std::string spec_config_hash(const std::string& spec) {
  Compilation c = compile_spec(SourceFile("candidate.ucut", spec));
  return c.ok() && c.kernel ? c.kernel->config_hash : "";
}

std::string spec_code_hash(const std::string& spec) {
  Compilation c = compile_spec(SourceFile("candidate.ucut", spec));
  return c.ok() && c.kernel ? sha256_hex(c.kernel->code) : "";
}

}  // namespace ucut::engine
