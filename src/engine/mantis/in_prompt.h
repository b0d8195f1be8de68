// engine/mantis/in_prompt.h — MANTIS in its in-prompt form (`optimize --agent in-prompt`): one controller
// conversation per problem that follows the method through the tool table (prompts/mantis/in_prompt.md),
// instead of one model call per phase. The model's `run` calls are the problem's attempts: each is claimed in
// the workspace, measured by the engine's executor (the same check → build → verify → time → integrity path
// as the built-in proposer's) and charged to the scheduler; `profile` goes through the executor too. Every
// other tool of the table (check, compile, sol, problem, lessons) is answered by the caller's handler
// (agent/tools.h, a floor up).
//
// A scheduler turn continues the conversation until one new attempt is measured, the model ends it (an answer
// without tool calls), a call fails, or `max_calls_per_turn` calls bring no attempt; the conversation stays
// in memory between turns. Resuming after a kill needs no state of its own: the conversation is asked again
// from its first call, the ledger (engine/model_ledger.h) answers every recorded call without sending it, and
// a `run` of a spec already measured answers from its stored attempt without measuring again. So every prompt
// and every tool answer is a function of the workspace as the conversation saw it: the system prompt states
// the budget, not what is left of it, and a `run` answer is built from the stored attempt, never from the
// live outcome.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "engine/executor.h"
#include "engine/mantis/loop.h"
#include "engine/model_ledger.h"
#include "llm/chat.h"
#include "store/workspace.h"

namespace ucut::mantis {

/// A tool's answer as the model reads it.
struct ToolReply {
  bool is_error = false;
  std::string text;
};

struct InPromptOptions {
  /// The tool table as the model sees it (agent/tools.h's rows): `run` and `profile` among them, answered
  /// here.
  std::vector<llm::ToolSpec> tools;
  /// Answers every other tool; an unknown name or arguments that break the schema come back as an error
  /// reply.
  std::function<ToolReply(const std::string& name, const nlohmann::json& arguments)> call_tool;
  /// The conversation's opening turns for a problem (the controller prompt and the DSL pack): fixed per
  /// problem and run settings, so that a resumed run asks the same words.
  std::function<std::vector<llm::Message>(const Subject&)> opening;
  std::string proposer = "model";  // the attempts' proposer column, e.g. "model:qwen2.5-coder"
  int max_calls_per_turn = 16;     // model calls without a new attempt before the problem is retired
  int trials = 0;                  // timed runs per `run` (0: the executor's)
};

class InPrompt {
 public:
  InPrompt(store::Workspace& ws, engine::Executor& executor, engine::ModelLedger& ledger, int64_t run_id,
           InPromptOptions options);

  /// Continues `s`'s conversation until one new attempt is measured (reported through `on_attempt`), or the
  /// conversation ends (`exhausted`, with the reason in `note`). The seed attempt and attempts a kill left
  /// pending are the Loop's (Loop::step measures them first).
  IterationResult step(const Subject& s, const AttemptCallback& on_attempt);

 private:
  struct Conversation {
    std::vector<llm::Message> messages;
    engine::CallSite site;
    int next_seq = 0;
    int runs = 0;              // `run` calls that claimed an attempt so far (replayed ones included)
    std::set<int64_t> seen;    // the attempts its `run` calls claimed
    int64_t unattributed = 0;  // tokens of calls since the last attempt, charged to the next one
    bool over = false;
    std::string why_over;
  };
  Conversation& conversation(const Subject& s);
  /// Answers one tool call; sets `measured` when a `run` measured a new attempt.
  ToolReply answer(const Subject& s, Conversation& c, const llm::ToolCall& call,
                   const AttemptCallback& on_attempt, IterationResult& out, bool& measured);
  ToolReply run(const Subject& s, Conversation& c, const nlohmann::json& args,
                const AttemptCallback& on_attempt, IterationResult& out, bool& measured);
  ToolReply profile(const Subject& s, const nlohmann::json& args);
  /// The problem a `run` or `profile` names must be the conversation's; "" when it is, else the error.
  std::string wrong_problem(const Subject& s, const nlohmann::json& args) const;

  store::Workspace& ws_;
  engine::Executor& executor_;
  engine::ModelLedger& ledger_;
  int64_t run_id_;
  InPromptOptions options_;
  std::map<std::string, Conversation> conversations_;  // by problem
};

/// The text a `run` answers with, from the stored attempt alone: status, correctness, time, flags, error, the
/// best time before it and the attempts spent.
std::string run_reply_text(const store::AttemptRow& a, std::optional<double> best_before_ms, int runs);

}  // namespace ucut::mantis
