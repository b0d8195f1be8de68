// engine/sched/policy.cpp — building, printing, parsing and validating scheduler policies.
#include "engine/sched/policy.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace ucut::sched {
namespace {

bool fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

template <typename T>
bool parse_number(std::string_view text, T* out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && ptr == end && !text.empty();
}

// Parses "eps=…,window=…" into `p`.
bool parse_sol_keys(std::string_view text, std::string_view keys, Policy* p, std::string* error) {
  if (keys.empty()) return fail(error, fmt::format("policy `{}`: expected `key=value` after `:`", text));
  bool seen_eps = false, seen_window = false;
  while (!keys.empty()) {
    std::size_t comma = keys.find(',');
    std::string_view item = keys.substr(0, comma);
    keys = comma == std::string_view::npos ? std::string_view() : keys.substr(comma + 1);
    if (comma != std::string_view::npos && keys.empty())
      return fail(error, fmt::format("policy `{}`: trailing `,`", text));
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return fail(error, fmt::format("policy `{}`: expected `key=value`, got `{}`", text, item));
    std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "eps") {
      if (seen_eps) return fail(error, fmt::format("policy `{}`: `eps` given twice", text));
      seen_eps = true;
      if (!parse_number(value, &p->eps))
        return fail(error, fmt::format("policy `{}`: `eps` must be a number, got `{}`", text, value));
    } else if (key == "window") {
      if (seen_window) return fail(error, fmt::format("policy `{}`: `window` given twice", text));
      seen_window = true;
      if (!parse_number(value, &p->window))
        return fail(error, fmt::format("policy `{}`: `window` must be an integer, got `{}`", text, value));
    } else {
      return fail(error, fmt::format("policy `{}`: unknown key `{}`; expected `eps` or `window`", text, key));
    }
  }
  return true;
}

}  // namespace

Policy fixed_policy(int budget) {
  Policy p;
  p.budget = budget;
  return p;
}

Policy sol_policy(double eps, int window, int budget) {
  Policy p;
  p.kind = Policy::Kind::sol;
  p.eps = eps;
  p.window = window;
  p.budget = budget;
  return p;
}

std::string print_policy(const Policy& p) {
  if (p.kind == Policy::Kind::fixed) return "fixed";
  return fmt::format("sol:eps={},window={}", p.eps, p.window);
}

std::optional<Policy> parse_policy(std::string_view text, int budget, std::string* error) {
  Policy p = fixed_policy(budget);
  std::string_view kind = text.substr(0, text.find(':'));
  bool has_keys = kind.size() < text.size();
  if (kind == "fixed") {
    if (has_keys) {
      fail(error, fmt::format("policy `{}`: `fixed` takes no parameters", text));
      return std::nullopt;
    }
  } else if (kind == "sol") {
    p.kind = Policy::Kind::sol;
    if (has_keys && !parse_sol_keys(text, text.substr(kind.size() + 1), &p, error)) return std::nullopt;
  } else {
    fail(error, fmt::format("unknown policy `{}`; expected `fixed` or `sol:eps=E,window=W`", kind));
    return std::nullopt;
  }
  if (!validate_policy(p, error)) return std::nullopt;
  return p;
}

bool validate_policy(const Policy& p, std::string* error) {
  if (p.budget < 1) return fail(error, fmt::format("policy budget must be at least 1, got `{}`", p.budget));
  if (p.token_budget && *p.token_budget < 1)
    return fail(error, fmt::format("token budget must be at least 1, got `{}`", *p.token_budget));
  if (p.usd_budget && (!std::isfinite(*p.usd_budget) || *p.usd_budget <= 0))
    return fail(error, fmt::format("USD budget must be a finite number > 0, got `{}`", *p.usd_budget));
  if (p.kind == Policy::Kind::fixed) return true;
  if (!std::isfinite(p.eps) || p.eps < 0)
    return fail(error, fmt::format("policy `eps` must be a finite number ≥ 0, got `{}`", p.eps));
  if (p.window < 1) return fail(error, fmt::format("policy `window` must be at least 1, got `{}`", p.window));
  return true;
}

}  // namespace ucut::sched
