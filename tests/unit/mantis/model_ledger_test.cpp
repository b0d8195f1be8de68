// tests/unit/mantis/model_ledger_test.cpp — engine/model_ledger.h against the scripted loopback server: calls
// are recorded with their tokens, replayed rather than re-sent, failures keep their rows, a send gate stops
// new calls (not replays), and ask_json repairs invalid answers (the schema's or a check's) a bounded number
// of times.
#include "engine/model_ledger.h"

#include <gtest/gtest.h>

#include "../llm/fake_server.h"
#include "../store/fixture.h"
#include "model_script.h"

namespace ucut::engine {
namespace {

using nlohmann::json;

using mantis::testing::completion;
using mantis::testing::turn;

const json kSchema = json::parse(R"({"type": "object", "properties": {"profile": {"type": "boolean"},
  "reason": {"type": "string", "minLength": 1}}, "required": ["profile", "reason"], "additionalProperties": false})");

class Ledger : public ::testing::Test {
 protected:
  void serve(const json& script) {
    ASSERT_NO_THROW(server_.start(script));
    config_.base_url = server_.base_url();
    config_.model = "test-model";
    config_.timeout_s = 10;
    config_.max_retries = 0;
    config_.usd_per_mtok_input = 1;
    config_.usd_per_mtok_output = 2;
  }
  std::string path() { return dir_.file("ws.db"); }
  static std::vector<llm::Message> ask() {
    return {llm::Message::system("you measure"), llm::Message::user("profile or not?")};
  }

  ucut::testing::TempDir dir_{"ucut-ledger"};
  ucut::testing::FakeOpenAiServer server_;
  llm::LlmConfig config_;
};

TEST_F(Ledger, RecordsTheCallAndReplaysItWithoutSendingAgain) {
  serve(json::array({turn(R"({"profile": true, "reason": "new best"})", 1000, 500)}));
  int64_t run = store::testing::workspace_with_run(path());
  {
    store::Workspace ws = store::Workspace::open(path());
    llm::Client client(config_);
    ModelLedger ledger(ws, client);
    JsonReply r = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 2);
    ASSERT_TRUE(r.value) << r.error;
    EXPECT_EQ((*r.value)["profile"], true);
    EXPECT_EQ(r.tokens, 1500);
    EXPECT_EQ(ledger.sent_tokens(), 1500);
    EXPECT_DOUBLE_EQ(ledger.sent_cost_usd(), 1000 * 1e-6 + 500 * 2e-6);
  }
  // A resumed run (a new process: a new ledger object) asking the same words is answered from the workspace.
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  ModelLedger ledger(ws, client);
  JsonReply again = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 2);
  ASSERT_TRUE(again.value) << again.error;
  EXPECT_EQ(*again.value, json::parse(R"({"profile": true, "reason": "new best"})"));
  EXPECT_EQ(again.tokens, 1500);       // attributed: it was charged once
  EXPECT_EQ(ledger.sent_tokens(), 0);  // but not charged again
  EXPECT_EQ(server_.requests().size(), 1u);
  std::vector<store::LlmCallRow> calls = ws.llm_calls({});
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].status, store::LlmCallStatus::ok);
  EXPECT_EQ(calls[0].role, "measure");
  EXPECT_EQ(json::parse(calls[0].request_json)["model"], "test-model");
}

