// engine/mantis/model_phases.h — the six MANTIS phases asked of a language model, one function each: render
// the phase's template of the mantis pack (prompts/mantis/<phase>.md) with its slots, ask for one JSON object
// valid against the phase's schema (engine::ask_json: recorded in the ledger, replayed on resume, invalid
// answers sent back a bounded number of times) and return the answer typed. What the slots hold comes from
// engine/mantis/briefings.h; what the loop does with the answers, from engine/mantis/loop.h.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/model_ledger.h"
#include "sol/bottleneck.h"

namespace ucut::mantis {

/// Where a phase's calls go. `site.role` is the phase's name.
struct PhaseCall {
  engine::ModelLedger& ledger;
  engine::CallSite site;
  int repairs = 2;    // invalid answers sent back before the phase fails
  int first_seq = 0;  // Implement asks several times under one site
};

/// A phase's answer, or why there is none (a failed call, a refusal, an answer still invalid after the
/// repairs).
template <typename T>
struct PhaseAnswer {
  std::optional<T> value;
  std::string error;
  nlohmann::json json;  // the valid answer as the model wrote it (stored with the stage)
  int calls = 0;
  int64_t tokens = 0;  // of those calls, replayed ones included (they were charged once)
  int next_seq = 0;
};

struct MeasureSlots {
  std::string problem, history, best;
  bool profiler = false;  // whether the best attempt may be profiled in this run
};
struct MeasureDecision {
  bool profile = false;
  std::string reason;
};
PhaseAnswer<MeasureDecision> ask_measure(const PhaseCall& call, const MeasureSlots& slots);

struct AnalyzeSlots {
  std::string problem, sol, profile, best;
};
struct Analysis {
  sol::Bottleneck bottleneck = sol::Bottleneck::unknown;
  std::vector<std::string> evidence;
  std::string headroom;
};
PhaseAnswer<Analysis> ask_analyze(const PhaseCall& call, const AnalyzeSlots& slots);

struct NominateSlots {
  std::string problem, analysis, best, lessons;
  int count = 6;  // hypotheses asked for; more are cut to this many
};
struct ModelHypothesis {
  std::string change, causal_link;
  double predicted_speedup = 1, risk_impl = 1, risk_perf = 1;
};
PhaseAnswer<std::vector<ModelHypothesis>> ask_nominate(const PhaseCall& call, const NominateSlots& slots);

struct TriageSlots {
  std::string problem, gap, hypotheses;
  int keep = 2;       // how many the prompt asks to keep
  int nominated = 0;  // valid indices are 0 .. nominated-1
};
struct TriageChoice {
  std::vector<int> keep;  // nomination indices, best first, distinct and in range
  std::string override_reason;
};
/// An index out of range or given twice is an invalid answer: it goes back for repair.
PhaseAnswer<TriageChoice> ask_triage(const PhaseCall& call, const TriageSlots& slots);

struct ImplementSlots {
  std::string system;  // the dsl pack's system prompt (briefings.h dsl_system_prompt)
  std::string problem, hypothesis, best, feedback;
  int attempts = 4;
};
struct Implementation {
  std::vector<std::string> specs;
  std::string notes;
};
PhaseAnswer<Implementation> ask_implement(const PhaseCall& call, const ImplementSlots& slots);

struct SummarizeSlots {
  std::string problem, outcomes;
  std::set<int> hypotheses;  // the indices `outcomes` lists: a lesson must name one of them, at most once
};
struct ModelLesson {
  int hypothesis = 0;
  std::string text;
};
PhaseAnswer<std::vector<ModelLesson>> ask_summarize(const PhaseCall& call, const SummarizeSlots& slots);

/// The checker's verdict on a spec a model wrote (compiler/pipeline.h, as the `check` tool runs it): "" when
/// it checks clean, else one line per diagnostic: line:col, rule id, message and hint.
std::string check_diagnostics(const std::string& spec);

}  // namespace ucut::mantis
