// tests/unit/store/llm_ledger_test.cpp — the model-call ledger of store/workspace.h: claim, finish and find;
// the same key claimed again (an interrupted call comes back pending, a finished one is replayed, not charged
// again); another request hash is another call; totals by role, run and problem; prompt packs per run;
// attempt tokens; processes claiming one key once; a schema-3 workspace migrated in place, or in memory and
// left byte for byte; export/import keeping the calls; and the API key never reaching the file.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <set>

#include "../test_paths.h"
#include "fixture.h"
#include "llm/chat.h"
#include "llm/client.h"
#include "store/schema.h"
#include "store/transfer.h"
#include "support/files.h"
#include "support/sha256.h"

namespace ucut::store {
namespace {

using namespace testing;

LlmCallRow sample_call(int64_t run, const std::string& role, int seq = 0,
                       const std::string& body = R"({"model":"m","messages":[]})") {
  LlmCallRow c;
  c.run_id = run;
  c.problem_id = "p1";
  c.iteration = 1;
  c.role = role;
  c.seq = seq;
  c.model = "m";
  c.request_json = body;
  return c;
}

/// `c` answered: `prompt` + `completion` tokens at $1 per 1000 tokens.
LlmCallRow answered(LlmCallRow c, int64_t prompt, int64_t completion) {
  c.status = LlmCallStatus::ok;
  c.response_json = R"({"choices":[{"message":{"content":"ok"}}]})";
  c.prompt_tokens = prompt;
  c.completion_tokens = completion;
  c.cost_usd = (prompt + completion) / 1000.0;
  c.attempts = 1;
  c.wall_s = 0.5;
  return c;
}

LlmCallRow failed(LlmCallRow c, const std::string& why) {
  c.status = LlmCallStatus::failed;
  c.error = why;
  c.attempts = 3;
  return c;
}

auto fields(const LlmCallRow& c) {
  return std::tie(c.id, c.run_id, c.problem_id, c.iteration, c.role, c.seq, c.request_hash, c.model, c.status,
                  c.request_json, c.response_json, c.error, c.prompt_tokens, c.completion_tokens, c.cost_usd,
                  c.attempts, c.wall_s, c.created, c.finished);
}

/// A workspace with problem p1 and one run.
struct Fixture {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  int64_t run = 0;
  Fixture() {
    ws.upsert_problem(sample_problem("p1"));
    run = ws.begin_run(sample_run());
  }
};

TEST(LlmLedgerCalls, ClaimFinishFindRoundTrip) {
  Fixture f;
  LlmCallRow c = f.ws.claim_llm_call(sample_call(f.run, "nominate"));
  EXPECT_GT(c.id, 0);
  EXPECT_EQ(c.status, LlmCallStatus::pending);
  EXPECT_EQ(c.request_hash, sha256_hex(c.request_json));  // filled from the body
  EXPECT_FALSE(c.created.empty());
  EXPECT_TRUE(c.finished.empty());
  std::optional<LlmCallRow> found = f.ws.find_llm_call(f.run, "p1", 1, "nominate", 0, c.request_hash);
  ASSERT_TRUE(found);
  EXPECT_EQ(fields(*found), fields(c));

  LlmCallRow done = answered(c, 1000, 250);
  done.model = "m-2025-01";  // the model that answered
  f.ws.finish_llm_call(done);
  found = f.ws.find_llm_call(f.run, "p1", 1, "nominate", 0, c.request_hash);
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->finished.empty());
  done.finished = found->finished;
  EXPECT_EQ(fields(*found), fields(done));
  EXPECT_FALSE(f.ws.find_llm_call(f.run, "p1", 1, "nominate", 1, c.request_hash));
  EXPECT_FALSE(f.ws.find_llm_call(f.run, "p1", 2, "nominate", 0, c.request_hash));

