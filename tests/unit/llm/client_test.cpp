// tests/unit/llm/client_test.cpp — the client against a loopback fake server (fake_openai_server.py), started
// and killed by each test: completions, tool calls, refusals, retries, timeouts, truncated streams,
// context-length errors in three dialects, streaming, records, and a planted key that must never come back.
#include "llm/client.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <random>
#include <sstream>

#include "../temp_dir.h"
#include "fake_server.h"

namespace ucut::llm {
namespace {

using nlohmann::json;

class LlmClient : public ::testing::Test {
 protected:
  void TearDown() override { stop(); }

  /// Starts the server on `script` and points the config at it.
  void serve(const json& script) {
    ASSERT_NO_THROW(server_.start(script));
    port_ = server_.port();
    config_.base_url = server_.base_url();
    config_.model = "test-model";
    config_.timeout_s = 10;
  }

  void stop() { server_.stop(); }

  /// A client whose sleeps are recorded, not slept.
  Client client() {
    RetryEnv env = RetryEnv::real();
    env.sleep = [this](double s) { sleeps_.push_back(s); };
    env.random01 = [] { return 0.0; };
    return Client(config_, env);
  }

  std::vector<json> requests() { return server_.requests(); }

  static ChatRequest hello() {
    ChatRequest r;
    r.messages = {Message::system("be brief"), Message::user("hi")};
    return r;
  }

  static json completion(json message, std::string finish = "stop") {
    message["role"] = "assistant";
    if (!message.contains("content")) message["content"] = nullptr;
    return {{"id", "chatcmpl-1"},
            {"object", "chat.completion"},
            {"model", "test-model"},
            {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish}}}},
            {"usage", {{"prompt_tokens", 1000}, {"completion_tokens", 500}, {"total_tokens", 1500}}}};
  }
  static json tool_message(std::string name, std::string args) {
    return {
        {"tool_calls",
         {{{"id", "call_1"}, {"type", "function"}, {"function", {{"name", name}, {"arguments", args}}}}}}};
  }
  static json error_body(std::string message, json type, json code) {
    return {{"error", {{"message", message}, {"type", type}, {"param", nullptr}, {"code", code}}}};
  }

  ucut::testing::TempDir dir_{"ucut-llm"};
  ucut::testing::FakeOpenAiServer server_;
  int port_ = 0;
  LlmConfig config_;
  std::vector<double> sleeps_;
};

TEST_F(LlmClient, PlainCompletionWithTokensAndCost) {
  serve(json::array({{{"status", 200}, {"json", completion({{"content", "Hello!"}})}}}));
  config_.usd_per_mtok_input = 2;
  config_.usd_per_mtok_output = 10;
  config_.temperature = 0.5;
  CallResult r = client().complete(hello());
  ASSERT_TRUE(r.ok()) << r.error->message();
  EXPECT_EQ(r.response->message.content.value_or(""), "Hello!");
  EXPECT_FALSE(r.response->called_tools());
  EXPECT_EQ(r.record.attempts, 1);
  EXPECT_EQ(r.record.http_statuses, std::vector<int>{200});
  EXPECT_EQ(r.record.prompt_tokens, 1000);
  EXPECT_EQ(r.record.completion_tokens, 500);
  EXPECT_DOUBLE_EQ(r.record.cost_usd, (1000 * 2.0 + 500 * 10.0) / 1e6);
  EXPECT_GT(r.record.wall_s, 0);
  auto reqs = requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0]["path"], "/v1/chat/completions");
  json body = json::parse(reqs[0]["body"].get<std::string>());
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["temperature"], 0.5);
  EXPECT_EQ(body["messages"][1]["content"], "hi");
}

TEST_F(LlmClient, ToolCallWithArgumentsThatParse) {
  serve(json::array({{{"json", completion(tool_message("compile", R"({"spec":"k.ucut"})"), "tool_calls")}}}));
  CallResult r = client().complete(hello());
  ASSERT_TRUE(r.ok()) << r.error->message();
  ASSERT_TRUE(r.response->called_tools());
  const ToolCall& c = r.response->message.tool_calls[0];
  EXPECT_EQ(c.id, "call_1");
  EXPECT_EQ(c.name, "compile");
  ASSERT_TRUE(c.arguments_ok()) << c.arguments_error;
  EXPECT_EQ((*c.parsed_arguments)["spec"], "k.ucut");
}

