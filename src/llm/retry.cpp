// llm/retry.cpp — the retry policy.
#include "llm/retry.h"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <mutex>
#include <random>
#include <thread>

namespace ucut::llm {

RetryEnv RetryEnv::real() {
  RetryEnv env;
  env.now = [] { return std::chrono::system_clock::now(); };
  env.sleep = [](double s) {
    if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
  };
  auto rng = std::make_shared<std::mt19937_64>(std::random_device{}());
  auto mu = std::make_shared<std::mutex>();
  env.random01 = [rng, mu] {
    std::lock_guard<std::mutex> lock(*mu);
    return std::uniform_real_distribution<double>(0.0, 1.0)(*rng);
  };
  return env;
}

namespace {

std::optional<double> parse_number(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

/// An IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT"), as seconds since the epoch.
std::optional<std::chrono::system_clock::time_point> parse_http_date(const std::string& s) {
  struct tm tm = {};
  const char* end = strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (!end || *end != '\0') return std::nullopt;
  time_t t = timegm(&tm);
  if (t == static_cast<time_t>(-1)) return std::nullopt;
  return std::chrono::system_clock::from_time_t(t);
}

}  // namespace

std::optional<double> requested_retry_after(const HttpHeaders& headers,
                                            std::chrono::system_clock::time_point now) {
  if (auto it = headers.find("retry-after-ms"); it != headers.end())
    if (auto ms = parse_number(it->second)) return *ms / 1000.0;
  auto it = headers.find("retry-after");
  if (it == headers.end()) return std::nullopt;
  if (auto s = parse_number(it->second)) return *s;
  if (auto when = parse_http_date(it->second)) return std::chrono::duration<double>(*when - now).count();
  return std::nullopt;
}

double backoff_seconds(int retries_done, double random01) {
  double base = std::min(kInitialBackoffS * std::pow(2.0, std::max(0, retries_done)), kMaxBackoffS);
  return base * (1.0 - 0.25 * std::clamp(random01, 0.0, 1.0));
}

RetryDecision decide_retry(const LlmError& error, const HttpHeaders& headers, int retries_done,
                           int max_retries, const RetryEnv& env) {
  RetryDecision d;
  if (retries_done >= max_retries) {
    d.why = max_retries == 0
                ? "retries are off (max_retries = 0)"
                : fmt::format("gave up after {} retr{}", retries_done, retries_done == 1 ? "y" : "ies");
    return d;
  }
  bool retry = error.retryable;
  std::string because;
  if (auto it = headers.find("x-should-retry"); it != headers.end()) {
    if (it->second == "true")
      retry = true, because = "the server sent x-should-retry: true";
    else if (it->second == "false")
      retry = false, because = "the server sent x-should-retry: false";
  }
  if (!retry) {
    d.why = because.empty() ? fmt::format("{} is not retryable", error_kind_name(error.kind)) : because;
    return d;
  }
  std::optional<double> asked =
      requested_retry_after(headers, env.now ? env.now() : std::chrono::system_clock::now());
  if (asked && *asked > kMaxRetryAfterS) {
    d.why = fmt::format(
        "the server asked to wait {:.0f} s before retrying (Retry-After), more than the {:.0f} s this "
        "client waits; not retried",
        *asked, kMaxRetryAfterS);
    return d;
  }
  d.retry = true;
  d.wait_s =
      asked && *asked > 0 ? *asked : backoff_seconds(retries_done, env.random01 ? env.random01() : 0.0);
  return d;
}

}  // namespace ucut::llm
