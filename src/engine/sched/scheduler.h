// engine/sched/scheduler.h — the budget scheduler of `ucutlass optimize`: round-robin over a workspace of
// problems, and the one place the leave rules live (replay.h drives the same class over recorded runs).
//
// Leave rules, checked after every recorded attempt, first match wins:
//   near_sol     policy `sol`, t_best ≤ (1+eps)·t_SOL(FP16) and t_best < baseline
//   no_progress  policy `sol`, t_best < baseline and the last `window` attempts did not improve t_best
//   budget       `budget` attempts used (both policies)
// and, on the caller's word (exhaust()), `exhausted`: nothing left to try. A problem without a baseline never
// "beats the baseline", so it never leaves by near_sol or no_progress: only by budget or exhausted.
// Model spending is charged by spend(), per call rather than per attempt (a model's calls come before the
// attempts they produce): once the run's total reaches Policy::token_budget or usd_budget, every active
// problem leaves at once with `model_budget`.
//
// Resuming: the state is a function of the sequence of record(), exhaust() and spend() calls alone; next()
// reads it and changes nothing. A restarted run constructs the Scheduler with the same policy and problems,
// feeds the stored outcomes through record() (and exhaust() events) in the order they happened and each
// problem's recorded model calls through spend(), and is then in the state of the run it replaces, including
// whose turn it is.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/sched/policy.h"

namespace ucut::sched {

/// What the scheduler knows about a problem before any attempt.
struct ProblemBounds {
  std::string id;
  double sol_fp16_ms = 0;             // the FP16 speed-of-light time, > 0
  std::optional<double> baseline_ms;  // PyTorch eager; absent when it was not measured

  bool operator==(const ProblemBounds&) const = default;
};

/// One attempt's result. `counts` is false for failed, incorrect or integrity-flagged attempts: they use
/// budget and cost but never improve t_best (their time_ms is ignored). `cost` is in the caller's unit
/// (attempts, GPU-seconds, tokens).
struct Outcome {
  bool counts = false;
  double time_ms = 0;
  double cost = 0;
};

enum class LeaveReason { budget, near_sol, no_progress, exhausted, model_budget };

/// "budget", "near_sol", "no_progress", "exhausted", "model_budget".
std::string_view leave_reason_name(LeaveReason r);

/// One problem's progress.
struct ProblemState {
  ProblemBounds bounds;
  int attempts = 0;
  double cost = 0;
  int64_t tokens = 0;  // model spending charged by spend()
  double usd = 0;
  std::optional<double> best_ms;  // the fastest counting attempt
  int since_improvement = 0;      // attempts since t_best last improved (or since the start)
  std::optional<LeaveReason> left;

  bool active() const { return !left; }
  /// t_best < baseline; false without a baseline or a counting attempt.
  bool beats_baseline() const;
  bool operator==(const ProblemState&) const = default;
};

class Scheduler {
 public:
  /// Throws std::invalid_argument on an invalid policy, an empty or repeated id, a t_SOL that is not a
  /// positive number or a baseline that is not.
  Scheduler(Policy policy, std::vector<ProblemBounds> problems);

  /// The problem whose turn it is: the first active one after the problem last recorded or exhausted, in
  /// construction order, wrapping around (the first problem at the start). nullopt once all have left.
  std::optional<std::string> next() const;

  /// Charges one attempt to `id` and applies the leave rules. Throws std::invalid_argument for an unknown
  /// id, a problem that has left, a negative or non-finite cost, or a counting outcome whose time is not a
  /// positive number.
  void record(const std::string& id, const Outcome& outcome);

  /// `id` leaves with reason `exhausted` (the caller has nothing more to try). Throws like record().
  void exhaust(const std::string& id);

  /// Charges model calls made for `id`: `tokens` and `usd` add to its spending and to the run's. When the
  /// run's total reaches a model budget of the policy, every active problem leaves with `model_budget`. A
  /// problem that has left may still be charged (its calls were made before). Throws std::invalid_argument
  /// for an unknown id or a negative or non-finite amount.
  void spend(const std::string& id, int64_t tokens, double usd);

  /// Why the run may make no further model call, e.g. "the run's token budget is spent: 1200 of 1000 tokens":
  /// its token or USD budget is reached, counting `unsent_tokens` and `unsent_usd` spent but not charged yet.
  /// "" while a call may be made, and always without a model budget.
  std::string model_budget_spent(int64_t unsent_tokens = 0, double unsent_usd = 0) const;

  /// Throws std::invalid_argument for an unknown id.
  const ProblemState& state(std::string_view id) const;
  /// Every problem, in construction order.
  const std::vector<ProblemState>& problems() const { return problems_; }
  const Policy& policy() const { return policy_; }
  bool done() const { return !next(); }
  int total_attempts() const;
  double total_cost() const;
  int64_t total_tokens() const;
  double total_usd() const;

 private:
  std::size_t index_of(std::string_view id) const;
  std::size_t active_index_of(const std::string& id, std::string_view action) const;
  std::optional<LeaveReason> leave_reason(const ProblemState& s) const;

  Policy policy_;
  std::vector<ProblemState> problems_;
  std::map<std::string, std::size_t, std::less<>> index_;  // id → position in problems_
  std::size_t turn_ = 0;                                   // where next() starts looking
};

}  // namespace ucut::sched
