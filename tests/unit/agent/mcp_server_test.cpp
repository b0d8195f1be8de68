// tests/unit/agent/mcp_server_test.cpp — the MCP dispatcher (agent/mcp_server.h), line in, line out: every
// method, every JSON-RPC error, ids echoed verbatim.
#include "agent/mcp_server.h"

#include <gtest/gtest.h>

#include <sstream>

#include "../test_paths.h"
#include "support/files.h"

namespace ucut::agent {
namespace {

using nlohmann::json;

McpServer server() {
  ToolContext ctx;
  ctx.suites_dir = ucut::test_paths::source_dir() + "/suites";
  ctx.profile.measure.worker = "/nonexistent/ucutlass-worker";
  return McpServer(ctx);
}

json answer(const std::string& line) {
  McpServer s = server();
  std::optional<std::string> a = s.handle_line(line);
  EXPECT_TRUE(a.has_value()) << line;
  if (!a) return nullptr;
  EXPECT_EQ(a->find('\n'), std::string::npos);
  return json::parse(*a);
}

json request(const std::string& method, const json& params, const json& id = 1) {
  json m = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) m["params"] = params;
  return answer(m.dump());
}

int error_code(const json& a) { return a.contains("error") ? a["error"]["code"].get<int>() : 0; }

TEST(McpServer, InitializeAnswersASupportedVersion) {
  json a = request("initialize", {{"protocolVersion", "2025-06-18"},
                                  {"capabilities", json::object()},
                                  {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  EXPECT_EQ(a["jsonrpc"], "2.0");
  EXPECT_EQ(a["id"], 1);
  EXPECT_EQ(a["result"]["protocolVersion"], "2025-06-18");
  EXPECT_TRUE(a["result"]["capabilities"]["tools"].is_object());
  EXPECT_TRUE(a["result"]["capabilities"]["resources"].is_object());
  EXPECT_EQ(a["result"]["serverInfo"]["name"], "ucutlass");
  EXPECT_FALSE(a["result"]["serverInfo"]["version"].get<std::string>().empty());
  EXPECT_FALSE(a["result"]["instructions"].get<std::string>().empty());
  EXPECT_EQ(request("initialize", {{"protocolVersion", "2099-01-01"}})["result"]["protocolVersion"],
            "2025-11-25");
  EXPECT_EQ(request("initialize", json(nullptr))["result"]["protocolVersion"], "2025-11-25");
}

TEST(McpServer, NotificationsGetNoAnswer) {
  McpServer s = server();
  EXPECT_EQ(s.handle_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), std::nullopt);
  EXPECT_EQ(s.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})"),
            std::nullopt);
  EXPECT_EQ(s.handle_line(R"({"jsonrpc":"2.0","method":"no/such/notification"})"), std::nullopt);
}

TEST(McpServer, PingAndIdsEchoedVerbatim) {
  json a = request("ping", nullptr, "abc-1");
  EXPECT_EQ(a["id"], "abc-1");
  EXPECT_EQ(a["result"], json::object());
  EXPECT_EQ(request("ping", nullptr, 0)["id"], 0);
  EXPECT_EQ(request("ping", nullptr, int64_t{9007199254740993})["id"], int64_t{9007199254740993});
}

TEST(McpServer, JsonRpcErrors) {
  json a = answer("{not json");
  EXPECT_EQ(error_code(a), -32700);
  EXPECT_TRUE(a["id"].is_null());
  EXPECT_EQ(error_code(answer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xff\xfe\"}")),
            -32700);
  EXPECT_EQ(error_code(answer(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")), -32600);  // no batches
  EXPECT_EQ(error_code(answer("42")), -32600);
  json no_version = answer(R"({"id":7,"method":"ping"})");
  EXPECT_EQ(error_code(no_version), -32600);
  EXPECT_EQ(no_version["id"], 7);
  EXPECT_EQ(error_code(answer(R"({"jsonrpc":"1.0","id":7,"method":"ping"})")), -32600);
  EXPECT_EQ(error_code(answer(R"({"jsonrpc":"2.0","id":7})")), -32600);
  EXPECT_EQ(error_code(answer(R"({"jsonrpc":"2.0","id":null,"method":"ping"})")), -32600);
  EXPECT_EQ(error_code(answer(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})")), -32600);
  EXPECT_EQ(error_code(answer(R"({"jsonrpc":"2.0","id":7,"method":"ping","params":[1]})")), -32600);
  json unknown = request("no/such/method", nullptr, "x");
  EXPECT_EQ(error_code(unknown), -32601);
  EXPECT_EQ(unknown["id"], "x");
  EXPECT_EQ(error_code(request("server/discover", json::object())), -32601);
}

TEST(McpServer, ToolsList) {
  json a = request("tools/list", nullptr);  // params may be absent
  ASSERT_TRUE(a["result"]["tools"].is_array());
  EXPECT_EQ(a["result"]["tools"].size(), tools().size());
  for (const json& t : a["result"]["tools"]) {
    EXPECT_FALSE(t["description"].get<std::string>().empty());
    EXPECT_EQ(t["inputSchema"]["type"], "object");
  }
}

std::string example() { return *read_file(ucut::test_paths::source_dir() + "/examples/gemm_tf32.ucut"); }

TEST(McpServer, ToolsCallCheck) {
  json a = request("tools/call", {{"name", "check"}, {"arguments", {{"spec", example()}}}});
  EXPECT_EQ(a["result"]["isError"], false);
  EXPECT_EQ(a["result"]["structuredContent"]["ok"], true);
  EXPECT_EQ(a["result"]["content"][0]["type"], "text");
  EXPECT_EQ(json::parse(a["result"]["content"][0]["text"].get<std::string>()),
            a["result"]["structuredContent"]);
  std::string bad = example();
  bad.replace(bad.find("128, 128, 32"), 12, "100, 128, 32");
  json b = request("tools/call", {{"name", "check"}, {"arguments", {{"spec", bad}}}});
  EXPECT_EQ(b["result"]["isError"], true);
  std::string rule = b["result"]["structuredContent"]["diagnostics"][0]["rule"];
  EXPECT_NE(b["result"]["content"][0]["text"].get<std::string>().find(rule), std::string::npos);
}

TEST(McpServer, ToolsCallOtherTools) {
  json sol = request("tools/call", {{"name", "sol"}, {"arguments", {{"problem", "L1_001_square_matmul"}}}});
  EXPECT_EQ(sol["result"]["isError"], false);
  json prob = request("tools/call", {{"name", "problem"}});  // arguments may be absent
  EXPECT_EQ(prob["result"]["isError"], false);
  EXPECT_FALSE(prob["result"]["structuredContent"]["problems"].empty());
  json run =
      request("tools/call",
              {{"name", "run"}, {"arguments", {{"spec", example()}, {"problem", "L1_001_square_matmul"}}}});
  EXPECT_EQ(run["result"]["isError"], true);
  json lessons =
      request("tools/call", {{"name", "lessons"}, {"arguments", {{"workspace", "/nonexistent/w.db"}}}});
  EXPECT_EQ(lessons["result"]["isError"], true);
  EXPECT_NE(lessons["result"]["content"][0]["text"].get<std::string>().find("/nonexistent/w.db"),
            std::string::npos);
}

TEST(McpServer, ToolsCallInvalidParams) {
  EXPECT_EQ(error_code(request("tools/call", {{"name", "nope"}, {"arguments", json::object()}})), -32602);
  EXPECT_EQ(error_code(request("tools/call", {{"name", "check"}, {"arguments", json::object()}})), -32602);
  EXPECT_EQ(error_code(request("tools/call", {{"name", "check"}, {"arguments", {{"spec", 1}}}})), -32602);
  EXPECT_EQ(error_code(request("tools/call", {{"name", "check"}, {"arguments", {{"spec", "x"}, {"y", 1}}}})),
            -32602);
  EXPECT_EQ(error_code(request("tools/call", {{"name", "check"}, {"arguments", "x"}})), -32602);
  EXPECT_EQ(error_code(request("tools/call", json::object())), -32602);
}

TEST(McpServer, Resources) {
  json list = request("resources/list", nullptr);
  ASSERT_EQ(list["result"]["resources"].size(), 2u);
  EXPECT_EQ(list["result"]["resources"][0]["uri"], "ucutlass://docs/dsl-guide.md");
  EXPECT_EQ(list["result"]["resources"][0]["mimeType"], "text/markdown");
  EXPECT_EQ(list["result"]["resources"][1]["uri"], "ucutlass://docs/grammar.ebnf");
  EXPECT_EQ(list["result"]["resources"][1]["mimeType"], "text/plain");
  json read = request("resources/read", {{"uri", "ucutlass://docs/grammar.ebnf"}});
  std::string on_disk = *read_file(ucut::test_paths::source_dir() + "/docs/grammar.ebnf");
  EXPECT_EQ(read["result"]["contents"][0]["text"], on_disk);
  EXPECT_EQ(error_code(request("resources/read", {{"uri", "ucutlass://docs/none.md"}})), -32002);
  EXPECT_EQ(error_code(request("resources/read", json::object())), -32602);
}

TEST(McpServer, ServeAnswersLineByLineUntilEof) {
  McpServer s = server();
  std::istringstream in(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\n"
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r\n");
  std::ostringstream out;
  serve(s, in, out);
  EXPECT_EQ(out.str(),
            "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}\n");
}

}  // namespace
}  // namespace ucut::agent
