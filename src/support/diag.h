// support/diag.h — diagnostics as data. Stages report Diagnostic values into a DiagEngine;
// only the renderers in diag_render.cpp turn them into text or JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.h"

namespace ucut {

enum class Severity { error, warning, note };

/// Every rule of support/rules.def, by id.
enum class RuleId {
#define RULE(id, sev, slug, summary) id,
#include "support/rules.def"
#undef RULE
};

struct RuleInfo {
  RuleId id;
  std::string_view code;  // "C201"
  Severity severity;
  std::string_view slug;     // "tile-m-invalid"
  std::string_view summary;  // one line
};

const RuleInfo& rule_info(RuleId id);
const std::vector<RuleInfo>& all_rules();
std::optional<RuleId> find_rule(std::string_view code_or_slug);

/// How sure a suggested edit is (rustc's Applicability): agents apply only machine_applicable edits.
enum class Applicability { machine_applicable, maybe_incorrect, has_placeholders, unspecified };

/// Replace the source bytes of `span` with `replacement`.
struct Edit {
  Span span;
  std::string replacement;
};

struct Hint {
  std::string text;
  std::optional<Edit> edit;
  Applicability applicability = Applicability::unspecified;
};

/// A secondary location with its own short message ("default chosen here").
struct Label {
  Span span;
  std::string message;
};

struct Diagnostic {
  RuleId rule;
  Severity severity;
  Span primary;
  std::string message;
  std::optional<Hint> hint;
  std::vector<Label> notes;
};

/// Collects diagnostics for one spec. Errors and warnings are kept in report order.
class DiagEngine {
 public:
  /// Report `rule` at `where`. Severity comes from the rule table.
  Diagnostic& report(RuleId rule, Span where, std::string message);
  Diagnostic& report(RuleId rule, Span where, std::string message, std::string hint);

  bool has_errors() const { return errors_ > 0; }
  /// Errors reported, the dropped ones included.
  int error_count() const { return errors_ + dropped_; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  /// Stop collecting after this many errors (a fuzzer's garbage should not produce megabytes).
  static constexpr int kMaxErrors = 50;
  bool saturated() const { return errors_ >= kMaxErrors; }
  /// Errors reported after saturation and not kept ("... and N more errors").
  int dropped() const { return dropped_; }

 private:
  std::vector<Diagnostic> diags_;
  Diagnostic overflow_{};
  int errors_ = 0;
  int dropped_ = 0;
};

}  // namespace ucut
