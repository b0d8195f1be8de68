// llm/client.h — the chat-completions client: one call = complete(request), with retries per llm/retry.h,
// streaming or not, the key sent as a bearer token and redacted from everything that comes back, and a record
// of the call (attempts, statuses, tokens, cost, time).
//
//   llm::Client client(config);                 // throws llm::SetupError for an unusable key file
//   llm::CallResult r = client.complete(req);   // never throws for a failed call
//   if (!r.ok()) print(r.error->message());     // kind, status, server message, URL, model
//   else if (r.response->called_tools()) ...    // each ToolCall: raw arguments + parsed or arguments_error
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "llm/chat.h"
#include "llm/config.h"
#include "llm/credentials.h"
#include "llm/errors.h"
#include "llm/http.h"
#include "llm/retry.h"

namespace ucut::llm {

/// The client cannot be set up (an unusable key file). The message names the path and the fix, never the key.
struct SetupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What one complete() cost.
struct CallRecord {
  int attempts = 0;
  std::vector<int> http_statuses;  ///< one per attempt that got a status line
  std::vector<double> waits_s;     ///< the wait before each retry
  int64_t prompt_tokens = 0;       ///< as the server reported them for the answer
  int64_t completion_tokens = 0;
  double cost_usd = 0;  ///< tokens times the configured prices
  double wall_s = 0;    ///< the whole call, retries and waits included

  nlohmann::json to_json() const;
};

struct CallResult {
  std::optional<ChatResponse> response;  ///< set on success
  std::optional<LlmError> error;         ///< set on failure
  CallRecord record;

  bool ok() const { return response.has_value(); }
};

/// A client of one OpenAI-compatible server. Use one Client from one thread at a time (complete() keeps no
/// state between calls, but RetryEnv's callables are the caller's); separate Clients may run in parallel
/// threads.
class Client {
 public:
  /// Looks the key up (llm/credentials.h) now, once. Throws SetupError if the configured key file is
  /// unusable.
  explicit Client(LlmConfig config, RetryEnv env = RetryEnv::real());

  /// Sends `request` (unset fields from the config), retrying per the policy. Never throws for a failed call:
  /// the result carries the error. Every string in the result has been through redact().
  CallResult complete(const ChatRequest& request);

  const LlmConfig& config() const { return config_; }
  /// The endpoint without credentials: base_url + "/chat/completions".
  std::string endpoint() const;
  /// Where the key came from ("environment variable UCUT_LLM_API_KEY"), "" when there is none.
  const std::string& key_origin() const { return key_origin_; }

 private:
  struct Attempt {
    std::optional<ChatResponse> response;
    std::optional<LlmError> error;
    HttpHeaders headers;
    int status = 0;
  };

  Attempt attempt(const ChatRequest& request, const std::string& body, bool stream);
  LlmError scrub(LlmError e) const;
  ChatResponse scrub(ChatResponse r) const;

  LlmConfig config_;
  RetryEnv env_;
  std::optional<ApiKey> key_;
  std::string key_origin_;
};

}  // namespace ucut::llm
