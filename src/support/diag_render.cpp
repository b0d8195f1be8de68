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

void render_snippet(std::string& out, const SourceFile& src, Span span) {
  auto [line, col] = src.line_col(span.begin);
  std::string_view text = src.line_text(line);
  auto [eline, ecol] = src.line_col(span.end);
  int width = (eline == line) ? std::max(1, ecol - col) : std::max<int>(1, static_cast<int>(text.size()) - col + 1);
  std::string gutter = fmt::format("{:>4} | ", line);
  out += gutter;
  out += text;
  out += '\n';
  out += std::string(gutter.size() - 2, ' ') + "| ";
  out += std::string(static_cast<size_t>(col - 1), ' ') + std::string(static_cast<size_t>(width), '^');
  out += '\n';
}

}  // namespace

std::string render_text(const SourceFile& src, const Diagnostic& d, bool color) {
  const RuleInfo& info = rule_info(d.rule);
  auto [line, col] = src.line_col(d.primary.begin);
  std::string sev(severity_name(d.severity));
  if (color) sev = (d.severity == Severity::error ? "\x1b[1;31m" : "\x1b[1;35m") + sev + "\x1b[0m";
  std::string out = fmt::format("{}:{}:{}: {}[{}]: {}\n", src.name(), line, col, sev, info.code, d.message);
  render_snippet(out, src, d.primary);
  for (const Label& n : d.notes) {
    auto [nl, nc] = src.line_col(n.span.begin);
    out += fmt::format("  note: {}:{}:{}: {}\n", src.name(), nl, nc, n.message);
  }
  if (d.hint) {
    out += fmt::format("  help: {}\n", d.hint->text);
    if (d.hint->edit) out += fmt::format("        replace with `{}`\n", d.hint->edit->replacement);
  }
  return out;
}

std::string render_text(const SourceFile& src, const std::vector<Diagnostic>& ds, bool color) {
  std::string out;
  for (const Diagnostic& d : ds) out += render_text(src, d, color);
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