TEST_F(LlmClient, MalformedToolArgumentsAndUnknownToolNamesAreReturnedNotThrown) {
  // finish_reason "stop" with tool calls: the calls count (named tool_choice answers this way).
  serve(json::array({{{"json", completion(tool_message("no_such_tool", R"({"spec": "k.ucut",)"), "stop")}}}));
  CallResult r = client().complete(hello());
  ASSERT_TRUE(r.ok()) << r.error->message();
  ASSERT_TRUE(r.response->called_tools());
  const ToolCall& c = r.response->message.tool_calls[0];
  EXPECT_EQ(c.name, "no_such_tool");
  EXPECT_EQ(c.arguments, R"({"spec": "k.ucut",)");
  EXPECT_FALSE(c.arguments_ok());
  EXPECT_NE(c.arguments_error.find("not valid JSON"), std::string::npos);
}

TEST_F(LlmClient, RefusalIsVisible) {
  serve(json::array({{{"json", completion({{"refusal", "I can't help with that."}})}},
                     {{"json", completion({{"content", ""}}, "content_filter")}}}));
  Client c = client();
  CallResult r = c.complete(hello());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.response->refusal.value_or(""), "I can't help with that.");
  r = c.complete(hello());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.response->refusal.has_value());
}

TEST_F(LlmClient, RateLimitedWithRetryAfterIsRetriedAfterTheWaitAsked) {
  serve(json::array({{{"status", 429},
                      {"headers", {{"Retry-After", "1"}}},
                      {"json", error_body("Rate limit reached", "requests", "rate_limit_exceeded")}},
                     {{"json", completion({{"content", "ok"}})}}}));
  CallResult r = client().complete(hello());
  ASSERT_TRUE(r.ok()) << r.error->message();
  EXPECT_EQ(sleeps_, std::vector<double>{1.0});
  EXPECT_EQ(r.record.attempts, 2);
  EXPECT_EQ(r.record.http_statuses, (std::vector<int>{429, 200}));
  EXPECT_EQ(requests().size(), 2u);
}

TEST_F(LlmClient, InsufficientQuotaIsNotRetried) {
  serve(json::array(
      {{{"status", 429},
        {"json", error_body("You exceeded your current quota", "insufficient_quota", "insufficient_quota")}},
       {{"json", completion({{"content", "never"}})}}}));
  CallResult r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, ErrorKind::kQuotaExhausted);
  EXPECT_EQ(r.error->http_status, 429);
  EXPECT_EQ(r.record.attempts, 1);
  EXPECT_TRUE(sleeps_.empty());
  std::string m = r.error->message();
  EXPECT_NE(m.find("quota_exhausted (HTTP 429): You exceeded your current quota"), std::string::npos) << m;
  EXPECT_NE(m.find("127.0.0.1:" + std::to_string(port_) + "/v1/chat/completions"), std::string::npos) << m;
  EXPECT_NE(m.find("(model test-model)"), std::string::npos) << m;
}

TEST_F(LlmClient, ServiceUnavailableThenSuccessBacksOff) {
  serve(json::array({{{"status", 503}, {"json", error_body("Loading model", "unavailable_error", 503)}},
                     {{"json", completion({{"content", "ok"}})}}}));
  CallResult r = client().complete(hello());
  ASSERT_TRUE(r.ok()) << r.error->message();
  EXPECT_EQ(sleeps_, std::vector<double>{0.5});
  EXPECT_EQ(r.record.http_statuses, (std::vector<int>{503, 200}));
}

TEST_F(LlmClient, PersistentServerErrorGivesUpAfterMaxRetries) {
  serve(json::array({{{"status", 500}, {"json", error_body("boom", "server_error", nullptr)}}}));
  CallResult r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, ErrorKind::kServerError);
  EXPECT_EQ(r.record.attempts, 3);
  EXPECT_EQ(sleeps_, (std::vector<double>{0.5, 1.0}));
  EXPECT_NE(r.error->message().find("after 3 attempts"), std::string::npos);
  EXPECT_NE(r.error->message().find("gave up after 2 retries"), std::string::npos) << r.error->message();
}

TEST_F(LlmClient, RetryAfterOver120SecondsIsNotRetried) {
  serve(json::array({{{"status", 429},
                      {"headers", {{"Retry-After", "3600"}}},
                      {"json", error_body("slow down", "requests", "rate_limit_exceeded")}}}));
  CallResult r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.record.attempts, 1);
  EXPECT_EQ(r.error->retry_after_s, 3600.0);
  EXPECT_NE(r.error->message().find("3600 s"), std::string::npos) << r.error->message();
}

