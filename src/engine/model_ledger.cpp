// engine/model_ledger.cpp — see model_ledger.h.
#include "engine/model_ledger.h"

#include <fmt/format.h>

#include "llm/schema_check.h"
#include "support/sha256.h"

namespace ucut::engine {

namespace {

/// The reply a recorded row gives: its response when ok, its error when failed.
LedgerReply reply_of(const store::LlmCallRow& row, bool replayed) {
  LedgerReply r;
  r.replayed = replayed;
  r.seq = row.seq;
  r.call_id = row.id;
  r.tokens = row.tokens();
  r.cost_usd = row.cost_usd;
  if (row.status != store::LlmCallStatus::ok) {
    r.error = row.error.empty() ? "the model call failed" : row.error;
    return r;
  }
  std::string why;
  r.response = llm::response_from_json(nlohmann::json::parse(row.response_json, nullptr, false), &why);
  if (!r.response)
    r.error =
        fmt::format("model call {} is recorded as ok but its response cannot be read back: {}", row.id, why);
  return r;
}

}  // namespace

LedgerReply ModelLedger::call(const CallSite& site, int seq, llm::ChatRequest request) {
  const llm::LlmConfig& config = client_.config();
  if (request.model.empty()) request.model = config.model;
  if (!request.temperature) request.temperature = config.temperature;
  if (!request.max_tokens) request.max_tokens = config.max_tokens;
  store::LlmCallRow row;
  row.run_id = site.run_id;
  row.problem_id = site.problem_id;
  row.iteration = site.iteration;
  row.role = site.role;
  row.model = request.model;
  row.request_json = llm::request_to_json(request).dump();
  row.request_hash = sha256_hex(row.request_json);
  for (row.seq = seq;; ++row.seq) {
    std::optional<store::LlmCallRow> known =
        ws_.find_llm_call(row.run_id, row.problem_id, row.iteration, row.role, row.seq, row.request_hash);
    if (!known || known->status == store::LlmCallStatus::pending)
      if (std::string why = gate_ ? gate_() : ""; !why.empty()) {
        LedgerReply stopped;
        stopped.seq = row.seq;
        stopped.error = fmt::format("the {} call was not sent: {}", site.role, why);
        return stopped;
      }
    store::LlmCallRow held = known ? *known : ws_.claim_llm_call(row);
    if (held.status == store::LlmCallStatus::ok) return reply_of(held, true);
    if (held.status == store::LlmCallStatus::failed) {
      if (failed_here_.count(held.id)) return reply_of(held, true);
      continue;  // an earlier process's failure keeps its row; ask again under the next seq
    }
    // Pending: claimed just now, or left by a kill between sending and recording. Send it.
    llm::CallResult result = client_.complete(request);
    held.attempts = result.record.attempts;
    held.wall_s = result.record.wall_s;
    held.prompt_tokens = result.record.prompt_tokens;
    held.completion_tokens = result.record.completion_tokens;
    held.cost_usd = result.record.cost_usd;
    if (result.ok()) {
      held.status = store::LlmCallStatus::ok;
      held.model = result.response->model.empty() ? request.model : result.response->model;
      held.response_json = llm::response_to_json(*result.response).dump();
    } else {
      held.status = store::LlmCallStatus::failed;
      held.error = result.error->message();
      failed_here_.insert(held.id);
    }
    ws_.finish_llm_call(held);
    ++sent_calls_;
    sent_tokens_ += held.tokens();
    sent_cost_usd_ += held.cost_usd;
    LedgerReply r = reply_of(held, false);
    if (result.ok()) r.response = std::move(result.response);
    return r;
  }
}

std::optional<nlohmann::json> extract_json_object(const std::string& text, std::string* error) {
  auto object = [](std::string_view s) -> std::optional<nlohmann::json> {
    nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    return j;
  };
  if (auto j = object(text)) return j;
  if (size_t fence = text.find("```"); fence != std::string::npos) {
    size_t body = text.find('\n', fence);
    size_t end = body == std::string::npos ? std::string::npos : text.find("```", body);
    if (end != std::string::npos)
      if (auto j = object(std::string_view(text).substr(body + 1, end - body - 1))) return j;
  }
  size_t open = text.find('{'), close = text.rfind('}');
  if (open != std::string::npos && close != std::string::npos && close > open)
    if (auto j = object(std::string_view(text).substr(open, close - open + 1))) return j;
  if (error)
    *error = text.find('{') == std::string::npos ? "the answer holds no JSON object"
                                                 : "the answer's JSON does not parse as one object";
  return std::nullopt;
}

JsonReply ask_json(ModelLedger& ledger, const CallSite& site, std::vector<llm::Message> messages,
                   const nlohmann::json& schema, int repairs, int first_seq, const AnswerCheck& check) {
  JsonReply out;
  out.next_seq = first_seq;
  for (int round = 0;; ++round) {
    llm::ChatRequest request;
    request.messages = messages;
    LedgerReply r = ledger.call(site, out.next_seq, request);
    out.next_seq = r.seq + 1;
    ++out.calls;
    out.tokens += r.tokens;
    out.cost_usd += r.cost_usd;
    if (!r.ok()) {
      out.error = r.error;
      out.call_failed = true;
      return out;
    }
    if (r.response->refusal) {
      out.error = fmt::format("the model refused the {} phase: {}", site.role, *r.response->refusal);
      return out;
    }
    out.raw = r.response->message.content.value_or("");
    std::string wrong;
    std::optional<nlohmann::json> value = extract_json_object(out.raw, &wrong);
    if (value) {
      if (auto violation = llm::schema_violation(schema, *value))
        wrong = *violation;
      else if (auto mistake = check ? check(*value) : std::nullopt)
        wrong = *mistake;
      else {
        out.value = std::move(value);
        return out;
      }
    }
    if (r.response->finish_reason == "length")
      wrong += " (the answer was cut off at the token limit: answer shorter)";
    if (round >= repairs) {
      out.error = fmt::format("the {} answer is still invalid after {} repair{}: {}", site.role, repairs,
                              repairs == 1 ? "" : "s", wrong);
      return out;
    }
    messages.push_back({llm::Role::kAssistant, out.raw, {}, {}});
    messages.push_back(llm::Message::user(fmt::format(
        "That answer cannot be used: {}. Answer again with only the JSON object the instructions ask for.",
        wrong)));
  }
}

}  // namespace ucut::engine
