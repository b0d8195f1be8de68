// tests/unit/cli/llm_ping_command_test.cpp — `ucutlass llm ping` against the scripted fake server
// (tests/unit/llm/fake_server.h): a reachable endpoint, a model that calls the check tool well or badly, an
// unreachable one, a bad configuration; the key sent and never printed. Run as the binary.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../llm/fake_server.h"
#include "../test_paths.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

using nlohmann::json;

json completion(json message, std::string finish = "stop") {
  message["role"] = "assistant";
  if (!message.contains("content")) message["content"] = nullptr;
  return {{"id", "c1"},
          {"object", "chat.completion"},
          {"model", "m"},
          {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish}}}},
          {"usage", {{"prompt_tokens", 20}, {"completion_tokens", 2}, {"total_tokens", 22}}}};
}

json tool_turn(const std::string& name, const std::string& args) {
  return {{"status", 200},
          {"json", completion({{"tool_calls",
                                {{{"id", "call_1"},
                                  {"type", "function"},
                                  {"function", {{"name", name}, {"arguments", args}}}}}}},
                              "tool_calls")}};
}

class LlmPingCommand : public ::testing::Test {
 protected:
  ProcessResult ping(std::vector<std::string> extra, const std::string& key = "sk-ucut-PLANTED-ping-7f3a") {
    std::ofstream(server_.file("agents.toml"))
        << "[llm]\nbase_url = \"" << server_.base_url()
        << "\"\nmodel = \"m\"\nmax_retries = 0\nusd_per_mtok_input = 1\n";
    std::vector<std::string> argv = {ucut::test_paths::cli_path(), "llm", "ping", "--config",
                                     server_.file("agents.toml")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessOptions o = ProcessOptions::with_timeout(60);
    o.extra_env = {"UCUT_LLM_API_KEY=" + key};
    ProcessResult r = run_process(argv, o);
    EXPECT_EQ((r.out + r.err).find(key), std::string::npos) << "the key was printed";
    return r;
  }
  testing::FakeOpenAiServer server_;
};

TEST_F(LlmPingCommand, AReachableModelThatCallsTheToolWell) {
  server_.start(json::array({{{"status", 200}, {"json", completion({{"content", "ok"}})}},
                             tool_turn("check", R"({"spec": "kernel k : sm90a"})")}));
  ProcessResult r = ping({"--tools", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  json j = json::parse(r.out);
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["chat"]["reply"], "ok");
  EXPECT_EQ(j["chat"]["record"]["prompt_tokens"], 20);
  EXPECT_DOUBLE_EQ(j["chat"]["record"]["cost_usd"].get<double>(), 20 / 1e6);
  EXPECT_EQ(j["tools"]["tool"], "check");
  EXPECT_EQ(j["key"], "environment variable UCUT_LLM_API_KEY");
  auto reqs = server_.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0]["headers"]["Authorization"], "Bearer sk-ucut-PLANTED-ping-7f3a");
  json tool_req = json::parse(reqs[1]["body"].get<std::string>());
  EXPECT_EQ(tool_req["tools"][0]["function"]["name"], "check");  // the tool table's own row
  EXPECT_EQ(tool_req["tool_choice"], "required");
}

TEST_F(LlmPingCommand, AToolCallTheSchemaRefusesFails) {
  server_.start(json::array({{{"status", 200}, {"json", completion({{"content", "ok"}})}},
                             tool_turn("check", R"({"source": "x"})")}));
  ProcessResult r = ping({"--tools"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("chat      ok: \"ok\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tools     FAILED: the arguments break the tool's schema"), std::string::npos)
      << r.out;
}

TEST_F(LlmPingCommand, NoToolCallAndAWrongToolAreNamed) {
  server_.start(json::array({{{"status", 200}, {"json", completion({{"content", "ok"}})}},
                             {{"status", 200}, {"json", completion({{"content", "I would check it."}})}}}));
  ProcessResult r = ping({"--tools"});
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.out.find("the model called no tool"), std::string::npos) << r.out;
  server_.start(json::array(
      {{{"status", 200}, {"json", completion({{"content", "ok"}})}}, tool_turn("compile_everything", "{}")}));
  r = ping({"--tools"});
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.out.find("the model called `compile_everything`, a tool it was not offered"), std::string::npos)
      << r.out;
}

TEST_F(LlmPingCommand, AServerErrorIsReportedWithItsWordsAndTheKeyStaysHidden) {
  // The server echoes the Authorization header in its error: the key must not reach the output.
  server_.start(json::array(
      {{{"status", 401},
        {"echo_auth", true},
        {"json",
         {{"error",
           {{"message", "bad key {AUTH}"}, {"type", "authentication_error"}, {"code", nullptr}}}}}}}));
  ProcessResult r = ping({});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("chat      FAILED:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("401"), std::string::npos) << r.out;
}

TEST_F(LlmPingCommand, ABadConfigurationIsAUsageError) {
  server_.start(json::array({{{"status", 200}, {"json", completion({{"content", "ok"}})}}}));
  std::ofstream(server_.file("bad.toml")) << "[llm]\nmodel = \"m\"\ntimeout_s = \"soon\"\n";
  ProcessResult r =
      run_process({ucut::test_paths::cli_path(), "llm", "ping", "--config", server_.file("bad.toml")},
                  ProcessOptions::with_timeout(60));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("timeout_s"), std::string::npos) << r.err;
  r = run_process({ucut::test_paths::cli_path(), "llm", "ping", "--base-url", server_.base_url()},
                  ProcessOptions::with_timeout(60));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no model"), std::string::npos) << r.err;
  EXPECT_TRUE(server_.requests().empty());  // nothing was sent
}

}  // namespace
}  // namespace ucut
