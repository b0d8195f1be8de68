// engine/mantis/loop.h — one MANTIS iteration on one problem, as explicit stages whose inputs and outputs are
// stored in the workspace (StageRow): Measure (the best attempt so far, profiled once with Nsight Compute:
// engine/mantis/profile_stage.h; the seed spec on the first iteration), Analyze (gap g to the TF32 speed of light,
// bottleneck class from the profile's counters, else from the roofline position), Nominate (the proposer's hypotheses, each with a
// causal link to the bottleneck and a predicted speedup), Triage (ROI ranking, engine/mantis/triage.h), Implement
// (every chosen candidate compiles ahead, from when its iteration was planned, possibly while other problems were
// measured: plan_ahead; then each is verified and timed, a fixed number per hypothesis) and Summarize
// (expected vs measured speedup per hypothesis, stored as lessons that later problems of the same family, shape
// class and arch retrieve). Triage, Summarize, the SOL gap and profiling can be switched off for ablations.
//
// Everything is in the workspace as it happens, so a run killed at any moment resumes: measured attempts are
// never repeated (the workspace keys them by problem and config hash), and an attempt left pending by the kill is
// measured again first.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/executor.h"
#include "engine/mantis/model_context.h"
#include "engine/search/proposer.h"
#include "problem/problem.h"
#include "store/workspace.h"

// With a model (Options::agent = orchestrated) each phase is one model call (engine/mantis/model_phases.h),
// and the stages store the model's answers beside what the loop did with them: Measure asks whether to
// profile the best attempt (profiled only when the model says so and profiling is on), Analyze names the
// bottleneck from the SOL briefing and the profile view, Nominate writes the hypotheses, Triage keeps some of
// them after the ROI ranking, Implement writes specs per kept hypothesis (each checked by the compiler; those
// with errors go back with their diagnostics for up to `repairs` rounds; configs already measured are
// skipped), and Summarize turns prediction vs measurement into lessons. A phase that fails (a failed call, a
// refusal, an answer invalid after the repairs, a spent budget) ends the iteration with a note naming the
// problem, the iteration and the phase; nothing measured is lost and the next run resumes the iteration. Such
// an iteration is not planned ahead (plan_ahead): a plan dropped when the run ends would have spent calls for
// nothing.
//
// Resuming a model's iteration: its prompts are functions of the workspace as of the iteration's start (the
// attempts of earlier iterations, the lessons stored before it began), so a resumed iteration asks the same
// words and the ledger replays every call it recorded. The calls are keyed with the run that began the
// iteration (named in the iteration's first measure stage, stored before its first call), not the run
// resuming it. An iteration is open until its summarize stage is stored without an error: next_iteration
// resumes it.
//
// Tokens: an attempt of a model's iteration carries its hypothesis's Implement calls split evenly over that
// hypothesis's attempts, plus the iteration's shared calls (Measure, Analyze, Nominate, Triage, Summarize,
// and the Implement calls of hypotheses left without an attempt) split evenly over all the iteration's
// attempts; a remainder goes one token each to the first attempts in claim order. So the attempts' tokens add
// up to the iteration's calls (replayed calls included: they were charged once). Before Summarize each
// attempt carries its share of the calls so far; Summarize's share is added after it. Calls of an iteration
// that ends with no attempt (a failed phase, nothing new to measure) are on no attempt: they stay in the
// ledger and the budget.

namespace ucut::mantis {

/// Who nominates candidates: the built-in proposer, or the baselines it is compared with (uniformly random valid
/// configs of the same space, `hypotheses × attempts` per iteration; every valid config of the space at once).
enum class Search { proposer, random, exhaustive };
std::string_view search_name(Search s);
/// "proposer" | "random" | "exhaustive"; nullopt otherwise.
std::optional<Search> parse_search(std::string_view name);

struct Options {
  int iterations = 5;   // per problem (the first measures the seed spec, then `iterations` MANTIS iterations)
  int hypotheses = 2;   // Triage keeps this many per iteration
  int attempts = 4;     // candidates implemented per hypothesis
  int nominate = 6;     // hypotheses Nominate asks the proposer for
  bool triage = true;      // off: the proposer's order, no ROI ranking
  bool summarize = true;   // off: no lessons stored or retrieved
  bool sol = true;         // off: Analyze reports no gap (g = 0), so Triage's exponent is 1 and the proposer is not steered by it
  bool profile = true;     // off: Measure does not profile the best attempt; Analyze keeps the roofline position
  uint64_t seed = 1;
  Search search = Search::proposer;
  std::vector<std::string> knobs;  // the knobs the search may move (search::knob_names); empty: all
  Agent agent = Agent::none;       // orchestrated: `model` plans each iteration (`search` is not used)
  ModelContext model;
};

/// A problem as MANTIS works on it.
struct Subject {
  store::ProblemRow row;
  Problem harness;                  // the harness problem candidates are measured on
  std::string seed_spec;            // the first attempt
  sol::Bottleneck roofline_bottleneck = sol::Bottleneck::unknown;  // its side of the roofline
  double conversion_ms = 0;         // converting its f32 A and B to 16 bits once at DRAM bandwidth (0: not f32)
};

struct IterationResult {
  int iteration = 0;
  int attempts = 0;        // attempts measured in this call (resumed ones included)
  bool exhausted = false;  // the proposer had nothing new: the problem is done
  bool needs_gpu = false;  // a measurement needed a GPU this machine lacks; its attempt stays pending
  double waiting_build_seconds = 0;  // compiling that pending attempt
  bool stopped = false;    // the caller's on_attempt asked to stop
  std::string note;
};

/// Sees each finished attempt; returning false stops the iteration (the scheduler took the problem off).
using AttemptCallback = std::function<bool(const store::AttemptRow&)>;

class Loop {
 public:
  Loop(store::Workspace& ws, engine::Executor& executor, int64_t run_id, Options options);

