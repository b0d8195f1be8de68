// support/diag.cpp — the rule table as data, and the diagnostic collector.
#include "support/diag.h"

namespace ucut {

const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> rules = {
#define RULE(id, sev, slug, summary) {RuleId::id, #id, Severity::sev, slug, summary},
#include "support/rules.def"
#undef RULE
  };
  return rules;
}

const RuleInfo& rule_info(RuleId id) { return all_rules()[static_cast<size_t>(id)]; }

std::optional<RuleId> find_rule(std::string_view key) {
  for (const RuleInfo& r : all_rules())
    if (r.code == key || r.slug == key) return r.id;
  return std::nullopt;
}

Diagnostic& DiagEngine::report(RuleId rule, Span where, std::string message) {
  Severity sev = rule_info(rule).severity;
  if (sev == Severity::error) {
    if (saturated()) {  // further errors are dropped, and counted
      ++dropped_;
      overflow_ = Diagnostic{rule, sev, where, {}, std::nullopt, {}};
      return overflow_;
    }
    ++errors_;
  }
  diags_.push_back(Diagnostic{rule, sev, where, std::move(message), std::nullopt, {}});
  return diags_.back();
}

Diagnostic& DiagEngine::report(RuleId rule, Span where, std::string message, std::string hint) {
  Diagnostic& d = report(rule, where, std::move(message));
  d.hint = Hint{std::move(hint), std::nullopt, Applicability::unspecified};
  return d;
}

}  // namespace ucut
