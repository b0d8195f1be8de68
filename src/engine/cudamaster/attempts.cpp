// engine/cudamaster/attempts.cpp — see attempts.h.
#include "engine/cudamaster/attempts.h"

#include <fmt/format.h>

#include "support/sha256.h"

namespace ucut::engine::cudamaster {
namespace {

store::AttemptStatus status_of(Verdict v) {
  using S = store::AttemptStatus;
  switch (v) {
    case Verdict::ok:
    case Verdict::integrity:
      return S::measured;
    case Verdict::interface:
      return S::check_failed;
    case Verdict::build:
      return S::build_failed;
    case Verdict::run:
      return S::crashed;
    case Verdict::verify:
      return S::wrong;
    case Verdict::needs_gpu:
      return S::pending;
  }
  return S::pending;
}

nlohmann::json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

std::optional<double> optional_double(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? std::nullopt : std::optional<double>(it->get<double>());
}

}  // namespace

std::string candidate_hash(const Candidate& c) {
  std::string options;
  for (const std::string& f : c.flags) options += f + "\n";
  return sha256_hex(fmt::format("cudamaster {}\n{}--\n{}", c.naive ? "naive" : "candidate", options, c.code));
}

store::AttemptRow claim_candidate(store::Workspace& ws, const std::string& problem_id, int64_t run_id,
                                  int iteration, const std::string& proposer, const Candidate& c,
                                  int64_t tokens) {
  store::AttemptRow a;
  a.problem_id = problem_id;
  a.run_id = run_id;
  a.iteration = iteration;
  a.proposer = proposer;
  a.spec = c.code;
  a.config_hash = candidate_hash(c);
  a.tokens = tokens;
  return ws.claim_attempt(a);
}

void finish_candidate(store::Workspace& ws, store::AttemptRow a, const Candidate& c, const Evaluation& e) {
  a.status = status_of(e.verdict);
  a.correct = e.verdict == Verdict::ok || e.verdict == Verdict::integrity;
  a.time_ms = e.time_ms;
  a.flags = e.flags;
  a.flagged = e.verdict == Verdict::integrity;
  a.error = e.error;
  nlohmann::json report = nlohmann::json::parse(e.report_json, nullptr, false);
  nlohmann::json result{{"verdict", e.verdict},
                        {"error", e.error},
                        {"score", optional_json(e.score)},
                        {"time_ms", optional_json(e.time_ms)},
                        {"flags", e.flags},
                        {"gpu", e.gpu},
                        {"nvcc_flags", c.flags},
                        {"naive", c.naive},
                        {"report", report.is_discarded() ? nlohmann::json() : report}};
  if (!e.model_review_json.empty()) result["model_review"] = nlohmann::json::parse(e.model_review_json);
  a.result_json = result.dump();
  a.build_seconds = e.build_seconds;
  a.run_seconds = e.run_seconds;
  a.code_hash = sha256_hex(c.code);
  ws.finish_attempt(a);
}

Evaluation stored_evaluation(const store::AttemptRow& a) {
  nlohmann::json j = nlohmann::json::parse(a.result_json);
  Evaluation e;
  e.verdict = j.at("verdict");
  e.error = j.value("error", "");
  e.score = optional_double(j, "score");
  e.time_ms = optional_double(j, "time_ms");
  e.flags = j.value("flags", std::vector<FlagId>{});
  e.gpu = j.value("gpu", "");
  if (j.contains("report") && !j["report"].is_null()) e.report_json = j["report"].dump();
  if (j.contains("model_review")) e.model_review_json = j["model_review"].dump();
  e.build_seconds = a.build_seconds;
  e.run_seconds = a.run_seconds;
  return e;
}

Candidate stored_candidate(const store::AttemptRow& a) {
  nlohmann::json j = nlohmann::json::parse(a.result_json, nullptr, false);
  Candidate c;
  c.code = a.spec;
  if (!j.is_discarded()) {
    c.flags = j.value("nvcc_flags", std::vector<std::string>{});
    c.naive = j.value("naive", false);
  }
  return c;
}

}  // namespace ucut::engine::cudamaster
