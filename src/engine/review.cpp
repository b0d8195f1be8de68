// engine/review.cpp — see review.h.
#include "engine/review.h"

#include "llm/prompt_pack.h"

namespace ucut::engine {

std::vector<FlagId> Review::flags() const {
  if (verdict == "shortcut") return {FlagId::model_shortcut};
  if (verdict == "suspicious") return {FlagId::model_suspicious};
  return {};
}

nlohmann::json Review::to_json() const {
  nlohmann::json findings_json = nlohmann::json::array();
  for (const ReviewFinding& f : findings)
    findings_json.push_back({{"kind", f.kind}, {"evidence", f.evidence}});
  nlohmann::json j = {{"verdict", verdict.empty() ? nlohmann::json(nullptr) : nlohmann::json(verdict)},
                      {"findings", findings_json},
                      {"tokens", tokens}};
  if (!error.empty()) j["error"] = error;
  return j;
}

Review review_candidate(ModelLedger& ledger, const CallSite& site, const ReviewInput& input, int repairs) {
  static const llm::PromptPack pack = llm::load_prompt_pack("detector");
  std::string prompt = pack.render(
      "review.md",
      {{"problem", input.problem}, {"source", input.source}, {"measurements", input.measurements}});
  JsonReply answer = ask_json(ledger, site, {llm::Message::user(prompt)},
                              pack.schemas.at("schemas/review.schema.json"), repairs);
  Review r;
  r.tokens = answer.tokens;
  r.cost_usd = answer.cost_usd;
  if (!answer.value) {
    r.error = answer.error;
    return r;
  }
  r.verdict = (*answer.value)["verdict"].get<std::string>();
  for (const nlohmann::json& f : (*answer.value)["findings"])
    r.findings.push_back({f["kind"].get<std::string>(), f["evidence"].get<std::string>()});
  // A shortcut must point at the source: a verdict without evidence is the model's suspicion, not a finding.
  if (r.verdict == "shortcut" && r.findings.empty()) r.verdict = "suspicious";
  return r;
}

}  // namespace ucut::engine
