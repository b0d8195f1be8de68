// engine/sched/policy.h — how much the optimizer may spend on each problem: a fixed attempt budget, or the
// SOL-aware policy that lets a problem leave early (the rules themselves live in engine/sched/scheduler.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ucut::sched {

/// A spending policy. `budget` caps the attempts per problem under both kinds; `fixed` spends all of it,
/// `sol` lets a problem leave once it is within (1+eps)·t_SOL and beats the baseline, or once it beats the
/// baseline and `window` attempts in a row brought no improvement. `eps` and `window` mean nothing to
/// `fixed`. `token_budget` and `usd_budget` cap the model calls of the whole run (all problems together)
/// under both kinds; unset, the calls are not capped.
struct Policy {
  enum class Kind { fixed, sol };
  Kind kind = Kind::fixed;
  double eps = 0.1;
  int window = 8;
  int budget = 40;  // DESIGN §6: 5 iterations × 2 hypotheses × 4 attempts
  std::optional<int64_t> token_budget;  // prompt + completion tokens
  std::optional<double> usd_budget;     // at the llm config's prices

  bool operator==(const Policy&) const = default;
};

/// A fixed policy spending `budget` attempts per problem.
Policy fixed_policy(int budget);
/// A SOL-aware policy.
Policy sol_policy(double eps, int window, int budget);

/// "fixed" or "sol:eps=0.1,window=8" (numbers in their shortest round-trip form). The budget is not part
/// of the text: it comes from its own option.
std::string print_policy(const Policy& p);

/// Parses the print_policy form. "sol" alone takes eps=0.1, window=8; the keys may come in any order, each
/// at most once. The result is validated. On failure returns nullopt and sets `error`.
std::optional<Policy> parse_policy(std::string_view text, int budget, std::string* error);

/// Checks budget ≥ 1, a token budget ≥ 1 and a finite USD budget > 0 when set, and, for `sol`, a finite
/// eps ≥ 0 and window ≥ 1. On failure sets `error`.
bool validate_policy(const Policy& p, std::string* error);

}  // namespace ucut::sched
