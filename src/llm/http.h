// llm/http.h — one HTTP POST through libcurl: JSON body out, the status, the headers and the body in, the
// body of a 2xx answer handed over as it arrives (for streaming); a per-call timeout. Nothing here knows the
// API.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ucut::llm {

/// Response headers, names lower-cased; a repeated header keeps its last value.
using HttpHeaders = std::map<std::string, std::string>;

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  ///< "Name: value" lines
  std::string body;
  double timeout_s = 600;  ///< the whole call, connection to last byte
};

/// Why no complete answer came (the HTTP status, if one came, says nothing about this).
enum class HttpFailure { kNone, kTimeout, kConnection, kBrokenBody, kAborted };

struct HttpResponse {
  int status = 0;  ///< 0 when no status line arrived
  HttpHeaders headers;
  std::string body;  ///< the body, unless a 2xx body went to `on_body`
  HttpFailure failure = HttpFailure::kNone;
  std::string failure_message;  ///< libcurl's words, when failure != kNone
};

/// Called with each piece of a 2xx body as it arrives; return false to stop reading (failure kAborted).
using OnBody = std::function<bool(std::string_view piece)>;

/// POSTs `req`. A 2xx body goes to `on_body` when one is given, every other body into the response.
/// Thread-safe (one easy handle per call; libcurl's global init runs once).
HttpResponse http_post(const HttpRequest& req, const OnBody& on_body = nullptr);

}  // namespace ucut::llm
