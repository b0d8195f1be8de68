// llm/retry.h — when to call again, as the official OpenAI client does (shared/facts/agents.md §2): retry
// connection errors, timeouts, 408, 409, 429 and >= 500; `x-should-retry: true|false` overrides; wait what
// retry-after-ms or Retry-After (seconds or an HTTP date) asks if 0 < wait <= 120 s, else 0.5 s * 2^n capped
// at 8 s minus up to 25 % jitter. A Retry-After over 120 s means no retry. The clock, the sleep and the
// random source are injectable so tests never sleep.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "llm/errors.h"
#include "llm/http.h"

namespace ucut::llm {

/// Time and chance, replaceable in tests.
struct RetryEnv {
  std::function<std::chrono::system_clock::time_point()> now;  ///< for Retry-After HTTP dates
  std::function<void(double seconds)> sleep;
  std::function<double()> random01;  ///< uniform in [0, 1)

  /// The real clock, std::this_thread::sleep_for, and a seeded std::mt19937_64.
  static RetryEnv real();
};

inline constexpr double kMaxRetryAfterS = 120;
inline constexpr double kInitialBackoffS = 0.5;
inline constexpr double kMaxBackoffS = 8;

/// What the server asked for: retry-after-ms, else Retry-After as seconds or an HTTP date (relative to
/// `now`). nullopt when neither is present or readable.
std::optional<double> requested_retry_after(const HttpHeaders& headers,
                                            std::chrono::system_clock::time_point now);

/// 0.5 s * 2^retries_done, capped at 8 s, times (1 - 0.25 * random01).
double backoff_seconds(int retries_done, double random01);

struct RetryDecision {
  bool retry = false;
  double wait_s = 0;
  std::string why;  ///< the verdict in words, for the error when there is no retry
};

/// Decides on `error` after `retries_done` retries (0 after the first attempt). `headers` are the failed
/// answer's (empty without one).
RetryDecision decide_retry(const LlmError& error, const HttpHeaders& headers, int retries_done,
                           int max_retries, const RetryEnv& env);

}  // namespace ucut::llm
