// llm/errors.h — what can go wrong in a chat-completions call, as data: the kind, the HTTP status, the
// server's own message, whether a retry may help. Classifies error answers of the three server dialects
// (OpenAI, vLLM, llama-server; shared/facts/agents.md §2).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace ucut::llm {

enum class ErrorKind {
  kRateLimited,        ///< 429 rate_limit_exceeded (retryable)
  kQuotaExhausted,     ///< 429 insufficient_quota: billing, not load (not retryable)
  kContextLength,      ///< the prompt does not fit the model's context (not retryable)
  kServerError,        ///< 5xx, 408, 409, or an error event inside a stream (retryable)
  kTimeout,            ///< the per-call timeout passed (retryable)
  kConnection,         ///< no connection, or it broke before an answer (retryable)
  kBadRequest,         ///< 400/422 and other 4xx (not retryable)
  kAuth,               ///< 401/403 (not retryable)
  kNotFound,           ///< 404: wrong base_url or model (not retryable)
  kTruncatedStream,    ///< the stream ended without `data: [DONE]` (retryable)
  kMalformedResponse,  ///< the answer is not a chat completion (not retryable)
  kConfig,             ///< our side: no usable key file, a bad URL (not retryable)
};

/// "rate_limited", "quota_exhausted", ...
std::string_view error_kind_name(ErrorKind kind);

struct LlmError {
  ErrorKind kind = ErrorKind::kServerError;
  int http_status = 0;         ///< 0 when no HTTP answer came
  std::string server_message;  ///< error.message as the server sent it (redacted by the client)
  std::string server_type;     ///< error.type, if any
  std::string server_code;     ///< error.code as text (vLLM sends the status as an int), if any
  bool retryable = false;
  std::optional<double>
      retry_after_s;  ///< what the server asked for (Retry-After / retry-after-ms), if it did
  std::string url;    ///< where, without credentials or query
  std::string model;
  std::string detail;  ///< our own account (a transport error, the retry verdict)
  int attempts = 0;    ///< calls made in all

  /// One line naming what went wrong and where: "LLM call to URL (model M) failed after 3 attempts:
  /// rate_limited (HTTP 429): <server message>; <detail>".
  std::string message() const;
  nlohmann::json to_json() const;
};

/// Whether this kind is worth retrying by default (x-should-retry may override).
bool kind_retryable(ErrorKind kind);

/// Classifies an HTTP answer with status >= 400 and its body (any text; JSON `{"error":{...}}` when the
/// server speaks the API).
LlmError classify_http_error(int status, std::string_view body);

/// Classifies an `error` object: the value of an error body's "error" key, or of an error event inside a
/// stream (then `status` is the stream's 200 and the kind comes from the object alone).
LlmError classify_error_object(int status, const nlohmann::json& error);

/// `url` without user:password@ and without its query and fragment.
std::string url_for_display(std::string_view url);

}  // namespace ucut::llm
