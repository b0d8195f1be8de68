// llm/client.cpp — complete(): build the body, post it, read the answer (JSON or SSE), classify, retry,
// record.
#include "llm/client.h"

#include <fmt/format.h>

#include <chrono>

#include "llm/sse.h"

namespace ucut::llm {

using nlohmann::json;

json CallRecord::to_json() const {
  return {{"attempts", attempts},
          {"http_statuses", http_statuses},
          {"waits_s", waits_s},
          {"prompt_tokens", prompt_tokens},
          {"completion_tokens", completion_tokens},
          {"cost_usd", cost_usd},
          {"wall_s", wall_s}};
}

Client::Client(LlmConfig config, RetryEnv env) : config_(std::move(config)), env_(std::move(env)) {
  RetryEnv real = RetryEnv::real();
  if (!env_.now) env_.now = real.now;
  if (!env_.sleep) env_.sleep = real.sleep;
  if (!env_.random01) env_.random01 = real.random01;
  KeyLookup k = load_api_key({config_.api_key_env, config_.api_key_file});
  if (!k.error.empty()) throw SetupError(k.error);
  key_ = std::move(k.key);
  if (key_) key_origin_ = k.origin;
}

std::string Client::endpoint() const {
  std::string base = config_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return url_for_display(base + "/chat/completions");
}

namespace {

/// Only the exact secret: model text may mention "Bearer" legitimately.
std::string strip_secret(std::string s, const std::optional<ApiKey>& key) {
  if (!key || key->reveal().empty() || s.find(key->reveal()) == std::string::npos) return s;
  return redact(s, key->reveal());
}

LlmError transport_error(ErrorKind kind, std::string detail) {
  LlmError e;
  e.kind = kind;
  e.retryable = kind_retryable(kind);
  e.detail = std::move(detail);
  return e;
}

}  // namespace

LlmError Client::scrub(LlmError e) const {
  std::string_view secret = key_ ? std::string_view(key_->reveal()) : std::string_view();
  e.server_message = redact(e.server_message, secret);
  e.server_type = redact(e.server_type, secret);
  e.server_code = redact(e.server_code, secret);
  e.detail = redact(e.detail, secret);
  e.url = redact(e.url, secret);
  e.model = redact(e.model, secret);
  return e;
}

ChatResponse Client::scrub(ChatResponse r) const {
  if (!key_) return r;
  if (r.message.content) r.message.content = strip_secret(*r.message.content, key_);
  if (r.refusal) r.refusal = strip_secret(*r.refusal, key_);
  for (ToolCall& c : r.message.tool_calls) {
    std::string args = strip_secret(c.arguments, key_);
    c.id = strip_secret(c.id, key_);
    c.name = strip_secret(c.name, key_);
    if (args != c.arguments) {
      c.arguments = std::move(args);
      c.parse_arguments();
    }
  }
  r.id = strip_secret(r.id, key_);
  r.model = strip_secret(r.model, key_);
  return r;
}

Client::Attempt Client::attempt(const ChatRequest& request, const std::string& body, bool stream) {
  HttpRequest req;
  std::string base = config_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  req.url = base + "/chat/completions";
  req.body = body;
  req.timeout_s = config_.timeout_s;
  req.headers = {"Content-Type: application/json",
                 stream ? "Accept: text/event-stream" : "Accept: application/json",
                 "Expect:"};  // no 100-continue round trip
  if (key_) req.headers.push_back("Authorization: Bearer " + key_->reveal());

  SseParser parser;
  StreamAccumulator acc;
  auto on_event = [&](const std::string& data) { acc.add(data); };
  OnBody on_body;
  if (stream)
    on_body = [&](std::string_view piece) {
      parser.feed(piece, on_event);
      return !acc.error() && !acc.done();  // stop reading at [DONE] or at an error event
    };
  HttpResponse resp = http_post(req, on_body);

  Attempt a;
  a.status = resp.status;
  a.headers = resp.headers;
  auto fail = [&](LlmError e) {
    e.http_status = e.http_status ? e.http_status : resp.status;
    if (auto ra = requested_retry_after(resp.headers, env_.now())) e.retry_after_s = ra;
    a.error = std::move(e);
    return a;
  };
  std::string timeout_words =
      fmt::format("no complete answer within the per-call timeout of {:g} s (timeout_s)", config_.timeout_s);

  if (resp.status == 0) {
    if (resp.failure == HttpFailure::kTimeout)
      return fail(transport_error(ErrorKind::kTimeout, timeout_words));
    return fail(transport_error(ErrorKind::kConnection, "no answer: " + resp.failure_message));
  }
  if (resp.status >= 400) {
    LlmError e = classify_http_error(resp.status, resp.body);
    if (resp.failure == HttpFailure::kTimeout) e.detail = "the error body did not finish: " + timeout_words;
    return fail(std::move(e));
  }
  if (resp.status < 200 || resp.status >= 300) {
    LlmError e = transport_error(ErrorKind::kMalformedResponse,
                                 fmt::format("unexpected HTTP status {} for a chat completion", resp.status));
    return fail(std::move(e));
  }
  if (stream) {
    // A last `data: [DONE]` without its blank line still counts; any other unfinished event is discarded, as
    // the SSE spec says (a half-sent chunk is a truncated stream, not a malformed one).
    if (!acc.error() && !acc.done() && resp.failure == HttpFailure::kNone)
      parser.finish([&](const std::string& data) {
        if (data == "[DONE]") acc.add(data);
      });
    if (acc.error()) return fail(*acc.error());
    if (!acc.done()) {
      if (resp.failure == HttpFailure::kTimeout)
        return fail(transport_error(ErrorKind::kTimeout,
                                    "the stream stopped short of `data: [DONE]`: " + timeout_words));
      std::string why = resp.failure == HttpFailure::kNone
                            ? "the server closed the stream"
                            : "the stream broke (" + resp.failure_message + ")";
      return fail(transport_error(ErrorKind::kTruncatedStream, why + " before `data: [DONE]`"));
    }
    a.response = acc.response();
    return a;
  }
  if (resp.failure == HttpFailure::kTimeout) return fail(transport_error(ErrorKind::kTimeout, timeout_words));
  if (resp.failure != HttpFailure::kNone)
    return fail(transport_error(ErrorKind::kConnection, "the answer broke off: " + resp.failure_message));
  json j = json::parse(resp.body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return fail(transport_error(ErrorKind::kMalformedResponse,
                                fmt::format("the body is not JSON: {}", resp.body.substr(0, 200))));
  }
  if (j.is_object() && j.contains("error") && !j["error"].is_null())
    return fail(classify_error_object(resp.status, j["error"]));
  std::string why;
  std::optional<ChatResponse> r = parse_chat_response(j, &why);
  if (!r) return fail(transport_error(ErrorKind::kMalformedResponse, why));
  a.response = std::move(r);
  return a;
}

CallResult Client::complete(const ChatRequest& request) {
  auto start = std::chrono::steady_clock::now();
  CallResult result;
  ChatRequest req = request;
  if (req.model.empty()) req.model = config_.model;
  if (!req.temperature) req.temperature = config_.temperature;
  if (!req.max_tokens) req.max_tokens = config_.max_tokens;
  if (!req.stream) req.stream = config_.stream;
  auto finish = [&] {
    result.record.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };

  if (req.model.empty()) {
    LlmError e =
        transport_error(ErrorKind::kConfig, "no model: set `model` in the [llm] table or in the request");
    e.url = endpoint();
    result.error = scrub(std::move(e));
    return finish();
  }
  if (req.messages.empty()) {
    LlmError e = transport_error(ErrorKind::kConfig, "the request has no messages");
    e.url = endpoint();
    e.model = req.model;
    result.error = scrub(std::move(e));
    return finish();
  }
  const std::string body = request_to_json(req).dump();
  const bool stream = req.stream.value_or(false);

  for (int retries = 0;; ++retries) {
    ++result.record.attempts;
    Attempt a = attempt(req, body, stream);
    if (a.status) result.record.http_statuses.push_back(a.status);
    if (a.response) {
      ChatResponse r = scrub(std::move(*a.response));
      result.record.prompt_tokens = r.usage.prompt_tokens;
      result.record.completion_tokens = r.usage.completion_tokens;
      result.record.cost_usd =
          (static_cast<double>(r.usage.prompt_tokens) * config_.usd_per_mtok_input +
           static_cast<double>(r.usage.completion_tokens) * config_.usd_per_mtok_output) /
          1e6;
      result.response = std::move(r);
      return finish();
    }
    LlmError e = std::move(*a.error);
    RetryDecision d = decide_retry(e, a.headers, retries, config_.max_retries, env_);
    if (d.retry) {
      result.record.waits_s.push_back(d.wait_s);
      env_.sleep(d.wait_s);
      continue;
    }
    e.url = endpoint();
    e.model = req.model;
    e.attempts = result.record.attempts;
    if (e.retryable || result.record.attempts > 1 || !d.why.empty())
      e.detail = e.detail.empty() ? d.why : e.detail + "; " + d.why;
    result.error = scrub(std::move(e));
    return finish();
  }
}

}  // namespace ucut::llm
