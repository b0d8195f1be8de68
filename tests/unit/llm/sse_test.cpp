// tests/unit/llm/sse_test.cpp — the SSE parser under arbitrary splits, and chunk accumulation (interleaved
// tool-call indices, the usage chunk, in-stream errors).
#include "llm/sse.h"

#include <gtest/gtest.h>

#include <random>

namespace ucut::llm {
namespace {

std::vector<std::string> parse_in_pieces(const std::string& bytes, const std::vector<size_t>& cuts) {
  SseParser p;
  std::vector<std::string> events;
  auto on = [&](const std::string& d) { events.push_back(d); };
  size_t from = 0;
  for (size_t cut : cuts) {
    p.feed(std::string_view(bytes).substr(from, cut - from), on);
    from = cut;
  }
  p.feed(std::string_view(bytes).substr(from), on);
  p.finish(on);
  return events;
}

TEST(LlmSse, ParsesEventsWithEveryLineEndingUnderEverySplit) {
  const std::string bytes =
      ": keep-alive\r\n\r\ndata: {\"a\":1}\r\n\r\ndata: first\ndata: second\n\nevent: "
      "x\ndata:nospace\r\rdata: [DONE]\n\n";
  const std::vector<std::string> want = {"{\"a\":1}", "first\nsecond", "nospace", "[DONE]"};
  EXPECT_EQ(parse_in_pieces(bytes, {}), want);
  for (size_t i = 0; i <= bytes.size(); ++i)
    for (size_t j = i; j <= bytes.size(); j += 3)
      ASSERT_EQ(parse_in_pieces(bytes, {i, j}), want) << i << " " << j;
  std::vector<size_t> single;
  for (size_t i = 1; i < bytes.size(); ++i) single.push_back(i);
  EXPECT_EQ(parse_in_pieces(bytes, single), want);  // one byte at a time
}

TEST(LlmSse, DeliversALastEventWithoutItsBlankLineAtFinish) {
  EXPECT_EQ(parse_in_pieces("data: [DONE]", {}), std::vector<std::string>{"[DONE]"});
  EXPECT_EQ(parse_in_pieces("data: x\r\n", {}), std::vector<std::string>{"x"});
}

std::string chunk(const std::string& delta, const std::string& finish = "null") {
  return R"({"id":"c1","model":"m","choices":[{"index":0,"delta":)" + delta + R"(,"finish_reason":)" +
         finish + "}]}";
}

TEST(LlmSse, AccumulatesInterleavedToolCallFragmentsByIndex) {
  StreamAccumulator acc;
  std::vector<std::string> events = {
      chunk(R"({"role":"assistant","content":null})"),
      chunk(
          R"({"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"compile","arguments":""}}]})"),
      chunk(
          R"({"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"measure","arguments":"{\"n\""}}]})"),
      chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"spec\":"}}]})"),
      chunk(R"({"tool_calls":[{"index":1,"function":{"arguments":": 3}"}}]})"),
      chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":" \"k.ucut\"}"}}]})"),
      chunk("{}", "\"tool_calls\""),
      R"({"id":"c1","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":33,"total_tokens":153}})",
      "[DONE]"};
  for (const auto& e : events) ASSERT_TRUE(acc.add(e)) << e;
  ASSERT_TRUE(acc.done());
  ChatResponse r = acc.response();
  ASSERT_EQ(r.message.tool_calls.size(), 2u);
  EXPECT_EQ(r.message.tool_calls[0].id, "call_a");
  EXPECT_EQ(r.message.tool_calls[0].name, "compile");
  EXPECT_EQ(r.message.tool_calls[0].arguments, R"({"spec": "k.ucut"})");
  ASSERT_TRUE(r.message.tool_calls[0].arguments_ok());
  EXPECT_EQ((*r.message.tool_calls[0].parsed_arguments)["spec"], "k.ucut");
  EXPECT_EQ(r.message.tool_calls[1].name, "measure");
  EXPECT_EQ((*r.message.tool_calls[1].parsed_arguments)["n"], 3);
  EXPECT_EQ(r.finish_reason, "tool_calls");
  EXPECT_TRUE(r.called_tools());
  EXPECT_FALSE(r.message.content.has_value());
  EXPECT_TRUE(r.usage.reported);
  EXPECT_EQ(r.usage.prompt_tokens, 120);
  EXPECT_EQ(r.usage.completion_tokens, 33);
  EXPECT_EQ(r.id, "c1");
}

TEST(LlmSse, ConcatenatesContentAndIgnoresEventsAfterDone) {
  StreamAccumulator acc;
  ASSERT_TRUE(acc.add(chunk(R"({"content":"Hel"})")));
  ASSERT_TRUE(acc.add(chunk(R"({"content":"lo"})", "\"stop\"")));
  ASSERT_TRUE(acc.add("[DONE]"));
  ASSERT_TRUE(acc.add(chunk(R"({"content":"junk"})")));
  EXPECT_EQ(acc.response().message.content.value_or(""), "Hello");
  EXPECT_EQ(acc.response().finish_reason, "stop");
  EXPECT_FALSE(acc.response().called_tools());
}

TEST(LlmSse, AnErrorEventAfterHttp200IsAnError) {
  StreamAccumulator acc;
  ASSERT_TRUE(acc.add(chunk(R"({"content":"par"})")));
  EXPECT_FALSE(acc.add(R"({"error":{"message":"engine died","type":"InternalServerError","code":500}})"));
  ASSERT_TRUE(acc.error().has_value());
  EXPECT_EQ(acc.error()->kind, ErrorKind::kServerError);
  EXPECT_EQ(acc.error()->server_message, "engine died");
  EXPECT_TRUE(acc.error()->retryable);
  EXPECT_FALSE(acc.done());
}

TEST(LlmSse, AChunkThatIsNotJsonIsMalformed) {
  StreamAccumulator acc;
  EXPECT_FALSE(acc.add("{\"choices\":[{\"delta\""));
  ASSERT_TRUE(acc.error().has_value());
  EXPECT_EQ(acc.error()->kind, ErrorKind::kMalformedResponse);
}

TEST(LlmSse, ContentFilterBecomesARefusal) {
  StreamAccumulator acc;
  ASSERT_TRUE(acc.add(chunk("{}", "\"content_filter\"")));
  ASSERT_TRUE(acc.add("[DONE]"));
  ASSERT_TRUE(acc.response().refusal.has_value());
  EXPECT_NE(acc.response().refusal->find("content_filter"), std::string::npos);
}

}  // namespace
}  // namespace ucut::llm
