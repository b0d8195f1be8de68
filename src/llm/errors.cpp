// llm/errors.cpp — error kinds and their classification across the OpenAI, vLLM and llama-server dialects.
#include "llm/errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace ucut::llm {

using nlohmann::json;

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kRateLimited:
      return "rate_limited";
    case ErrorKind::kQuotaExhausted:
      return "quota_exhausted";
    case ErrorKind::kContextLength:
      return "context_length";
    case ErrorKind::kServerError:
      return "server_error";
    case ErrorKind::kTimeout:
      return "timeout";
    case ErrorKind::kConnection:
      return "connection";
    case ErrorKind::kBadRequest:
      return "bad_request";
    case ErrorKind::kAuth:
      return "auth";
    case ErrorKind::kNotFound:
      return "not_found";
    case ErrorKind::kTruncatedStream:
      return "truncated_stream";
    case ErrorKind::kMalformedResponse:
      return "malformed_response";
    case ErrorKind::kConfig:
      return "config";
  }
  return "unknown";
}

bool kind_retryable(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kRateLimited:
    case ErrorKind::kServerError:
    case ErrorKind::kTimeout:
    case ErrorKind::kConnection:
    case ErrorKind::kTruncatedStream:
      return true;
    default:
      return false;
  }
}

std::string LlmError::message() const {
  std::string s = fmt::format("LLM call to {}", url.empty() ? "(no URL)" : url);
  if (!model.empty()) s += fmt::format(" (model {})", model);
  s += " failed";
  if (attempts > 1) s += fmt::format(" after {} attempts", attempts);
  s += fmt::format(": {}", error_kind_name(kind));
  if (http_status) s += fmt::format(" (HTTP {})", http_status);
  if (!server_message.empty()) s += ": " + server_message;
  if (!detail.empty()) s += "; " + detail;
  return s;
}

json LlmError::to_json() const {
  json j = {{"kind", error_kind_name(kind)},
            {"http_status", http_status},
            {"message", message()},
            {"server_message", server_message},
            {"retryable", retryable},
            {"url", url},
            {"model", model},
            {"attempts", attempts}};
  if (!server_type.empty()) j["server_type"] = server_type;
  if (!server_code.empty()) j["server_code"] = server_code;
  if (retry_after_s) j["retry_after_s"] = *retry_after_s;
  return j;
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

ErrorKind kind_of_status(int status) {
  if (status == 429) return ErrorKind::kRateLimited;
  if (status == 401 || status == 403) return ErrorKind::kAuth;
  if (status == 404) return ErrorKind::kNotFound;
  if (status == 408 || status == 409 || status >= 500) return ErrorKind::kServerError;
  if (status >= 400) return ErrorKind::kBadRequest;
  return ErrorKind::kServerError;  // an error object inside a 200 stream: the server failed mid-answer
}

bool says_context_overflow(std::string_view message) {
  std::string m = lower(message);
  return m.find("maximum context length") != std::string::npos ||
         m.find("context length") != std::string::npos || m.find("context window") != std::string::npos ||
         m.find("exceeds the available context") != std::string::npos;
}

}  // namespace

LlmError classify_error_object(int status, const json& error) {
  LlmError e;
  e.http_status = status;
  if (error.is_object()) {
    if (auto m = error.find("message"); m != error.end())
      e.server_message = m->is_string() ? m->get<std::string>() : m->dump();
    if (auto t = error.find("type"); t != error.end() && t->is_string()) e.server_type = *t;
    if (auto c = error.find("code"); c != error.end() && !c->is_null())
      e.server_code = c->is_string() ? c->get<std::string>() : c->dump();
  } else if (error.is_string()) {
    e.server_message = error.get<std::string>();
  } else if (!error.is_null()) {
    e.server_message = error.dump();
  }
  int effective = status;
  // vLLM puts the status in `code` as an int; inside a 200 stream it is the real one.
  if (status < 400 && error.is_object())
    if (auto c = error.find("code"); c != error.end() && c->is_number_integer() && *c >= 400 && *c < 600)
      effective = *c;

  e.kind = kind_of_status(effective);
  const std::string code = lower(e.server_code), type = lower(e.server_type);
  if (code == "context_length_exceeded" || type == "exceed_context_size_error" ||
      ((effective == 400 || effective == 413 || type == "badrequesterror" ||
        type == "invalid_request_error") &&
       says_context_overflow(e.server_message)))
    e.kind = ErrorKind::kContextLength;
  else if (code == "insufficient_quota" || type == "insufficient_quota")
    e.kind = ErrorKind::kQuotaExhausted;
  else if (code == "rate_limit_exceeded")
    e.kind = ErrorKind::kRateLimited;
  else if (type == "authentication_error" || type == "permission_error" || code == "invalid_api_key")
    e.kind = ErrorKind::kAuth;
  else if (type == "not_found_error" || code == "model_not_found")
    e.kind = ErrorKind::kNotFound;
  else if (type == "unavailable_error" || type == "server_error")
    e.kind = effective >= 400 && effective < 500 && effective != 408 && effective != 409 && effective != 429
                 ? kind_of_status(effective)
                 : ErrorKind::kServerError;
  e.retryable = kind_retryable(e.kind);
  return e;
}

LlmError classify_http_error(int status, std::string_view body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded() && j.is_object()) {
    if (auto err = j.find("error"); err != j.end()) return classify_error_object(status, *err);
    // Some proxies answer {"message": ..., "detail": ...} without the envelope.
    if (j.contains("message") || j.contains("detail")) {
      json obj = {{"message", j.contains("message") ? j["message"] : j["detail"]}};
      return classify_error_object(status, obj);
    }
  }
  LlmError e = classify_error_object(status, json(nullptr));
  std::string text(body.substr(0, 500));
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  e.server_message = text.empty() ? "" : "(not an API error body) " + text + (body.size() > 500 ? "..." : "");
  return e;
}

std::string url_for_display(std::string_view url) {
  std::string s(url.substr(0, url.find_first_of("?#")));
  size_t scheme = s.find("://");
  size_t host = scheme == std::string::npos ? 0 : scheme + 3;
  size_t path = s.find('/', host);
  size_t at = s.rfind('@', path == std::string::npos ? std::string::npos : path);
  if (at != std::string::npos && at >= host) s.erase(host, at + 1 - host);
  return s;
}

}  // namespace ucut::llm