  LlmCallRow missing = done;
  missing.id = 999;
  EXPECT_THROW(f.ws.finish_llm_call(missing), WorkspaceError);
}

TEST(LlmLedgerCalls, SameKeyReturnsTheFirstRowPendingOrFinished) {
  Fixture f;
  LlmCallRow first = f.ws.claim_llm_call(sample_call(f.run, "coder"));
  // Killed before the answer: the next claim gets the pending row back (send it, once).
  LlmCallRow again = sample_call(f.run, "coder");
  again.model = "other";
  LlmCallRow interrupted = f.ws.claim_llm_call(again);
  EXPECT_EQ(interrupted.id, first.id);
  EXPECT_EQ(interrupted.status, LlmCallStatus::pending);
  EXPECT_EQ(interrupted.model, "m");

  f.ws.finish_llm_call(answered(interrupted, 800, 200));
  // Killed after the answer: the next claim is a replay of the stored response, nothing is charged again.
  LlmCallRow replay = f.ws.claim_llm_call(sample_call(f.run, "coder"));
  EXPECT_EQ(replay.id, first.id);
  EXPECT_EQ(replay.status, LlmCallStatus::ok);
  EXPECT_EQ(replay.response_json, R"({"choices":[{"message":{"content":"ok"}}]})");
  EXPECT_EQ(f.ws.llm_calls({}).size(), 1u);
  LlmRoleUsage total = f.ws.llm_usage().total();
  EXPECT_EQ(total.calls, 1);
  EXPECT_EQ(total.tokens(), 1000);
  EXPECT_DOUBLE_EQ(total.cost_usd, 1.0);
}

TEST(LlmLedgerCalls, AnotherRequestHashOrSeqIsAnotherCall) {
  Fixture f;
  LlmCallRow a = f.ws.claim_llm_call(sample_call(f.run, "coder", 0, R"({"model":"m","messages":["a"]})"));
  LlmCallRow b = f.ws.claim_llm_call(sample_call(f.run, "coder", 0, R"({"model":"m","messages":["b"]})"));
  LlmCallRow c = f.ws.claim_llm_call(sample_call(f.run, "coder", 1, R"({"model":"m","messages":["a"]})"));
  LlmCallRow d = f.ws.claim_llm_call(sample_call(f.run, "debug", 0, R"({"model":"m","messages":["a"]})"));
  EXPECT_NE(a.request_hash, b.request_hash);
  EXPECT_EQ(a.request_hash, c.request_hash);
  std::set<int64_t> ids{a.id, b.id, c.id, d.id};
  EXPECT_EQ(ids.size(), 4u);
  EXPECT_EQ(f.ws.llm_calls({.role = "coder"}).size(), 3u);
}

TEST(LlmLedgerUsage, TotalsByRoleRunAndProblem) {
  Fixture f;
  int64_t run2 = f.ws.begin_run(sample_run("ucutlass optimize again"));
  f.ws.upsert_problem(sample_problem("p2"));
  f.ws.finish_llm_call(answered(f.ws.claim_llm_call(sample_call(f.run, "nominate", 0)), 100, 10));
  f.ws.finish_llm_call(answered(f.ws.claim_llm_call(sample_call(f.run, "nominate", 1)), 200, 20));
  f.ws.finish_llm_call(failed(f.ws.claim_llm_call(sample_call(f.run, "nominate", 2)), "HTTP 500"));
  LlmCallRow reported = failed(f.ws.claim_llm_call(sample_call(f.run, "triage", 0)), "truncated stream");
  reported.prompt_tokens = 50;  // the server reported usage before the stream broke
  f.ws.finish_llm_call(reported);
  f.ws.claim_llm_call(sample_call(f.run, "triage", 1));  // still pending
  LlmCallRow other = sample_call(run2, "nominate");
  other.problem_id = "p2";
  f.ws.finish_llm_call(answered(f.ws.claim_llm_call(other), 1000, 100));

  LlmUsage run1 = f.ws.llm_usage({.run_id = f.run});
  ASSERT_EQ(run1.roles.size(), 2u);
  const LlmRoleUsage& nominate = run1.roles[0];
  EXPECT_EQ(nominate.role, "nominate");
  EXPECT_EQ(nominate.calls, 3);
  EXPECT_EQ(nominate.failed, 1);
  EXPECT_EQ(nominate.pending, 0);
  EXPECT_EQ(nominate.prompt_tokens, 300);  // the failed call reported none
  EXPECT_EQ(nominate.completion_tokens, 30);
  EXPECT_DOUBLE_EQ(nominate.cost_usd, 0.33);
  const LlmRoleUsage& triage = run1.roles[1];
  EXPECT_EQ(triage.role, "triage");
  EXPECT_EQ(triage.calls, 2);
  EXPECT_EQ(triage.failed, 1);
  EXPECT_EQ(triage.pending, 1);
  EXPECT_EQ(triage.prompt_tokens, 50);
  EXPECT_EQ(run1.total().calls, 5);
  EXPECT_EQ(run1.total().tokens(), 380);

  EXPECT_EQ(f.ws.llm_usage().total().tokens(), 1480);
  EXPECT_EQ(f.ws.llm_usage({.problem_id = "p2"}).total().tokens(), 1100);
  EXPECT_EQ(f.ws.llm_usage({.run_id = f.run, .problem_id = "p2"}).roles.size(), 0u);
  EXPECT_EQ(f.ws.llm_usage({.run_id = f.run, .role = "nominate"}).total().failed, 1);
  EXPECT_EQ(f.ws.llm_calls({.run_id = run2}).size(), 1u);
}

TEST(LlmLedgerUsage, AttemptTokensArePromptPlusCompletionOfItsCalls) {
  Fixture f;
  f.ws.finish_llm_call(answered(f.ws.claim_llm_call(sample_call(f.run, "implement", 0)), 700, 300));
  f.ws.finish_llm_call(answered(f.ws.claim_llm_call(sample_call(f.run, "implement", 1)), 70, 30));
  AttemptRow a = measured(f.ws.claim_attempt(sample_attempt("p1", f.run, "h")), 1.0);
  a.tokens = f.ws.llm_usage({.run_id = f.run, .problem_id = "p1", .iteration = 1, .role = "implement"})
                 .total()
                 .tokens();
  f.ws.finish_attempt(a);
  EXPECT_EQ(f.ws.attempts("p1").front().tokens, 1100);
  f.ws.set_attempt_tokens(a.id, 1500);  // a detector call after the measurement
  EXPECT_EQ(f.ws.attempts("p1").front().tokens, 1500);
  EXPECT_THROW(f.ws.set_attempt_tokens(a.id + 100, 1), WorkspaceError);
}

TEST(LlmLedgerPacks, RecordedOncePerRunByNameAndHash) {
  Fixture f;
  f.ws.add_prompt_pack({f.run, "mantis", "1.2.0", "aaa"});
  f.ws.add_prompt_pack({f.run, "cudamaster", "0.3.0", "bbb"});
  f.ws.add_prompt_pack({f.run, "mantis", "1.2.0", "aaa"});  // a resumed part of the run
  std::vector<PromptPackRow> packs = f.ws.prompt_packs(f.run);
  ASSERT_EQ(packs.size(), 2u);
  EXPECT_EQ(packs[0].name, "cudamaster");
  EXPECT_EQ(packs[1].name, "mantis");
  EXPECT_EQ(packs[1].version, "1.2.0");
  EXPECT_EQ(packs[1].hash, "aaa");
  EXPECT_TRUE(f.ws.prompt_packs(f.run + 1).empty());
}

TEST(LlmLedgerShared, ProcessesClaimEachKeyOnce) {
  TempDir dir;
  std::string path = dir.file("w.db");
  int64_t run = workspace_with_run(path);
  constexpr int kWriters = 3, kCalls = 15;
  in_writer_processes(kWriters, [&](int w) {
    Workspace ws = Workspace::open(path);
    for (int i = 0; i < kCalls; ++i) {
      LlmCallRow c = sample_call(run, "coder", i);
      c.model = "writer-" + std::to_string(w);
      c = ws.claim_llm_call(c);
      if (c.model == "writer-" + std::to_string(w)) ws.finish_llm_call(answered(c, 10, 1));
    }
  });
  LlmRoleUsage total = Workspace::open(path).llm_usage().total();
  EXPECT_EQ(total.calls, kCalls);
  EXPECT_EQ(total.pending, 0);
  EXPECT_EQ(total.tokens(), 11 * kCalls);  // each call charged once
}

/// A copy of the committed schema-3 workspace in `dir`.
std::string schema3_copy(const TempDir& dir) {
  std::string path = dir.file("v3.db");
  std::filesystem::copy_file(ucut::test_paths::source_dir() + "/bench/results/optimize_1e-2_phases/phopt.db",
                             path);
  return path;
}

TEST(LlmLedgerSchema, AVersionThreeWorkspaceIsMigratedInPlace) {
  TempDir dir;
  std::string path = schema3_copy(dir);
  {
    Db file = Db::copy_of(path);
    ASSERT_EQ(stored_schema_version(file), 3);
  }
  size_t attempts_before = 0;
  std::string problem;
  {
    Workspace old = Workspace::open_read_only(path);
    problem = old.problems().front().id;
    attempts_before = old.attempts(problem).size();
  }
  Workspace ws = Workspace::open(path);
  EXPECT_EQ(stored_schema_version(ws.connection()), kSchemaVersion);
  EXPECT_EQ(ws.attempts(problem).size(), attempts_before);
  EXPECT_TRUE(ws.llm_calls().empty());
  int64_t run = ws.runs().back().id;
  LlmCallRow c = sample_call(run, "analyze");
  c.problem_id = problem;
  ws.finish_llm_call(answered(ws.claim_llm_call(c), 5, 5));
  ws.add_prompt_pack({run, "mantis", "1", "h"});
  EXPECT_EQ(ws.llm_usage({.run_id = run}).total().tokens(), 10);
  EXPECT_EQ(ws.prompt_packs(run).size(), 1u);
}

TEST(LlmLedgerSchema, AReadOnlyOpenOfAVersionThreeWorkspaceLeavesItByteForByte) {
  TempDir dir;
  std::string path = schema3_copy(dir);
  std::string before = read_file(path).value();
  {
    Workspace ws = Workspace::open_read_only(path);
    EXPECT_EQ(stored_schema_version(ws.connection()), kSchemaVersion);
    EXPECT_TRUE(ws.llm_usage().roles.empty());
    ws.claim_llm_call(sample_call(ws.runs().back().id, "detector"));  // the in-memory copy takes it
    EXPECT_EQ(ws.llm_calls().size(), 1u);
  }
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"v3.db"});
  Db file = Db::copy_of(path);
  EXPECT_EQ(stored_schema_version(file), 3);
}