TEST_F(Ledger, RepairsAnInvalidAnswerThenAccepts) {
  serve(json::array({turn("Sure! I think we should profile."), turn(R"({"profile": "yes", "reason": "x"})"),
                     turn("```json\n{\"profile\": false, \"reason\": \"unchanged best\"}\n```")}));
  int64_t run = store::testing::workspace_with_run(path());
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  ModelLedger ledger(ws, client);
  JsonReply r = ask_json(ledger, {run, "p1", 2, "measure"}, ask(), kSchema, 2);
  ASSERT_TRUE(r.value) << r.error;
  EXPECT_EQ((*r.value)["profile"], false);
  EXPECT_EQ(r.calls, 3);
  EXPECT_EQ(r.next_seq, 3);
  std::vector<json> sent = server_.requests();
  ASSERT_EQ(sent.size(), 3u);
  // Each repair sends the invalid answer back with what is wrong with it.
  json second = json::parse(sent[1]["body"].get<std::string>());
  EXPECT_EQ(second["messages"].size(), 4u);
  EXPECT_NE(second["messages"][3]["content"].get<std::string>().find("no JSON object"), std::string::npos);
  json third = json::parse(sent[2]["body"].get<std::string>());
  EXPECT_NE(third["messages"][5]["content"].get<std::string>().find("profile"), std::string::npos);
}

TEST_F(Ledger, GivesUpAfterTheRepairBudget) {
  serve(json::array({turn("no json here")}));
  int64_t run = store::testing::workspace_with_run(path());
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  ModelLedger ledger(ws, client);
  JsonReply r = ask_json(ledger, {run, "p1", 1, "analyze"}, ask(), kSchema, 1);
  EXPECT_FALSE(r.value);
  EXPECT_FALSE(r.call_failed);  // the model answered: asking the same words again would not help
  EXPECT_EQ(r.calls, 2);
  EXPECT_NE(r.error.find("still invalid after 1 repair"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("analyze"), std::string::npos);
}

TEST_F(Ledger, ARefusalEndsThePhaseWithoutRepair) {
  json refusal = completion("");
  refusal["choices"][0]["message"]["refusal"] = "I can't help with that.";
  serve(json::array({{{"status", 200}, {"json", refusal}}}));
  int64_t run = store::testing::workspace_with_run(path());
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  ModelLedger ledger(ws, client);
  JsonReply r = ask_json(ledger, {run, "p1", 1, "nominate"}, ask(), kSchema, 3);
  EXPECT_FALSE(r.value);
  EXPECT_EQ(r.calls, 1);
  EXPECT_NE(r.error.find("refused the nominate phase"), std::string::npos) << r.error;
}

TEST_F(Ledger, AFailureKeepsItsRowAndAResumedRunAsksAgainUnderTheNextSeq) {
  json context_error = {{"error",
                         {{"message", "This model's maximum context length is 8192 tokens"},
                          {"type", "invalid_request_error"},
                          {"code", "context_length_exceeded"}}}};
  serve(
      json::array({{{"status", 400}, {"json", context_error}}, turn(R"({"profile": true, "reason": "r"})")}));
  int64_t run = store::testing::workspace_with_run(path());
  {
    store::Workspace ws = store::Workspace::open(path());
    llm::Client client(config_);
    ModelLedger ledger(ws, client);
    JsonReply r = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 2);
    EXPECT_FALSE(r.value);
    EXPECT_TRUE(r.call_failed);
    EXPECT_NE(r.error.find("context"), std::string::npos) << r.error;
    // The same process asking again does not resend what just failed.
    JsonReply again = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 2);
    EXPECT_FALSE(again.value);
    EXPECT_EQ(server_.requests().size(), 1u);
  }
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  ModelLedger ledger(ws, client);
  JsonReply r = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 2);
  ASSERT_TRUE(r.value) << r.error;
  std::vector<store::LlmCallRow> calls = ws.llm_calls({});
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].status, store::LlmCallStatus::failed);
  EXPECT_EQ(calls[0].seq, 0);
  EXPECT_EQ(calls[1].status, store::LlmCallStatus::ok);
  EXPECT_EQ(calls[1].seq, 1);
}

