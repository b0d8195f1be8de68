// tests/unit/check/golden_cases.h — reads the check goldens (tests/golden/check/<ID>.ucut, STYLE.md §6.3) and
// compares what compile_spec reports with what they expect. Shared by golden_check_test.cpp and
// rules_meta_test.cpp; header-only because the unit-test target globs only *_test.cpp.
//
// Format (Clang's -verify, MLIR's -split-input-file):
//   - a line `# -----` separates cases; each case is a complete spec;
//   - `# expect-error@+N:COL ID` (or `expect-warning`) expects rule ID at 1-based byte column COL of the N-th
//     following line that is not itself an expectation (so stacked expectations share their target line);
//     `@L:COL` (no sign) names absolute line L of the file, for file-level diagnostics at 1:1 (P006);
//   - `# pad-to-bytes N` appends a comment line of filler until the case text is N bytes (P006's oversized spec);
//   - `# shape: { ... }` (C6xx) runs the checked kernel against that problem shape, written as a problem file's
//     `shapes` entry for the kernel's operator (problem/read_shape.h), through check/shape_rules.h.
// A case is compiled as the whole file with every line outside the case blanked, so reported lines are the
// file's own line numbers. Every reported diagnostic, warnings included, must be expected, and vice versa.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../test_paths.h"
#include "check/shape_rules.h"
#include "compiler/pipeline.h"
#include "problem/read_shape.h"
#include "support/diag_render.h"
#include "support/toml_reader.h"

namespace ucut::golden {

namespace fs = std::filesystem;

inline fs::path source_dir() { return fs::path(ucut::test_paths::source_dir()); }
inline fs::path check_golden_dir() { return source_dir() / "tests" / "golden" / "check"; }
inline fs::path suite_golden_dir() { return source_dir() / "tests" / "golden" / "suite"; }
inline fs::path export_golden_dir() { return source_dir() / "tests" / "golden" / "export"; }
inline fs::path problem_golden_dir() { return source_dir() / "tests" / "golden" / "problem"; }
inline fs::path rule_docs_dir() { return source_dir() / "docs" / "rules"; }

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A GoogleTest parameter name for a file: its stem with every non-alphanumeric character replaced by `_`.
inline std::string file_param_name(const fs::path& file) {
  std::string name = file.stem().string();
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

/// Files of `dir` ending in `ext`, sorted by name.
inline std::vector<fs::path> files_with_ext(const fs::path& dir, std::string_view ext) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// One diagnostic as the goldens name it: severity, rule id and 1-based line:col.
struct Key {
  Severity severity = Severity::error;
  std::string rule;
  int line = 0, col = 0;
  auto operator<=>(const Key&) const = default;
};

inline std::string show(const Key& k) {
  return fmt::format("{} {} at {}:{}", k.severity == Severity::warning ? "warning" : "error", k.rule, k.line, k.col);
}

struct Case {
  std::string file;         // path shown in failure messages
  int first_line = 0;       // 1-based line of the case's first line in the file
  std::string text;         // the file with every other case's lines blanked (and padding applied)
  std::vector<Key> expected;
  std::vector<std::string> format_errors;  // malformed `# expect` lines: a typo must not pass silently
};

/// Applies the `# pad-to-bytes N` directive, if present, to a spec's text.
inline std::string apply_directives(std::string text) {
  static const std::regex pad(R"(^#\s*pad-to-bytes\s+(\d+)\s*$)");
  std::istringstream lines(text);
  std::string line;
  size_t want = 0;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, pad)) want = std::stoul(m[1]);
  }
  if (want > text.size()) {
    if (!text.empty() && text.back() != '\n') text += '\n';
    size_t filler = want > text.size() + 2 ? want - text.size() - 2 : 0;
    text += "#" + std::string(filler, 'x') + "\n";
  }
  return text;
}

/// The shapes of a spec's `# shape: { ... }` lines for operator `op`; a line that does not read is named in
/// `errors` (a typo in a golden must not pass silently).
inline std::vector<GemmShape> shape_directives(const std::string& text, OpKind op, std::vector<std::string>* errors) {
  static const std::regex shape_line(R"(^#\s*shape:\s*(\{.*\})\s*$)");
  std::vector<GemmShape> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, shape_line)) continue;
    SourceFile src("shape", "s = " + m[1].str() + "\n");
    DiagEngine diags;
    TomlReader toml(src, diags, {RuleId::H001, RuleId::H002, RuleId::H003, RuleId::H004, RuleId::H005});
    auto doc = toml.parse();
    const toml::table* t = doc ? (*doc)["s"].as_table() : nullptr;
    auto shape = t ? read_shape(toml, *t, op, "the shape") : std::nullopt;
    if (shape) out.push_back(*shape);
    else errors->push_back(fmt::format("`{}` is not a shape of `{}`: {}", line, op_name(op),
                                       render_text(src, diags.diagnostics())));
  }
  return out;
}

/// What checking spec `src` reports: compile_spec up to check, then, when it checks clean, the shape rules against
/// its `# shape:` lines. `errors` receives directives that do not read.
inline DiagEngine diagnose_spec(const SourceFile& src, std::vector<std::string>* errors) {
  Compilation c = compile_spec(src, StopAfter::check);
  if (!c.ok()) return std::move(c.diags);
  if (c.config) check_shapes(*c.config, shape_directives(src.text(), c.config->op.value, errors), c.diags);
  if (c.pipeline)
    check_shapes(*c.pipeline, shape_directives(src.text(), c.pipeline->stages.front().config.op.value, errors),
                 c.diags);
  return std::move(c.diags);
}

