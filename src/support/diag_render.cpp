// support/diag_render.cpp — renders Diagnostic values; nothing else in the project prints diagnostics.
#include "support/diag_render.h"

#include <fmt/format.h>

#include <algorithm>

namespace ucut {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

std::string_view applicability_name(Applicability a) {
  switch (a) {
    case Applicability::machine_applicable: return "machine-applicable";
    case Applicability::maybe_incorrect: return "maybe-incorrect";
    case Applicability::has_placeholders: return "has-placeholders";
    case Applicability::unspecified: return "unspecified";
  }
  return "unspecified";
}

namespace {

/// One source line as printed: its display text, and the display column of each byte offset (size() + 1 entries,
/// 0-based) so carets stay under the bytes they mark. A tab stays a tab, and the caret line repeats it.
struct DisplayLine {
  std::string text;
  std::vector<size_t> column;
  std::vector<bool> tab;  // per display column: whether it is a tab
};

DisplayLine display_line(std::string_view line) {
  DisplayLine out;
  auto put = [&](std::string_view s, bool is_tab) {
    out.text += s;
    for (size_t k = 0; k < s.size(); ++k) out.tab.push_back(is_tab);
  };
  size_t cols = 0;
  for (size_t i = 0; i < line.size();) {
    out.column.push_back(cols);
    unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == '\t') {
      put("\t", true);
      ++cols;
      ++i;
    } else if (c >= 0x20 && c < 0x7f) {
      put(line.substr(i, 1), false);
      ++cols;
      ++i;
    } else if (size_t n = c >= 0x80 ? utf8_char_length(line, i) : 0) {
      out.text += line.substr(i, n);  // one character, one column
      out.tab.push_back(false);
      for (size_t k = 1; k < n; ++k) out.column.push_back(cols);
      ++cols;
      i += n;
    } else {
      std::string esc = fmt::format("\\x{:02x}", c);
      put(esc, false);
      cols += esc.size();
      ++i;
    }
  }
  out.column.push_back(cols);
  return out;
}

void render_snippet(std::string& out, const SourceFile& src, Span span) {
  auto [line, col] = src.line_col(span.begin);
  DisplayLine shown = display_line(src.line_text(line));
  auto [eline, ecol] = src.line_col(span.end);
  size_t last = shown.column.size() - 1;  // the byte past the line's end
  size_t b = shown.column[std::min<size_t>(static_cast<size_t>(col - 1), last)];
  size_t e = eline == line ? shown.column[std::min<size_t>(static_cast<size_t>(ecol - 1), last)] : shown.column[last];
  std::string gutter = fmt::format("{:>4} | ", line);
  out += gutter;
  out += shown.text;
  out += '\n';
  out += std::string(gutter.size() - 2, ' ') + "| ";
  // The text before the caret is blanks, tabs where the line has tabs, so the caret lines up in any terminal.
  size_t display = 0;
  for (size_t k = 0; display < b && k < shown.tab.size(); ++k, ++display) out += shown.tab[k] ? '\t' : ' ';
  out += std::string(b - display, ' ');
  out += std::string(std::max<size_t>(1, e > b ? e - b : 1), '^');
  out += '\n';
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      out += text[i++];
    } else if (size_t n = c >= 0x80 ? utf8_char_length(text, i) : 0) {
      out += text.substr(i, n);
      i += n;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  return out;
}

std::string render_text(const SourceFile& src, const Diagnostic& d, bool color) {
  const RuleInfo& info = rule_info(d.rule);
  auto [line, col] = src.line_col(d.primary.begin);
  std::string sev(severity_name(d.severity));
  if (color) sev = (d.severity == Severity::error ? "\x1b[1;31m" : "\x1b[1;35m") + sev + "\x1b[0m";
  std::string name = printable(src.name());
  std::string out = fmt::format("{}:{}:{}: {}[{}]: {}\n", name, line, col, sev, info.code, printable(d.message));
  render_snippet(out, src, d.primary);
  for (const Label& n : d.notes) {
    auto [nl, nc] = src.line_col(n.span.begin);
    out += fmt::format("  note: {}:{}:{}: {}\n", name, nl, nc, printable(n.message));
  }
  if (d.hint) {
    out += fmt::format("  help: {}\n", printable(d.hint->text));
    if (d.hint->edit) out += fmt::format("        replace with `{}`\n", printable(d.hint->edit->replacement));
  }
  return out;
}

std::string render_text(const SourceFile& src, const std::vector<Diagnostic>& ds, bool color) {
  std::string out;
  for (const Diagnostic& d : ds) out += render_text(src, d, color);
  return out;
}

std::string render_text(const SourceFile& src, const DiagEngine& diags, bool color) {
  std::string out = render_text(src, diags.diagnostics(), color);
  if (diags.dropped() > 0)
    out += fmt::format("... and {} more error{} (the first {} are shown)\n", diags.dropped(),
                       diags.dropped() == 1 ? "" : "s", DiagEngine::kMaxErrors);
  return out;
}

nlohmann::json to_json(const SourceFile& src, const Diagnostic& d) {
  const RuleInfo& info = rule_info(d.rule);
  auto [line, col] = src.line_col(d.primary.begin);
  auto [eline, ecol] = src.line_col(d.primary.end);
  nlohmann::json j = {{"rule", info.code},       {"slug", info.slug},       {"severity", severity_name(d.severity)},
                      {"line", line},            {"col", col},              {"end_line", eline},
                      {"end_col", ecol},         {"message", d.message},    {"hint", d.hint ? d.hint->text : ""},
                      {"implied", d.primary.implied}};
  if (d.hint && d.hint->edit) {
    auto [fl, fc] = src.line_col(d.hint->edit->span.begin);
    auto [fel, fec] = src.line_col(d.hint->edit->span.end);
    j["fix"] = {{"line", fl},
                {"col", fc},
                {"end_line", fel},
                {"end_col", fec},
                {"replacement", d.hint->edit->replacement},
                {"applicability", applicability_name(d.hint->applicability)}};
  }
  nlohmann::json notes = nlohmann::json::array();
  for (const Label& n : d.notes) {
    auto [nl, nc] = src.line_col(n.span.begin);
    notes.push_back({{"line", nl}, {"col", nc}, {"message", n.message}});
  }
  j["notes"] = notes;
  return j;
}

nlohmann::json to_json(const SourceFile& src, const std::vector<Diagnostic>& ds) {
  nlohmann::json arr = nlohmann::json::array();
  for (const Diagnostic& d : ds) arr.push_back(to_json(src, d));
  return arr;
}

}  // namespace ucut