TEST_F(Ledger, APendingCallLeftByAKillIsSent) {
  serve(json::array({turn(R"({"profile": true, "reason": "r"})", 10, 5)}));
  int64_t run = store::testing::workspace_with_run(path());
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  // What a process killed between claiming and recording leaves: the claimed row, pending.
  llm::ChatRequest request;
  request.messages = ask();
  request.model = "test-model";
  request.temperature = config_.temperature;
  request.max_tokens = config_.max_tokens;
  store::LlmCallRow row;
  row.run_id = run;
  row.problem_id = "p1";
  row.iteration = 1;
  row.role = "measure";
  row.model = "test-model";
  row.request_json = llm::request_to_json(request).dump();
  ws.claim_llm_call(row);
  ModelLedger ledger(ws, client);
  JsonReply r = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 0);
  ASSERT_TRUE(r.value) << r.error;
  std::vector<store::LlmCallRow> calls = ws.llm_calls({});
  ASSERT_EQ(calls.size(), 1u);  // the same row, now finished
  EXPECT_EQ(calls[0].status, store::LlmCallStatus::ok);
  EXPECT_EQ(calls[0].tokens(), 15);
}

TEST_F(Ledger, TheSendGateStopsANewCallButNotAReplay) {
  serve(json::array({turn(R"({"profile": true, "reason": "r"})")}));
  int64_t run = store::testing::workspace_with_run(path());
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  ModelLedger ledger(ws, client);
  ASSERT_TRUE(ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 0).value);
  ledger.set_send_gate([] { return std::string("the run's token budget is spent: 120 of 100 tokens"); });
  JsonReply replayed = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 0);
  EXPECT_TRUE(replayed.value) << replayed.error;
  JsonReply stopped = ask_json(ledger, {run, "p1", 2, "measure"}, ask(), kSchema, 0);
  EXPECT_FALSE(stopped.value);
  EXPECT_EQ(stopped.error,
            "the measure call was not sent: the run's token budget is spent: 120 of 100 tokens");
  EXPECT_EQ(server_.requests().size(), 1u);
  EXPECT_EQ(ws.llm_calls({}).size(), 1u);  // nothing claimed for the stopped call
}

TEST_F(Ledger, AnAnswerCheckSendsAWrongAnswerBackLikeASchemaViolation) {
  serve(json::array(
      {turn(R"({"profile": true, "reason": "r"})"), turn(R"({"profile": false, "reason": "r"})")}));
  int64_t run = store::testing::workspace_with_run(path());
  store::Workspace ws = store::Workspace::open(path());
  llm::Client client(config_);
  ModelLedger ledger(ws, client);
  AnswerCheck no_profiling = [](const json& j) -> std::optional<std::string> {
    if (j["profile"].get<bool>()) return "profiling is off in this run";
    return std::nullopt;
  };
  JsonReply r = ask_json(ledger, {run, "p1", 1, "measure"}, ask(), kSchema, 1, 0, no_profiling);
  ASSERT_TRUE(r.value) << r.error;
  EXPECT_EQ((*r.value)["profile"], false);
  EXPECT_EQ(r.calls, 2);
  json second = json::parse(server_.requests().at(1)["body"].get<std::string>());
  EXPECT_NE(second["messages"].back()["content"].get<std::string>().find("profiling is off in this run"),
            std::string::npos);
}

TEST(ExtractJsonObject, FromTextFencesAndProse) {
  std::string error;
  EXPECT_EQ(*extract_json_object(R"({"a": 1})", &error), json::parse(R"({"a": 1})"));
  EXPECT_EQ(*extract_json_object("Here:\n```json\n{\"a\": 2}\n```\nDone.", &error),
            json::parse(R"({"a": 2})"));
  EXPECT_EQ(*extract_json_object("The answer is {\"a\": 3} as asked.", &error), json::parse(R"({"a": 3})"));
  EXPECT_FALSE(extract_json_object("[1, 2]", &error));
  EXPECT_FALSE(extract_json_object("no braces", &error));
  EXPECT_EQ(error, "the answer holds no JSON object");
  EXPECT_FALSE(extract_json_object("{\"a\": ", &error));
  EXPECT_EQ(error, "the answer's JSON does not parse as one object");
}

}  // namespace
}  // namespace ucut::engine
