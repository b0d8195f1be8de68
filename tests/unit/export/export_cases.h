// tests/unit/export/export_cases.h — runs a spec through `ucutlass export` as the X rules' goldens and pages
// state it: `--torch`, `--kernelbench` for the suite problem that a `# kernelbench: PATH` comment line
// names (PATH relative to the source tree), or `--mskb` for the task a `# mskb: TASK` line names. Header-only because the unit-test target globs only *_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "../check/golden_cases.h"
#include "export/export.h"
#include "suite/check.h"

namespace ucut::golden {

/// The path after `# kernelbench:` in `text`, or "".
inline std::string kernelbench_directive(const std::string& text) {
  static const std::regex line(R"((^|\n)#\s*kernelbench:\s*(\S+))");
  std::smatch m;
  return std::regex_search(text, m, line) ? m[2].str() : "";
}

/// The suite problem at `path` (relative to the source tree), checked; a test failure when it does not check.
inline std::optional<suite::Checked> load_suite_problem(const std::string& path) {
  std::string err;
  auto f = suite::check_file((source_dir() / path).string(), &err);
  if (!f || !f->checked) {
    ADD_FAILURE() << path << ": the suite problem does not load: " << err;
    return std::nullopt;
  }
  return f->checked;
}

/// The task after `# mskb:` in `text`, or "".
inline std::string mskb_directive(const std::string& text) {
  static const std::regex line(R"((^|\n)#\s*mskb:\s*(\S+))");
  std::smatch m;
  return std::regex_search(text, m, line) ? m[2].str() : "";
}

/// What exporting `src` reports (`# mskb: TASK` exports an MSKB launcher).
inline DiagEngine export_diagnostics(const SourceFile& src) {
  if (std::string task = mskb_directive(src.text()); !task.empty()) return interop::export_mskb(src, task).comp.diags;
  std::string problem = kernelbench_directive(src.text());
  if (problem.empty()) return interop::export_torch(src).comp.diags;
  auto checked = load_suite_problem(problem);
  if (!checked) return DiagEngine{};
  return interop::export_kernelbench(src, *checked).comp.diags;
}

/// `export --mskb TASK` of examples/mskb/TASK.ucut, expected to succeed (a failure names the diagnostics).
inline interop::ExportResult export_mskb_example(const std::string& task) {
  const fs::path spec = source_dir() / "examples" / "mskb" / (task + ".ucut");
  interop::ExportResult r = interop::export_mskb(SourceFile(spec.filename().string(), read_text(spec)), task);
  std::string errors;
  for (const Diagnostic& d : r.comp.diags.diagnostics())
    errors += std::string(rule_info(d.rule).code) + " " + d.message;
  EXPECT_TRUE(r.ok()) << errors;
  return r;
}

/// The text of that export's one launcher file.
inline std::string mskb_example_launcher(const std::string& task) {
  interop::ExportResult r = export_mskb_example(task);
  EXPECT_EQ(r.files.size(), 1u);
  return r.files.empty() ? "" : r.files[0].text;
}

}  // namespace ucut::golden