TEST_F(LlmClient, TimeoutIsAnErrorAndRetried) {
  serve(json::array({{{"delay_s", 3}, {"json", completion({{"content", "late"}})}},
                     {{"json", completion({{"content", "on time"}})}}}));
  config_.timeout_s = 1;
  auto t0 = std::chrono::steady_clock::now();
  Client c = client();
  CallResult r = c.complete(hello());
  ASSERT_TRUE(r.ok()) << r.error->message();
  EXPECT_EQ(r.response->message.content.value_or(""), "on time");
  EXPECT_EQ(r.record.attempts, 2);
  EXPECT_EQ(sleeps_.size(), 1u);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.9);
  // With no retries the timeout is the answer.
  stop();
  serve(json::array({{{"delay_s", 3}, {"json", completion({{"content", "late"}})}}}));
  config_.timeout_s = 1;
  config_.max_retries = 0;
  r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, ErrorKind::kTimeout);
  EXPECT_TRUE(r.error->retryable);
  EXPECT_NE(r.error->message().find("timeout of 1 s"), std::string::npos) << r.error->message();
}

TEST_F(LlmClient, ConnectionRefusedIsAConnectionError) {
  serve(json::array({{{"json", completion({{"content", "x"}})}}}));
  stop();  // nothing listens on the port now
  config_.max_retries = 1;
  CallResult r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, ErrorKind::kConnection);
  EXPECT_EQ(r.record.attempts, 2);
  EXPECT_TRUE(r.record.http_statuses.empty());
}

TEST_F(LlmClient, ContextLengthInEachDialect) {
  serve(json::array(
      {{{"status", 400},
        {"json", error_body("This model's maximum context length is 8192 tokens.", "invalid_request_error",
                            "context_length_exceeded")}},
       {{"status", 400},
        {"json",
         error_body("This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.",
                    "BadRequestError", 400)}},
       {{"status", 400},
        {"json",
         {{"error",
           {{"code", 400},
            {"message", "the request exceeds the available context size"},
            {"type", "exceed_context_size_error"},
            {"n_prompt_tokens", 9000},
            {"n_ctx", 4096}}}}}}}));
  Client c = client();
  for (int i = 0; i < 3; ++i) {
    CallResult r = c.complete(hello());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->kind, ErrorKind::kContextLength) << r.error->message();
    EXPECT_EQ(r.record.attempts, 1);
  }
}

json chunk(json delta, json finish = nullptr) {
  return {{"id", "chatcmpl-s"},
          {"object", "chat.completion.chunk"},
          {"model", "test-model"},
          {"choices", {{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}}}};
}

TEST_F(LlmClient, StreamingInterleavedToolCallsAndUsage) {
  json tc0 = {{"index", 0},
              {"id", "call_a"},
              {"type", "function"},
              {"function", {{"name", "compile"}, {"arguments", ""}}}};
  json tc1 = {{"index", 1},
              {"id", "call_b"},
              {"type", "function"},
              {"function", {{"name", "measure"}, {"arguments", "{\"n\""}}}};
  json sse =
      json::array({chunk({{"role", "assistant"}, {"content", nullptr}}),
                   chunk({{"tool_calls", {tc0}}}),
                   chunk({{"tool_calls", {tc1}}}),
                   chunk({{"tool_calls", {{{"index", 0}, {"function", {{"arguments", "{\"spec\": "}}}}}}}),
                   chunk({{"tool_calls", {{{"index", 1}, {"function", {{"arguments", ":7}"}}}}}}}),
                   chunk({{"tool_calls", {{{"index", 0}, {"function", {{"arguments", "\"a\"}"}}}}}}}),
                   chunk(json::object(), "tool_calls"),
                   {{"id", "chatcmpl-s"},
                    {"choices", json::array()},
                    {"usage", {{"prompt_tokens", 77}, {"completion_tokens", 11}}}}});
  serve(json::array({{{"sse", sse}}}));
  config_.stream = true;
  config_.usd_per_mtok_output = 1e6;  // $1 per token: the cost is the completion tokens
  CallResult r = client().complete(hello());
  ASSERT_TRUE(r.ok()) << r.error->message();
  ASSERT_EQ(r.response->message.tool_calls.size(), 2u);
  EXPECT_EQ(*r.response->message.tool_calls[0].parsed_arguments, json({{"spec", "a"}}));
  EXPECT_EQ(*r.response->message.tool_calls[1].parsed_arguments, json({{"n", 7}}));
  EXPECT_EQ(r.record.prompt_tokens, 77);
  EXPECT_EQ(r.record.completion_tokens, 11);
  EXPECT_DOUBLE_EQ(r.record.cost_usd, 11);
  json body = json::parse(requests()[0]["body"].get<std::string>());
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
}

