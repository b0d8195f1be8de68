// engine/mantis/in_prompt.cpp — see in_prompt.h.
#include "engine/mantis/in_prompt.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/mantis/profile_stage.h"
#include "llm/schema_check.h"
#include "support/files.h"

namespace ucut::mantis {

namespace {

/// The fastest counting time among the problem's attempts claimed before attempt `id`.
std::optional<double> best_before(store::Workspace& ws, const std::string& problem_id, int64_t id) {
  std::optional<double> best;
  for (const store::AttemptRow& a : ws.attempts(problem_id))
    if (a.id < id && a.counts() && (!best || *a.time_ms < *best)) best = a.time_ms;
  return best;
}

const llm::ToolSpec* find_tool(const std::vector<llm::ToolSpec>& tools, const std::string& name) {
  auto it = std::find_if(tools.begin(), tools.end(), [&](const llm::ToolSpec& t) { return t.name == name; });
  return it == tools.end() ? nullptr : &*it;
}

std::string tool_names(const std::vector<llm::ToolSpec>& tools) {
  std::vector<std::string> names;
  for (const llm::ToolSpec& t : tools) names.push_back(t.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::string run_reply_text(const store::AttemptRow& a, std::optional<double> best_before_ms, int runs) {
  nlohmann::json j = {
      {"attempt", a.id},
      {"status", a.status},
      {"correct", a.correct},
      {"time_ms", a.time_ms ? nlohmann::json(*a.time_ms) : nlohmann::json(nullptr)},
      {"flags", a.flags},
      {"counts", a.counts()},
      {"best_before_ms", best_before_ms ? nlohmann::json(*best_before_ms) : nlohmann::json(nullptr)},
      {"attempts_spent", runs}};
  if (!a.error.empty()) j["error"] = a.error;
  if (a.counts() && best_before_ms) j["speedup_over_best"] = *best_before_ms / *a.time_ms;
  return j.dump();
}

InPrompt::InPrompt(store::Workspace& ws, engine::Executor& executor, engine::ModelLedger& ledger,
                   int64_t run_id, InPromptOptions options)
    : ws_(ws), executor_(executor), ledger_(ledger), run_id_(run_id), options_(std::move(options)) {}

InPrompt::Conversation& InPrompt::conversation(const Subject& s) {
  auto it = conversations_.find(s.row.id);
  if (it != conversations_.end()) return it->second;
  Conversation c;
  // Keyed by the run that began the conversation: a resumed run replays it from the ledger.
  std::vector<store::LlmCallRow> earlier = ws_.llm_calls({.problem_id = s.row.id, .role = "controller"});
  c.site = {earlier.empty() ? run_id_ : earlier.front().run_id, s.row.id, 1, "controller"};
  c.messages = options_.opening(s);
  return conversations_.emplace(s.row.id, std::move(c)).first->second;
}

std::string InPrompt::wrong_problem(const Subject& s, const nlohmann::json& args) const {
  std::string named = args.value("problem", "");
  if (named == s.row.id || named == s.row.path) return "";
  return fmt::format("this conversation optimizes {}; `run` and `profile` take it as their problem, not `{}`",
                     s.row.id, named);
}

ToolReply InPrompt::run(const Subject& s, Conversation& c, const nlohmann::json& args,
                        const AttemptCallback& on_attempt, IterationResult& out, bool& measured) {
  if (std::string why = wrong_problem(s, args); !why.empty()) return {true, why};
  if (out.stopped || out.needs_gpu)
    return {true, "not run: this problem's turn is over (its budget is spent or the machine cannot time)"};
  std::string spec = args.at("spec").get<std::string>();
  std::string config_hash = engine::spec_config_hash(spec);
  if (config_hash.empty()) {
    ToolReply check = options_.call_tool("check", {{"spec", spec}});
    return {true, "not run (no attempt spent): the spec has errors.\n" + check.text};
  }
  store::AttemptRow a;
  a.problem_id = s.row.id;
  a.run_id = run_id_;
  a.iteration = 1;
  a.proposer = options_.proposer;
  a.spec = spec;
  a.config_hash = config_hash;
  a.created = utc_now();
  a = ws_.claim_attempt(a);
  ++c.runs;
  bool first_time = c.seen.insert(a.id).second;
  std::optional<double> best = best_before(ws_, s.row.id, a.id);
  if (a.status != store::AttemptStatus::pending) {
    // Measured before: by this conversation before a kill (a replay: the calls that led to it were attributed
    // to it then), or the model repeated a config.
    if (first_time) c.unattributed = 0;
    std::string text = run_reply_text(a, best, c.runs);
    if (!first_time)
      text += fmt::format("\n(the same config as your earlier attempt #{}: nothing new was measured)", a.id);
    return {false, text};
  }
  // The calls since the last attempt produced this one; recorded at once, so a kill before it is measured
  // keeps the attribution.
  a.tokens = c.unattributed;
  ws_.set_attempt_tokens(a.id, a.tokens);
  c.unattributed = 0;
  engine::CandidateOutcome o = executor_.measure(spec, s.harness);
  if (o.needs_gpu) {
    out.needs_gpu = true;
    out.waiting_build_seconds = o.build_seconds;
    out.note = o.error;
    return {true, "cannot time on this machine: " + o.error};
  }
  a.run_id = run_id_;
  engine::store_outcome(o, a);
  a.code_hash = engine::spec_code_hash(spec);
  ws_.finish_attempt(a);
  ++out.attempts;
  measured = true;
  if (on_attempt && !on_attempt(a)) out.stopped = true;
  return {false, run_reply_text(a, best, c.runs)};
}

ToolReply InPrompt::profile(const Subject& s, const nlohmann::json& args) {
  if (std::string why = wrong_problem(s, args); !why.empty()) return {true, why};
  std::string config_hash = engine::spec_config_hash(args.at("spec").get<std::string>());
  std::vector<store::AttemptRow> attempts = ws_.attempts(s.row.id);
  auto it = std::find_if(attempts.begin(), attempts.end(), [&](const store::AttemptRow& a) {
    return !config_hash.empty() && a.config_hash == config_hash && a.counts();
  });
  if (it == attempts.end())
    return {true, "profile reads a spec you have run and the harness verified: `run` it first"};
  // Profiled once per config and stored as a measure stage, so that a replay reads the same numbers back.
  BestProfile p = profile_best(ws_, executor_, run_id_, s, *it);
  if (!p.reused) {
    store::StageRow st;
    st.run_id = run_id_;
    st.problem_id = s.row.id;
    st.iteration = it->iteration;
    st.stage = store::Stage::measure;
    st.json = nlohmann::json{{"profile", best_profile_json(p)}}.dump();
    ws_.add_stage(st);
  }
  const engine::ProfileOutcome& o = p.outcome;
  if (!o.counters) return {true, "no profile counters: " + o.reason};
  return {false,
          nlohmann::json{{"bottleneck", o.bottleneck}, {"reason", o.reason}, {"report", o.report}}.dump()};
}

ToolReply InPrompt::answer(const Subject& s, Conversation& c, const llm::ToolCall& call,
                           const AttemptCallback& on_attempt, IterationResult& out, bool& measured) {
  const llm::ToolSpec* tool = find_tool(options_.tools, call.name);
  if (!tool)
    return {true,
            fmt::format("there is no tool `{}`; the tools are {}", call.name, tool_names(options_.tools))};
  if (!call.arguments_ok())
    return {true, fmt::format("the arguments of `{}` are not valid JSON ({}): send one JSON object",
                              call.name, call.arguments_error)};
  if (auto violation = llm::schema_violation(tool->parameters, *call.parsed_arguments))
    return {true, fmt::format("the arguments of `{}` do not fit its schema: {}", call.name, *violation)};
  if (call.name == "run") return run(s, c, *call.parsed_arguments, on_attempt, out, measured);
  if (call.name == "profile") return profile(s, *call.parsed_arguments);
  return options_.call_tool(call.name, *call.parsed_arguments);
}

IterationResult InPrompt::step(const Subject& s, const AttemptCallback& on_attempt) {
  IterationResult out;
  out.iteration = 1;
  Conversation& c = conversation(s);
  auto end = [&](std::string why) {
    c.over = true;
    c.why_over = std::move(why);
    out.exhausted = true;
    out.note = c.why_over;
    return out;
  };
  if (c.over) return end(c.why_over);
  for (int fresh = 0;;) {
    if (fresh >= options_.max_calls_per_turn)
      return end(fmt::format("the controller made {} calls without running a new candidate", fresh));
    llm::ChatRequest request;
    request.messages = c.messages;
    request.tools = options_.tools;
    engine::LedgerReply r = ledger_.call(c.site, c.next_seq, request);
    c.next_seq = r.seq + 1;
    if (!r.replayed) ++fresh;
    c.unattributed += r.tokens;
    if (!r.ok()) return end("the controller's model call failed: " + r.error);
    if (r.response->refusal) return end("the model refused: " + *r.response->refusal);
    const llm::Message& said = r.response->message;
    c.messages.push_back({llm::Role::kAssistant, said.content, said.tool_calls, {}});
    if (said.tool_calls.empty())
      return end(
          fmt::format("the controller ended the conversation: {}", said.content.value_or("").substr(0, 300)));
    bool measured = false;
    for (const llm::ToolCall& call : said.tool_calls) {
      ToolReply reply = answer(s, c, call, on_attempt, out, measured);
      c.messages.push_back(
          llm::Message::tool_result(call.id, reply.is_error ? "error: " + reply.text : reply.text));
    }
    if (measured || out.needs_gpu || out.stopped) return out;
  }
}

}  // namespace ucut::mantis