TEST(LlmLedgerTransfer, ExportImportKeepsCallsAndPacks) {
  Fixture f;
  f.ws.finish_llm_call(answered(f.ws.claim_llm_call(sample_call(f.run, "planner", 0)), 100, 10));
  LlmCallRow pending = f.ws.claim_llm_call(sample_call(f.run, "coder", 0));
  f.ws.add_prompt_pack({f.run, "cudamaster", "0.3.0", "bbb"});
  TransferCounts out = export_workspace(f.ws, f.dir.file("out.db"));
  EXPECT_EQ(out.llm_calls.added, 2);
  EXPECT_EQ(out.prompt_packs.added, 1);

  // Another workspace with a run of its own first, so the imported run gets another id.
  Workspace b = Workspace::open(f.dir.file("b.db"));
  b.upsert_problem(sample_problem("p1"));
  int64_t own = b.begin_run(sample_run("elsewhere"));
  b.finish_llm_call(answered(b.claim_llm_call(sample_call(own, "planner", 0)), 1, 1));
  TransferCounts in = import_workspace(b, f.dir.file("out.db"));
  EXPECT_EQ(in.llm_calls.added, 2);
  EXPECT_EQ(in.prompt_packs.added, 1);
  int64_t imported = b.runs().back().id;
  ASSERT_NE(imported, f.run);
  std::vector<LlmCallRow> calls = b.llm_calls({.run_id = imported});
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].role, "planner");
  EXPECT_EQ(calls[0].status, LlmCallStatus::ok);
  EXPECT_EQ(calls[0].tokens(), 110);
  EXPECT_EQ(calls[1].status, LlmCallStatus::pending);
  EXPECT_EQ(b.prompt_packs(imported).size(), 1u);
  EXPECT_EQ(b.llm_usage().total().tokens(), 112);

  // The pending call finished in the source after all: a second export replaces the pending copy, once.
  f.ws.finish_llm_call(answered(pending, 40, 4));
  export_workspace(f.ws, f.dir.file("out2.db"));
  TransferCounts again = import_workspace(b, f.dir.file("out2.db"));
  EXPECT_EQ(again.llm_calls.added, 0);
  EXPECT_EQ(again.llm_calls.replaced, 1);
  EXPECT_EQ(again.llm_calls.skipped, 1);
  EXPECT_EQ(again.prompt_packs.skipped, 1);
  EXPECT_EQ(b.llm_calls({.run_id = imported}).size(), 2u);
  EXPECT_EQ(b.llm_usage({.run_id = imported}).total().tokens(), 154);
  EXPECT_EQ(import_workspace(b, f.dir.file("out2.db")).llm_calls.skipped, 2);
}

