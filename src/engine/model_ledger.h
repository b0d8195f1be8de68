// engine/model_ledger.h — every model call an agent makes, through the workspace's ledger (store/workspace.h,
// claim_llm_call): claimed under a deterministic key before it is sent, recorded with its tokens and cost
// when it comes back, and replayed from the workspace — not sent, not charged — when a resumed run makes the
// same request again. ask_json adds the orchestrated phases' contract on top: one JSON object valid against
// the phase's schema, with a bounded number of repairs (the invalid answer goes back with the validator's
// message).
//
//   engine::ModelLedger ledger(ws, client);
//   engine::JsonReply r = engine::ask_json(ledger, {run, problem, iteration, "nominate"}, messages, schema,
//   2); if (!r.value) fail(r.error);   // a failed call, a refusal, or an answer still invalid after the
//   repairs
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "llm/chat.h"
#include "llm/client.h"
#include "store/workspace.h"

namespace ucut::engine {

/// Where a call belongs in the ledger; the call's number (seq) and its request's hash complete the key.
struct CallSite {
  int64_t run_id = 0;
  std::string problem_id;  // "" for a call about no single problem
  int iteration = 0;
  std::string role;  // store::LlmCallRow::role
};

struct LedgerReply {
  std::optional<llm::ChatResponse> response;  // set when the call succeeded (now or in the recorded past)
  std::string error;                          // why it failed, for people (redacted by the client)
  bool replayed = false;                      // answered from the workspace, not sent
  int seq = 0;                                // the seq the call was recorded under
  int64_t call_id = 0;
  int64_t tokens = 0;  // prompt + completion tokens of this call (a replayed call's too: charged once, then)
  double cost_usd = 0;

  bool ok() const { return response.has_value(); }
};

/// Asked before a call is sent (never before a replay): "" lets it go, anything else is why it may not (a
/// spent budget); the call then fails with that reason and nothing is claimed or sent.
using SendGate = std::function<std::string()>;

class ModelLedger {
 public:
  ModelLedger(store::Workspace& ws, llm::Client& client) : ws_(ws), client_(client) {}

  /// Every later call that would be sent asks `gate` first.
  void set_send_gate(SendGate gate) { gate_ = std::move(gate); }

  /// Call `seq` of `site`. The request's model, temperature and max tokens, when unset, are the client's
  /// configured ones, filled in before the request is hashed: the same words to another model are another
  /// call. A recorded ok call with the same key is replayed; a pending one (a kill between sending and
  /// recording) is sent; a failed one recorded by an earlier process is kept as it is and the next seq is
  /// tried, so a resumed run asks again without losing the failure's row and cost. A failure is never retried
  /// within one process beyond the client's own retries. A call the send gate stops leaves no row.
  LedgerReply call(const CallSite& site, int seq, llm::ChatRequest request);

  /// Tokens and cost this object has sent and been charged (replays excluded): what budgets spend.
  int64_t sent_tokens() const { return sent_tokens_; }
  double sent_cost_usd() const { return sent_cost_usd_; }
  int sent_calls() const { return sent_calls_; }
  const llm::Client& client() const { return client_; }

 private:
  store::Workspace& ws_;
  llm::Client& client_;
  SendGate gate_;
  std::set<int64_t> failed_here_;  // calls that failed in this process
  int64_t sent_tokens_ = 0;
  double sent_cost_usd_ = 0;
  int sent_calls_ = 0;
};

struct JsonReply {
  std::optional<nlohmann::json> value;  // the valid answer
  std::string error;                    // why there is none
  bool call_failed = false;             // a call failed (not the model's answer): asking again may succeed
  std::string raw;                      // the last answer's text, as the model wrote it
  int calls = 0;                        // calls made or replayed, repairs included
  int64_t tokens = 0;
  double cost_usd = 0;
  int next_seq = 0;  // the seq a further call of this site should use
};

/// The JSON object in a model's answer: the whole text, else the body of a ```json fence, else the span from
/// the first `{` to the last `}`. nullopt with `error` set when none of them parses to an object.
std::optional<nlohmann::json> extract_json_object(const std::string& text, std::string* error);

/// What else is wrong with an answer the schema accepts (an index out of range, a repeated one); nullopt when
/// nothing is.
using AnswerCheck = std::function<std::optional<std::string>(const nlohmann::json&)>;

/// Asks `messages` (system and user turns) for one JSON object valid against `schema` (llm/schema_check.h)
/// and `check` (when given), starting at call `first_seq` of `site`. An answer that is not such an object is
/// sent back, with what is wrong, up to `repairs` times. A refusal or a failed call ends it at once
/// (repeating the words would not help).
JsonReply ask_json(ModelLedger& ledger, const CallSite& site, std::vector<llm::Message> messages,
                   const nlohmann::json& schema, int repairs, int first_seq = 0,
                   const AnswerCheck& check = {});

}  // namespace ucut::engine
