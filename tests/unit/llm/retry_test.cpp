// tests/unit/llm/retry_test.cpp — the retry policy's arithmetic with an injected clock and random source.
#include "llm/retry.h"

#include <gtest/gtest.h>

namespace ucut::llm {
namespace {

using Clock = std::chrono::system_clock;

RetryEnv fixed_env(double random01) {
  RetryEnv env;
  // Wed, 21 Oct 2015 07:28:00 GMT
  env.now = [] { return Clock::from_time_t(1445412480); };
  env.sleep = [](double) { FAIL() << "decide_retry must not sleep"; };
  env.random01 = [random01] { return random01; };
  return env;
}

LlmError error_of(ErrorKind kind) {
  LlmError e;
  e.kind = kind;
  e.retryable = kind_retryable(kind);
  return e;
}

TEST(LlmRetry, BackoffDoublesFromHalfASecondCappedAtEightMinusJitter) {
  EXPECT_DOUBLE_EQ(backoff_seconds(0, 0), 0.5);
  EXPECT_DOUBLE_EQ(backoff_seconds(1, 0), 1.0);
  EXPECT_DOUBLE_EQ(backoff_seconds(3, 0), 4.0);
  EXPECT_DOUBLE_EQ(backoff_seconds(4, 0), 8.0);
  EXPECT_DOUBLE_EQ(backoff_seconds(10, 0), 8.0);
  EXPECT_DOUBLE_EQ(backoff_seconds(0, 1), 0.375);  // at most 25 % off
  EXPECT_DOUBLE_EQ(backoff_seconds(10, 0.5), 7.0);
  for (double r = 0; r < 1; r += 0.01) {
    EXPECT_LE(backoff_seconds(2, r), 2.0);
    EXPECT_GE(backoff_seconds(2, r), 1.5);
  }
}

TEST(LlmRetry, RetryAfterInSecondsMillisecondsAndHttpDate) {
  RetryEnv env = fixed_env(0);
  EXPECT_EQ(requested_retry_after({{"retry-after", "1"}}, env.now()), 1.0);
  EXPECT_EQ(requested_retry_after({{"retry-after", "2.5"}}, env.now()), 2.5);
  EXPECT_EQ(requested_retry_after({{"retry-after-ms", "250"}, {"retry-after", "9"}}, env.now()), 0.25);
  EXPECT_EQ(requested_retry_after({{"retry-after", "Wed, 21 Oct 2015 07:28:30 GMT"}}, env.now()), 30.0);
  EXPECT_FALSE(requested_retry_after({{"retry-after", "soon"}}, env.now()));
  EXPECT_FALSE(requested_retry_after({}, env.now()));
}

TEST(LlmRetry, HonoursRetryAfterUpTo120Seconds) {
  RetryEnv env = fixed_env(0.5);
  LlmError e = error_of(ErrorKind::kRateLimited);
  RetryDecision d = decide_retry(e, {{"retry-after", "1"}}, 0, 2, env);
  EXPECT_TRUE(d.retry);
  EXPECT_EQ(d.wait_s, 1.0);
  d = decide_retry(e, {{"retry-after", "120"}}, 0, 2, env);
  EXPECT_TRUE(d.retry);
  EXPECT_EQ(d.wait_s, 120.0);
  d = decide_retry(e, {{"retry-after", "121"}}, 0, 2, env);
  EXPECT_FALSE(d.retry);
  EXPECT_NE(d.why.find("121 s"), std::string::npos) << d.why;
  d = decide_retry(e, {{"retry-after", "Wed, 21 Oct 2015 08:28:00 GMT"}}, 0, 2, env);  // an hour: no
  EXPECT_FALSE(d.retry);
  // Zero or a date in the past: the backoff instead.
  d = decide_retry(e, {{"retry-after", "0"}}, 1, 2, env);
  EXPECT_TRUE(d.retry);
  EXPECT_DOUBLE_EQ(d.wait_s, 1.0 * 0.875);
  d = decide_retry(e, {{"retry-after", "Wed, 21 Oct 2015 07:00:00 GMT"}}, 0, 2, env);
  EXPECT_DOUBLE_EQ(d.wait_s, 0.5 * 0.875);
}

TEST(LlmRetry, KindsAndMaxRetries) {
  RetryEnv env = fixed_env(0);
  for (ErrorKind k : {ErrorKind::kRateLimited, ErrorKind::kServerError, ErrorKind::kTimeout,
                      ErrorKind::kConnection, ErrorKind::kTruncatedStream})
    EXPECT_TRUE(decide_retry(error_of(k), {}, 0, 2, env).retry) << error_kind_name(k);
  for (ErrorKind k : {ErrorKind::kQuotaExhausted, ErrorKind::kContextLength, ErrorKind::kBadRequest,
                      ErrorKind::kAuth, ErrorKind::kNotFound, ErrorKind::kMalformedResponse})
    EXPECT_FALSE(decide_retry(error_of(k), {}, 0, 2, env).retry) << error_kind_name(k);
  EXPECT_TRUE(decide_retry(error_of(ErrorKind::kServerError), {}, 1, 2, env).retry);
  RetryDecision d = decide_retry(error_of(ErrorKind::kServerError), {}, 2, 2, env);
  EXPECT_FALSE(d.retry);
  EXPECT_EQ(d.why, "gave up after 2 retries");
  EXPECT_FALSE(decide_retry(error_of(ErrorKind::kServerError), {}, 0, 0, env).retry);
}

TEST(LlmRetry, XShouldRetryOverrides) {
  RetryEnv env = fixed_env(0);
  RetryDecision d = decide_retry(error_of(ErrorKind::kServerError), {{"x-should-retry", "false"}}, 0, 2, env);
  EXPECT_FALSE(d.retry);
  EXPECT_NE(d.why.find("x-should-retry: false"), std::string::npos);
  EXPECT_TRUE(decide_retry(error_of(ErrorKind::kBadRequest), {{"x-should-retry", "true"}}, 0, 2, env).retry);
  EXPECT_FALSE(decide_retry(error_of(ErrorKind::kBadRequest), {{"x-should-retry", "true"}}, 2, 2, env).retry);
}

}  // namespace
}  // namespace ucut::llm
