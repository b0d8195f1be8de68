// support/toml_reader.h — a TOML file of ours read for diagnostics: every node's span in the file, and the checks
// each of our TOML formats makes the same way (not TOML at all, a key the format lacks with the nearest real one,
// a required key missing, a value of the wrong type, a name outside a known list). The formats name their own rules
// (suite problem files S0xx, problem files H0xx); the wording is shared.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <vector>

#include "support/diag.h"
#include "support/source.h"

namespace ucut {

/// The rule each kind of finding is reported under.
struct TomlRules {
  RuleId syntax, unknown_key, missing_key, value, unknown_name;
};

class TomlReader {
 public:
  TomlReader(const SourceFile& src, DiagEngine& diags, TomlRules rules) : src_(src), diags_(diags), rules_(rules) {}

  /// The document, or nullopt after reporting `rules.syntax` where the parser stopped.
  std::optional<toml::table> parse();

  Span span_of(const toml::source_region& r) const;
  Span span_of(const toml::node& n) const { return span_of(n.source()); }
  /// The bytes between a string value's quotes, when the file spells them as the value reads (no escapes): a spec
  /// fragment inside the string then has spans in this file. nullopt for anything else.
  std::optional<Span> string_body(const toml::node& n) const;

  /// Reports every key of `t` that `allowed` lacks, at the key, with the nearest allowed one.
  void check_keys(const toml::table& t, const std::vector<std::string_view>& allowed, std::string_view where);
  /// A string value; nullopt when absent (reported at `table_span` when `required`) or not a string (reported).
  std::optional<std::string> string_key(const toml::table& t, std::string_view key, Span table_span, bool required);
  /// `got` is not a `what` (an op, a family, ...): reported at `n` with the nearest of `known`.
  void unknown_name(const toml::node& n, std::string_view what, std::string_view got,
                    const std::vector<std::string_view>& known);

  const SourceFile& source() const { return src_; }
  DiagEngine& diags() { return diags_; }
  const TomlRules& rules() const { return rules_; }

 private:
  const SourceFile& src_;
  DiagEngine& diags_;
  TomlRules rules_;
};

}  // namespace ucut