inline bool is_separator(const std::string& line) {
  size_t b = line.find_first_not_of(" \t\r");
  size_t e = line.find_last_not_of(" \t\r");
  return b != std::string::npos && line.substr(b, e - b + 1) == "# -----";
}

/// Splits a golden file into its cases and reads their expectations.
inline std::vector<Case> read_cases(const fs::path& path) {
  static const std::regex expect_re(R"(^\s*#\s*expect-(error|warning)@(\+?)(\d+):(\d+)\s+([A-Z]\d{3})\s*$)");
  static const std::regex looks_like_expect(R"(^\s*#\s*expect)");
  std::string content = read_text(path);
  std::vector<std::string> lines;
  {
    std::istringstream in(content);
    std::string l;
    while (std::getline(in, l)) lines.push_back(l);
  }
  std::vector<std::pair<size_t, size_t>> ranges;  // [begin, end) line indices of each case
  size_t begin = 0;
  for (size_t i = 0; i <= lines.size(); ++i) {
    if (i == lines.size() || is_separator(lines[i])) {
      ranges.emplace_back(begin, i);
      begin = i + 1;
    }
  }
  std::vector<Case> cases;
  std::string shown = fs::relative(path, source_dir()).string();
  for (auto [b, e] : ranges) {
    Case c;
    c.file = shown;
    c.first_line = static_cast<int>(b) + 1;
    std::string text(b, '\n');  // blank lines keep line numbers equal to the file's
    for (size_t i = b; i < e; ++i) text += lines[i] + "\n";
    c.text = apply_directives(std::move(text));
    for (size_t i = b; i < e; ++i) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, expect_re)) {
        if (std::regex_search(lines[i], looks_like_expect))
          c.format_errors.push_back(fmt::format("{}:{}: malformed expectation `{}`", shown, i + 1, lines[i]));
        continue;
      }
      int n = std::stoi(m[3]);
      int target = 0;
      if (m[2] == "+") {
        size_t t = i;
        for (int k = 0; k < n; ++k) {
          ++t;
          while (t < e && std::regex_match(lines[t], expect_re)) ++t;
        }
        if (t >= e) {
          c.format_errors.push_back(fmt::format("{}:{}: `@+{}` points past the end of the case", shown, i + 1, n));
          continue;
        }
        target = static_cast<int>(t) + 1;
      } else {
        target = n;
      }
      c.expected.push_back(
          Key{m[1] == "warning" ? Severity::warning : Severity::error, m[5], target, std::stoi(m[4])});
    }
    std::sort(c.expected.begin(), c.expected.end());
    cases.push_back(std::move(c));
  }
  return cases;
}

inline Key key_of(const SourceFile& src, const Diagnostic& d) {
  auto [line, col] = src.line_col(d.primary.begin);
  return Key{d.severity, std::string(rule_info(d.rule).code), line, col};
}

/// What was reported for `src`, as sorted keys.
inline std::vector<Key> reported(const SourceFile& src, const DiagEngine& diags) {
  std::vector<Key> out;
  for (const Diagnostic& d : diags.diagnostics()) out.push_back(key_of(src, d));
  std::sort(out.begin(), out.end());
  return out;
}

/// Empty when `expected` and `actual` agree; otherwise a report naming what is missing and what is unexpected,
/// with the messages of what was reported.
inline std::string compare(const Case& c, const SourceFile& src, const DiagEngine& diags) {
  std::vector<Key> actual = reported(src, diags);
  if (actual == c.expected && c.format_errors.empty()) return "";
  std::string out = fmt::format("{}:{}: the case's diagnostics differ from its expectations\n", c.file, c.first_line);
  for (const std::string& e : c.format_errors) out += "  " + e + "\n";
  out += "  expected:";
  if (c.expected.empty()) out += " (none)";
  for (const Key& k : c.expected) out += "\n    " + show(k);
  out += "\n  actual:";
  if (actual.empty()) out += " (none)";
  for (const Diagnostic& d : diags.diagnostics())
    out += fmt::format("\n    {}  ({})", show(key_of(src, d)), d.message);
  std::vector<Key> missing, unexpected;
  std::set_difference(c.expected.begin(), c.expected.end(), actual.begin(), actual.end(), std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), c.expected.begin(), c.expected.end(),
                      std::back_inserter(unexpected));
  for (const Key& k : missing) out += fmt::format("\n  missing:    {}:{}: {}", c.file, k.line, show(k));
  for (const Key& k : unexpected) out += fmt::format("\n  unexpected: {}:{}: {}", c.file, k.line, show(k));
  return out + "\n";
}

/// The text of the one ```<lang> block of a rule page (`ucut` for spec rules, `toml` for suite-file rules), or ""
/// when there is not exactly one.
inline std::string example_block(const std::string& page, std::string_view lang, int* count = nullptr) {
  const std::regex block("```" + std::string(lang) + R"(\n([\s\S]*?)```)");
  int n = 0;
  std::string text;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), block); it != std::sregex_iterator(); ++it) {
    ++n;
    text = (*it)[1];
  }
  if (count) *count = n;
  return n == 1 ? text : "";
}

}  // namespace ucut::golden