/// Every byte the workspace left in `dir` (the file and any -wal), as one string.
std::string all_bytes(const TempDir& dir) {
  std::string out;
  for (const std::string& name : files_in(dir.path())) out += read_file(dir.file(name)).value_or("");
  return out;
}

TEST(LlmLedgerSecrets, TheApiKeyNeverReachesTheFile) {
  const std::string key = "sk-ucut-planted-7f3a9c2e41d8b6";
  ::setenv("UCUT_LLM_API_KEY", key.c_str(), 1);
  llm::LlmConfig config;
  config.model = "m";
  llm::Client client(config);  // holds the key, to send it as a bearer token
  ASSERT_FALSE(client.key_origin().empty());
  llm::ChatRequest req;
  req.model = config.model;
  req.messages.push_back(llm::Message::user("plan the kernel"));
  // What the agent stores: the body llm::Client posts (llm/chat.h request_to_json); the key goes in a header.
  std::string body = llm::request_to_json(req).dump();
  {
    Fixture f;
    LlmCallRow c = sample_call(f.run, "planner", 0, body);
    f.ws.finish_llm_call(answered(f.ws.claim_llm_call(c), 10, 10));
    std::string bytes = all_bytes(f.dir);
    ASSERT_NE(bytes.find("plan the kernel"), std::string::npos);  // the scan sees what was stored
    EXPECT_EQ(bytes.find(key), std::string::npos);
  }
  {
    // The scan can fail: a caller that passed the headers would leave the key in the file.
    Fixture f;
    f.ws.claim_llm_call(sample_call(f.run, "planner", 0, "Authorization: Bearer " + key + "\n" + body));
    EXPECT_NE(all_bytes(f.dir).find(key), std::string::npos);
  }
  ::unsetenv("UCUT_LLM_API_KEY");
}

}  // namespace
}  // namespace ucut::store
