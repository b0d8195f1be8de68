// llm/http.cpp — the libcurl POST.
#include "llm/http.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace ucut::llm {

namespace {

void global_init_once() {
  static std::once_flag once;
  static CURLcode code = CURLE_OK;
  std::call_once(once, [] { code = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (code != CURLE_OK)
    throw std::runtime_error(fmt::format("libcurl could not initialize: {}", curl_easy_strerror(code)));
}

struct CallState {
  CURL* handle;
  HttpResponse* response;
  const OnBody* on_body;
  bool aborted = false;
};

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* st = static_cast<CallState*>(user);
  // The write callback needs the status before the first byte of the body: take it with every header.
  long code = 0;
  curl_easy_getinfo(st->handle, CURLINFO_RESPONSE_CODE, &code);
  st->response->status = static_cast<int>(code);
  std::string_view line(data, size * n);
  if (line.rfind("HTTP/", 0) == 0) {  // a new status line (after a 100 Continue or a redirect): start over
    st->response->headers.clear();
    return size * n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * n;
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  st->response->headers[name] = std::string(value);
  return size * n;
}

size_t on_write(char* data, size_t size, size_t n, void* user) {
  auto* st = static_cast<CallState*>(user);
  // The status is known by now (on_header has seen it); a 2xx body streams, any other is kept.
  std::string_view piece(data, size * n);
  if (st->response->status >= 200 && st->response->status < 300 && st->on_body && *st->on_body) {
    if (!(*st->on_body)(piece)) {
      st->aborted = true;
      return 0;  // libcurl stops with CURLE_WRITE_ERROR
    }
  } else {
    st->response->body.append(piece);
  }
  return size * n;
}

struct EasyDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

HttpResponse http_post(const HttpRequest& req, const OnBody& on_body) {
  global_init_once();
  HttpResponse resp;
  std::unique_ptr<CURL, EasyDeleter> curl(curl_easy_init());
  if (!curl) {
    resp.failure = HttpFailure::kConnection;
    resp.failure_message = "libcurl could not create a handle";
    return resp;
  }
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const std::string& h : req.headers) {
    curl_slist* next = curl_slist_append(headers.get(), h.c_str());
    if (!next) throw std::bad_alloc();
    (void)headers.release();
    headers.reset(next);
  }
  CURL* c = curl.get();
  CallState st{c, &resp, &on_body};
  char errbuf[CURL_ERROR_SIZE] = {0};
  auto timeout_ms = static_cast<long>(std::max(1.0, req.timeout_s * 1000.0));
  curl_easy_setopt(c, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, std::min(timeout_ms, 30000L));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM: safe with threads
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &st);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_write);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &st);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);   // never resend the Authorization header elsewhere

  CURLcode rc = curl_easy_perform(c);
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  resp.status = static_cast<int>(code);
  if (rc == CURLE_OK) return resp;

  resp.failure_message = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(rc));
  while (!resp.failure_message.empty() && resp.failure_message.back() == '\n')
    resp.failure_message.pop_back();
  if (st.aborted)
    resp.failure = HttpFailure::kAborted;
  else if (rc == CURLE_OPERATION_TIMEDOUT)
    resp.failure = HttpFailure::kTimeout;
  else if (resp.status != 0 && (rc == CURLE_PARTIAL_FILE || rc == CURLE_RECV_ERROR ||
                                rc == CURLE_GOT_NOTHING || rc == CURLE_HTTP2_STREAM || rc == CURLE_HTTP2))
    resp.failure = HttpFailure::kBrokenBody;
  else
    resp.failure = HttpFailure::kConnection;
  return resp;
}

}  // namespace ucut::llm