  /// Measures the seed spec when the problem has no attempt yet, else runs the next MANTIS iteration; first it
  /// re-measures any attempt of the problem a kill left pending.
  IterationResult step(const Subject& s, const AttemptCallback& on_attempt);

  /// What `step` does first, on its own: measures every attempt of the problem a kill left pending (and, once
  /// per run, re-queues those measured with other emitted code than their spec emits today), then the seed
  /// spec when the problem has no attempt. Another source of attempts (the in-prompt controller) starts its
  /// turns with it.
  IterationResult resume(const Subject& s, const AttemptCallback& on_attempt);

  /// The iteration `step` would run next: 0 (the seed) when the problem has no attempt.
  int next_iteration(const std::string& problem_id);
  /// Runs Measure, Analyze, Nominate and Triage of `s`'s next MANTIS iteration now and starts compiling its
  /// chosen candidates (Executor::prebuild), so that several problems' candidates compile while another
  /// problem is measured; `step` then implements and summarizes that plan. Nothing for the seed iteration, a
  /// problem with a pending attempt, one whose next iteration is already planned, or a model's iteration. The
  /// plan sees the lessons stored so far.
  void plan_ahead(const Subject& s);
  /// Marks the chosen hypotheses of every plan `step` has not implemented as dropped (their problems left) and
  /// forgets the plans.
  void drop_plans();

 private:
  /// An iteration up to Implement: where it started, what was nominated and what Triage chose.
  struct Plan {
    int iteration = 0;
    std::optional<store::AttemptRow> best;
    double gap = 0;
    std::vector<search::Proposal> proposals;
    std::vector<store::HypothesisRow> ranked;
    std::set<int64_t> chosen;
    std::string note;  // why there is nothing to implement, when proposals is empty
    // A model's plan (Options::agent):
    std::string failed;            // the phase that failed and why: the iteration ends here
    int64_t call_run = 0;          // its calls' key: the run that began the iteration
    std::map<int64_t, int> index;  // hypothesis id → its number in Nominate's answer (what prompts call it)
    int64_t shared_tokens = 0;     // Measure, Analyze, Nominate, Triage
    std::map<int64_t, int64_t> implement_tokens;  // by hypothesis
    std::vector<int64_t> candidate_tokens;        // each chosen candidate's share so far, in claim order
    nlohmann::json implement_log = nlohmann::json::array();  // Implement's answers and the checker's verdicts
  };
  Plan make_plan(const Subject& s, int iteration);
  // The model's iteration (engine/mantis/model_loop.cpp).
  Plan make_model_plan(const Subject& s, int iteration);
  void implement_with_model(const Subject& s, Plan& plan, const std::vector<store::AttemptRow>& before);
  void summarize_with_model(const Subject& s, Plan& plan,
                            const std::map<int64_t, std::vector<store::AttemptRow>>& by_hypothesis,
                            IterationResult& out);
  int next_model_iteration(const std::string& problem_id, int last_attempted);
  std::string proposer_name() const;
  bool has_pending(const std::string& problem_id);
  /// The lesson Summarize stores for measured hypothesis `h` of `s` (`created` left for add_lesson: now).
  static store::LessonRow lesson(const Subject& s, const store::HypothesisRow& h, std::string text,
                                 int64_t run_id);
  /// Marks pending the problem's attempts measured with other emitted code than their spec emits today.
  void requeue_stale(const std::string& problem_id);

  bool measure_into(store::AttemptRow& a, const Subject& s, IterationResult& out, const AttemptCallback& cb);
  void stage(const Subject& s, int iteration, store::Stage name, const nlohmann::json& j);

  store::Workspace& ws_;
  engine::Executor& executor_;
  int64_t run_id_;
  Options options_;
  std::set<std::string> stale_checked_;  // problems whose attempts this run has checked against today's code
  std::map<std::string, Plan> plans_;  // by problem: a planned iteration step has not implemented yet
};

}  // namespace ucut::mantis
