// tests/unit/llm/errors_test.cpp — classifying error answers of OpenAI, vLLM and llama-server; chat JSON.
#include "llm/errors.h"

#include <gtest/gtest.h>

#include "llm/chat.h"

namespace ucut::llm {
namespace {

TEST(LlmErrors, ContextLengthInEachDialect) {
  LlmError oai =
      classify_http_error(400, R"({"error":{"message":"This model's maximum context length is 8192 tokens.",
      "type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})");
  EXPECT_EQ(oai.kind, ErrorKind::kContextLength);
  EXPECT_EQ(oai.server_code, "context_length_exceeded");
  EXPECT_FALSE(oai.retryable);
  LlmError vllm = classify_http_error(
      400,
      R"({"error":{"message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
      "type":"BadRequestError","param":null,"code":400}})");
  EXPECT_EQ(vllm.kind, ErrorKind::kContextLength);
  EXPECT_EQ(vllm.server_code, "400");
  LlmError llama = classify_http_error(
      400, R"({"error":{"code":400,"message":"the request exceeds the available context size",
      "type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}})");
  EXPECT_EQ(llama.kind, ErrorKind::kContextLength);
  // An ordinary vLLM 400 is a bad request.
  EXPECT_EQ(classify_http_error(
                400, R"({"error":{"message":"\"auto\" tool choice requires --enable-auto-tool-choice",
      "type":"BadRequestError","code":400}})")
                .kind,
            ErrorKind::kBadRequest);
}

TEST(LlmErrors, RateLimitIsRetryableButInsufficientQuotaIsNot) {
  LlmError rl = classify_http_error(
      429, R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})");
  EXPECT_EQ(rl.kind, ErrorKind::kRateLimited);
  EXPECT_TRUE(rl.retryable);
  LlmError q = classify_http_error(
      429,
      R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}})");
  EXPECT_EQ(q.kind, ErrorKind::kQuotaExhausted);
  EXPECT_FALSE(q.retryable);
}

TEST(LlmErrors, StatusesAndLlamaServerTypes) {
  EXPECT_EQ(classify_http_error(
                401, R"({"error":{"message":"Invalid API Key","type":"authentication_error","code":401}})")
                .kind,
            ErrorKind::kAuth);
  EXPECT_EQ(
      classify_http_error(
          404, R"({"error":{"message":"The model `x` does not exist.","type":"NotFoundError","code":404}})")
          .kind,
      ErrorKind::kNotFound);
  LlmError loading = classify_http_error(
      503, R"({"error":{"message":"Loading model","type":"unavailable_error","code":503}})");
  EXPECT_EQ(loading.kind, ErrorKind::kServerError);
  EXPECT_TRUE(loading.retryable);
  EXPECT_EQ(classify_http_error(500, "<html>Internal Server Error</html>").kind, ErrorKind::kServerError);
  EXPECT_NE(classify_http_error(502, "bad gateway").server_message.find("bad gateway"), std::string::npos);
  EXPECT_TRUE(classify_http_error(408, "").retryable);
  EXPECT_TRUE(classify_http_error(409, "").retryable);
  EXPECT_FALSE(classify_http_error(422, R"({"detail":"field required"})").retryable);
  EXPECT_EQ(classify_http_error(422, R"({"detail":"field required"})").server_message, "field required");
}

TEST(LlmErrors, MessageNamesKindStatusUrlAndModel) {
  LlmError e = classify_http_error(429, R"({"error":{"message":"slow down","code":"rate_limit_exceeded"}})");
  e.url = "http://localhost:8000/v1/chat/completions";
  e.model = "qwen";
  e.attempts = 3;
  EXPECT_EQ(e.message(),
            "LLM call to http://localhost:8000/v1/chat/completions (model qwen) failed after 3 attempts: "
            "rate_limited "
            "(HTTP 429): slow down");
  EXPECT_EQ(e.to_json()["kind"], "rate_limited");
}

TEST(LlmErrors, UrlForDisplayDropsCredentialsAndQuery) {
  EXPECT_EQ(url_for_display("https://user:pw@api.example.com/v1/chat/completions?key=abc#x"),
            "https://api.example.com/v1/chat/completions");
  EXPECT_EQ(url_for_display("http://localhost:8000/v1"), "http://localhost:8000/v1");
}

TEST(LlmChat, RequestJsonHasToolsChoiceAndStreamOptions) {
  ChatRequest r;
  r.model = "m";
  r.messages = {Message::system("sys"), Message::user("hi")};
  Message asst{Role::kAssistant, std::nullopt, {{"call_1", "compile", "{\"a\":1}", {}, {}}}, {}};
  r.messages.push_back(asst);
  r.messages.push_back(Message::tool_result("call_1", "ok"));
  r.tools = {{"compile", "Compiles", {{"type", "object"}}}};
  r.tool_choice = ToolChoice{ToolChoiceMode::kNamed, "compile"};
  r.temperature = 0.2;
  r.max_tokens = 100;
  r.stream = true;
  nlohmann::json j = request_to_json(r);
  EXPECT_EQ(j["messages"][2]["content"], nullptr);
  EXPECT_EQ(j["messages"][2]["tool_calls"][0]["function"]["arguments"], "{\"a\":1}");
  EXPECT_EQ(j["messages"][3]["tool_call_id"], "call_1");
  EXPECT_EQ(j["tools"][0]["function"]["name"], "compile");
  EXPECT_EQ(j["tool_choice"]["function"]["name"], "compile");
  EXPECT_EQ(j["stream_options"]["include_usage"], true);
  EXPECT_EQ(j["max_tokens"], 100);
  r.tool_choice = ToolChoice{ToolChoiceMode::kRequired, ""};
  r.stream = false;
  j = request_to_json(r);
  EXPECT_EQ(j["tool_choice"], "required");
  EXPECT_FALSE(j.contains("stream"));
}

TEST(LlmChat, MalformedArgumentsAreSurfacedNotThrown) {
  ToolCall c{"id", "f", "{\"a\": 1,", {}, {}};
  EXPECT_NO_THROW(c.parse_arguments());
  EXPECT_FALSE(c.arguments_ok());
  EXPECT_NE(c.arguments_error.find("not valid JSON"), std::string::npos);
  c.arguments = "[1,2]";
  c.parse_arguments();
  EXPECT_NE(c.arguments_error.find("must be a JSON object"), std::string::npos);
  c.arguments = "";
  c.parse_arguments();
  EXPECT_TRUE(c.arguments_ok());
}

TEST(LlmChat, ParsesRefusalAndRejectsBodiesWithoutChoices) {
  std::string err;
  auto r = parse_chat_response(
      nlohmann::json::parse(R"({"id":"x","choices":[{"index":0,"message":{"role":"assistant",
      "content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]})"),
      &err);
  ASSERT_TRUE(r) << err;
  EXPECT_EQ(r->refusal.value_or(""), "I can't help with that.");
  EXPECT_FALSE(parse_chat_response(nlohmann::json::parse(R"({"object":"list"})"), &err));
  EXPECT_NE(err.find("choices"), std::string::npos);
}

}  // namespace
}  // namespace ucut::llm
