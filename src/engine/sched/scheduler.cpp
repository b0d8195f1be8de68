// engine/sched/scheduler.cpp — round-robin turns, attempt accounting and the leave rules.
#include "engine/sched/scheduler.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "support/error.h"

namespace ucut::sched {
namespace {

bool positive(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

std::string_view leave_reason_name(LeaveReason r) {
  switch (r) {
    case LeaveReason::budget:
      return "budget";
    case LeaveReason::near_sol:
      return "near_sol";
    case LeaveReason::no_progress:
      return "no_progress";
    case LeaveReason::exhausted:
      return "exhausted";
    case LeaveReason::model_budget:
      return "model_budget";
  }
  UC_UNREACHABLE() << "LeaveReason " << static_cast<int>(r);
}

bool ProblemState::beats_baseline() const {
  return best_ms && bounds.baseline_ms && *best_ms < *bounds.baseline_ms;
}

Scheduler::Scheduler(Policy policy, std::vector<ProblemBounds> problems) : policy_(policy) {
  std::string error;
  if (!validate_policy(policy_, &error)) throw std::invalid_argument(error);
  for (ProblemBounds& b : problems) {
    if (b.id.empty()) throw std::invalid_argument("scheduler: a problem has an empty id");
    if (!index_.emplace(b.id, problems_.size()).second)
      throw std::invalid_argument(fmt::format("scheduler: problem `{}` is listed twice", b.id));
    if (!positive(b.sol_fp16_ms))
      throw std::invalid_argument(fmt::format(
          "scheduler: problem `{}`: t_SOL must be a positive number, got `{}`", b.id, b.sol_fp16_ms));
    if (b.baseline_ms && !positive(*b.baseline_ms))
      throw std::invalid_argument(fmt::format(
          "scheduler: problem `{}`: baseline must be a positive number, got `{}`", b.id, *b.baseline_ms));
    ProblemState& s = problems_.emplace_back();
    s.bounds = std::move(b);
  }
}

std::optional<std::string> Scheduler::next() const {
  for (std::size_t k = 0; k < problems_.size(); ++k) {
    const ProblemState& s = problems_[(turn_ + k) % problems_.size()];
    if (s.active()) return s.bounds.id;
  }
  return std::nullopt;
}

void Scheduler::record(const std::string& id, const Outcome& outcome) {
  std::size_t i = active_index_of(id, "record an attempt for");
  if (!std::isfinite(outcome.cost) || outcome.cost < 0)
    throw std::invalid_argument(
        fmt::format("scheduler: problem `{}`: cost must be a finite number ≥ 0, got `{}`", id, outcome.cost));
  if (outcome.counts && !positive(outcome.time_ms))
    throw std::invalid_argument(fmt::format(
        "scheduler: problem `{}`: a counting attempt needs a positive time, got `{}`", id, outcome.time_ms));
  ProblemState& s = problems_[i];
  s.attempts += 1;
  s.cost += outcome.cost;
  if (outcome.counts && (!s.best_ms || outcome.time_ms < *s.best_ms)) {
    s.best_ms = outcome.time_ms;
    s.since_improvement = 0;
  } else {
    s.since_improvement += 1;
  }
  s.left = leave_reason(s);
  turn_ = (i + 1) % problems_.size();
}

void Scheduler::exhaust(const std::string& id) {
  std::size_t i = active_index_of(id, "exhaust");
  problems_[i].left = LeaveReason::exhausted;
  turn_ = (i + 1) % problems_.size();
}

void Scheduler::spend(const std::string& id, int64_t tokens, double usd) {
  ProblemState& s = problems_[index_of(id)];
  if (tokens < 0 || !std::isfinite(usd) || usd < 0)
    throw std::invalid_argument(
        fmt::format("scheduler: problem `{}`: model spending must be ≥ 0, got `{}` tokens and `{}` USD", id,
                    tokens, usd));
  s.tokens += tokens;
  s.usd += usd;
  if (model_budget_spent().empty()) return;
  for (ProblemState& p : problems_)
    if (p.active()) p.left = LeaveReason::model_budget;
}

std::string Scheduler::model_budget_spent(int64_t unsent_tokens, double unsent_usd) const {
  int64_t tokens = total_tokens() + unsent_tokens;
  double usd = total_usd() + unsent_usd;
  if (policy_.token_budget && tokens >= *policy_.token_budget)
    return fmt::format("the run's token budget is spent: {} of {} tokens", tokens, *policy_.token_budget);
  if (policy_.usd_budget && usd >= *policy_.usd_budget)
    return fmt::format("the run's USD budget is spent: ${:.4f} of ${:.4f}", usd, *policy_.usd_budget);
  return "";
}

std::optional<LeaveReason> Scheduler::leave_reason(const ProblemState& s) const {
  if (policy_.kind == Policy::Kind::sol && s.beats_baseline()) {
    if (*s.best_ms <= (1 + policy_.eps) * s.bounds.sol_fp16_ms) return LeaveReason::near_sol;
    if (s.since_improvement >= policy_.window) return LeaveReason::no_progress;
  }
  if (s.attempts >= policy_.budget) return LeaveReason::budget;
  return std::nullopt;
}

int64_t Scheduler::total_tokens() const {
  int64_t n = 0;
  for (const ProblemState& s : problems_) n += s.tokens;
  return n;
}

double Scheduler::total_usd() const {
  double c = 0;
  for (const ProblemState& s : problems_) c += s.usd;
  return c;
}

const ProblemState& Scheduler::state(std::string_view id) const { return problems_[index_of(id)]; }

int Scheduler::total_attempts() const {
  int n = 0;
  for (const ProblemState& s : problems_) n += s.attempts;
  return n;
}

double Scheduler::total_cost() const {
  double c = 0;
  for (const ProblemState& s : problems_) c += s.cost;
  return c;
}

std::size_t Scheduler::index_of(std::string_view id) const {
  if (auto it = index_.find(id); it != index_.end()) return it->second;
  throw std::invalid_argument(fmt::format("scheduler: unknown problem `{}`", id));
}

std::size_t Scheduler::active_index_of(const std::string& id, std::string_view action) const {
  std::size_t i = index_of(id);
  if (const auto& left = problems_[i].left)
    throw std::invalid_argument(fmt::format("scheduler: cannot {} problem `{}`: it has left ({})", action, id,
                                            leave_reason_name(*left)));
  return i;
}

}  // namespace ucut::sched