TEST_F(LlmClient, TruncatedStreamIsARetryableError) {
  json sse = json::array({chunk({{"content", "Hel"}}), chunk({{"content", "lo"}})});
  serve(json::array({{{"sse", sse}, {"truncate", true}}, {{"sse", sse}, {"done", false}}}));
  config_.stream = true;
  config_.max_retries = 1;
  CallResult r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, ErrorKind::kTruncatedStream) << r.error->message();
  EXPECT_EQ(r.record.attempts, 2);
  EXPECT_NE(r.error->message().find("[DONE]"), std::string::npos) << r.error->message();
}

TEST_F(LlmClient, ErrorEventInsideA200Stream) {
  json sse = json::array(
      {chunk({{"content", "Hel"}}),
       {{"error", {{"message", "engine crashed"}, {"type", "InternalServerError"}, {"code", 500}}}}});
  serve(json::array({{{"sse", sse}, {"done", false}}}));
  config_.stream = true;
  config_.max_retries = 0;
  CallResult r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, ErrorKind::kServerError);
  EXPECT_EQ(r.error->server_message, "engine crashed");
}

TEST_F(LlmClient, NoModelIsAConfigErrorWithoutACall) {
  serve(json::array({{{"json", completion({{"content", "x"}})}}}));
  config_.model = "";
  CallResult r = client().complete(hello());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, ErrorKind::kConfig);
  EXPECT_TRUE(requests().empty());
}

TEST_F(LlmClient, APlantedKeyNeverComesBack) {
  std::mt19937_64 rng(std::random_device{}());
  const std::string planted = "sk-ucut-PLANTED-" + std::to_string(rng());
  const char* old = getenv("UCUT_LLM_API_KEY");
  std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  setenv("UCUT_LLM_API_KEY", planted.c_str(), 1);
  json echo = error_body("invalid header: {AUTH}", "invalid_request_error", nullptr);
  json sse = json::array({chunk({{"content", "partial"}})});
  serve(json::array(
      {{{"status", 401}, {"echo_auth", true}, {"json", echo}},
       {{"status", 500}, {"echo_auth", true}, {"json", echo}},
       {{"status", 200}, {"echo_auth", true}, {"json", completion({{"content", "you sent {AUTH}"}})}},
       {{"sse", sse}, {"truncate", true}}}));
  config_.max_retries = 0;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  std::vector<std::string> seen;
  {
    Client c = client();
    EXPECT_EQ(c.key_origin(), "environment variable UCUT_LLM_API_KEY");
    for (int i = 0; i < 4; ++i) {
      ChatRequest req = hello();
      req.stream = i == 3;
      CallResult r = c.complete(req);
      seen.push_back(r.record.to_json().dump());
      if (r.error) {
        seen.push_back(r.error->message());
        seen.push_back(r.error->to_json().dump());
      }
      if (r.response) seen.push_back(response_to_json(*r.response).dump());
      EXPECT_EQ(r.ok(), i == 2) << i;
    }
  }
  seen.push_back(::testing::internal::GetCapturedStdout());
  seen.push_back(::testing::internal::GetCapturedStderr());
  if (saved)
    setenv("UCUT_LLM_API_KEY", saved->c_str(), 1);
  else
    unsetenv("UCUT_LLM_API_KEY");
  for (const std::string& s : seen) EXPECT_EQ(s.find(planted), std::string::npos) << s;
  // The echo did happen: the redaction mark stands where the key was.
  EXPECT_NE(seen[1].find("invalid header: Bearer [REDACTED]"), std::string::npos) << seen[1];
  // And the server did receive the key.
  auto reqs = requests();
  ASSERT_EQ(reqs.size(), 4u);
  for (const json& q : reqs) EXPECT_EQ(q["headers"]["Authorization"], "Bearer " + planted);
}

TEST_F(LlmClient, NoKeyMeansNoAuthorizationHeader) {
  const char* a = getenv("UCUT_LLM_API_KEY");
  const char* b = getenv("OPENAI_API_KEY");
  if (a || b) GTEST_SKIP() << "a key is set in this environment";
  serve(json::array({{{"json", completion({{"content", "x"}})}}}));
  Client c = client();
  EXPECT_EQ(c.key_origin(), "");
  ASSERT_TRUE(c.complete(hello()).ok());
  EXPECT_FALSE(requests()[0]["headers"].contains("Authorization"));
}

TEST_F(LlmClient, AnUnusableKeyFileStopsTheClientAtConstruction) {
  std::string path = dir_.file("key");
  std::ofstream(path) << "sk-x\n";
  chmod(path.c_str(), 0644);
  config_.api_key_file = path;
  try {
    Client c(config_);
    FAIL() << "expected SetupError";
  } catch (const SetupError& e) {
    EXPECT_NE(std::string(e.what()).find("chmod 600 " + path), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ucut::llm
