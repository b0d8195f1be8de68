// support/toml_reader.cpp — see toml_reader.h.
#include "support/toml_reader.h"

#include <fmt/format.h>

#include <algorithm>

#include "support/suggest.h"

namespace ucut {

std::optional<toml::table> TomlReader::parse() {
  try {
    return toml::parse(src_.text(), src_.name());
  } catch (const toml::parse_error& e) {
    diags_.report(rules_.syntax, span_of(e.source()), fmt::format("not valid TOML: {}", e.description()),
                  "fix the syntax (an inline table must stay on one line; strings need double quotes)");
    return std::nullopt;
  }
}

Span TomlReader::span_of(const toml::source_region& r) const {
  auto offset = [&](const toml::source_position& pos) -> uint32_t {
    if (pos.line == 0 || static_cast<int>(pos.line) > src_.line_count()) return 0;
    std::string_view line = src_.line_text(static_cast<int>(pos.line));
    size_t col = std::min<size_t>(pos.column ? pos.column - 1 : 0, line.size());
    return static_cast<uint32_t>(line.data() - src_.text().data() + col);
  };
  uint32_t b = offset(r.begin);
  uint32_t e = std::max(b, offset(r.end));
  return Span{b, e};
}

std::optional<Span> TomlReader::string_body(const toml::node& n) const {
  auto value = n.value_exact<std::string>();
  if (!value || n.source().begin.line == 0) return std::nullopt;
  Span whole = span_of(n);
  std::string_view text = src_.text();
  for (std::string_view quote : {"\"\"\"", "'''", "\"", "'"}) {
    if (text.substr(whole.begin, quote.size()) != quote) continue;
    uint32_t begin = whole.begin + static_cast<uint32_t>(quote.size());
    if (text.substr(begin, value->size()) != *value) return std::nullopt;  // escapes: offsets would not map
    return Span{begin, begin + static_cast<uint32_t>(value->size())};
  }
  return std::nullopt;
}

void TomlReader::check_keys(const toml::table& t, const std::vector<std::string_view>& allowed,
                            std::string_view where) {
  for (auto&& [key, node] : t) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    auto best = closest_name(key.str(), allowed);
    diags_.report(rules_.unknown_key, span_of(key.source()), fmt::format("`{}` is not a key of {}", key.str(), where),
                  best ? fmt::format("did you mean `{}`? {} takes {}", *best, where, quoted_list(allowed))
                       : fmt::format("{} takes {}", where, quoted_list(allowed)));
  }
}

std::optional<std::string> TomlReader::string_key(const toml::table& t, std::string_view key, Span table_span,
                                                  bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required)
      diags_.report(rules_.missing_key, table_span, fmt::format("`{}` is missing", key),
                    fmt::format("add `{} = \"...\"`", key));
    return std::nullopt;
  }
  auto v = n->value_exact<std::string>();
  if (!v)
    diags_.report(rules_.value, span_of(*n), fmt::format("`{}` must be a string", key),
                  fmt::format("write `{} = \"...\"`", key));
  return v;
}

void TomlReader::unknown_name(const toml::node& n, std::string_view what, std::string_view got,
                              const std::vector<std::string_view>& known) {
  auto best = closest_name(got, known);
  diags_.report(rules_.unknown_name, span_of(n), fmt::format("unknown {} `{}`", what, got),
                best ? fmt::format("did you mean `{}`? known: {}", *best, quoted_list(known))
                     : fmt::format("known: {}", quoted_list(known)));
}

}  // namespace ucut
