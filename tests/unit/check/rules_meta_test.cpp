// tests/unit/check/rules_meta_test.cpp — rustc's tidy for the rule table (STYLE.md §6.4): every rule of
// support/rules.def has a page docs/rules/<ID>.md whose ```ucut example triggers it, and a golden
// tests/golden/check/<ID>.ucut whose every case expects it (an S rule's are TOML and tests/golden/suite/, an H
// rule's TOML and tests/golden/problem/; a C6 rule's name their shapes with `# shape:`; an X rule's examples are
// exported, tests/golden/export/, see export_cases.h); no page or golden exists without a rule. Also
// applies each machine-applicable fix-it of the goldens and checks that its diagnostic is gone and that it adds no
// error where it edits (Clang's -fixit-recompile).
#include <gtest/gtest.h>

#include <set>

#include "../export/export_cases.h"
#include "golden_cases.h"
#include "problem/read.h"
#include "suite/check.h"
#include "support/embedded.h"

namespace ucut {
/// How GoogleTest names a RuleInfo parameter in failure messages.
void PrintTo(const RuleInfo& r, std::ostream* os) { *os << r.code << " " << r.slug; }
}  // namespace ucut

namespace ucut::golden {
namespace {

std::set<std::string> rule_codes() {
  std::set<std::string> out;
  for (const RuleInfo& r : all_rules()) out.insert(std::string(r.code));
  return out;
}

bool reports(const DiagEngine& diags, std::string_view code) {
  for (const Diagnostic& d : diags.diagnostics())
    if (rule_info(d.rule).code == code) return true;
  return false;
}

/// S rules are about suite problem files (TOML, suite/check.h), H rules about problem files (TOML,
/// problem/read.h); every other rule is about specs.
bool is_suite_rule(const RuleInfo& r) { return r.code.front() == 'S'; }
bool is_problem_rule(const RuleInfo& r) { return r.code.front() == 'H'; }
/// X rules are about `ucutlass export`: their examples are exported, not checked.
bool is_export_rule(const RuleInfo& r) { return r.code.front() == 'X'; }

fs::path golden_of(const RuleInfo& r) {
  if (is_suite_rule(r)) return suite_golden_dir() / fmt::format("{}.toml", r.code);
  if (is_problem_rule(r)) return problem_golden_dir() / fmt::format("{}.toml", r.code);
  return (is_export_rule(r) ? export_golden_dir() : check_golden_dir()) / fmt::format("{}.ucut", r.code);
}

/// What checking `src` reports: a spec through compile_spec and its `# shape:` lines (an X rule's through
/// `export`), a suite file through suite::check_problem, a problem file through read_problem.
DiagEngine diagnose(const RuleInfo& r, const SourceFile& src) {
  if (is_export_rule(r)) return export_diagnostics(src);
  DiagEngine diags;
  if (is_suite_rule(r)) {
    suite::check_problem(src, diags);
  } else if (is_problem_rule(r)) {
    read_problem(src, diags);
  } else {
    std::vector<std::string> errors;
    diags = diagnose_spec(src, &errors);
    for (const std::string& e : errors) ADD_FAILURE() << e;
  }
  return diags;
}

class RulePage : public ::testing::TestWithParam<RuleInfo> {};

TEST_P(RulePage, ExistsAndItsExampleTriggersTheRule) {
  const RuleInfo& r = GetParam();
  fs::path path = rule_docs_dir() / fmt::format("{}.md", r.code);
  ASSERT_TRUE(fs::exists(path)) << "rule " << r.code << " has no page: write " << path.string();
  std::string page = read_text(path);
  std::string title = fmt::format("# {} {}", r.code, r.slug);
  EXPECT_EQ(page.substr(0, page.find('\n')), title) << path.string() << ": the first line must be `" << title << "`";
  for (const char* section : {"\n## What\n", "\n## Why\n", "\n## Example\n", "\n## Fix\n"})
    EXPECT_NE(page.find(section), std::string::npos) << path.string() << " lacks the section `" << section + 1 << "`";
  int blocks = 0;
  std::string_view lang = is_suite_rule(r) || is_problem_rule(r) ? "toml" : "ucut";
  std::string example = example_block(page, lang, &blocks);
  ASSERT_EQ(blocks, 1) << path.string() << " must hold exactly one ```" << lang << " block (the failing example)";
  SourceFile src(path.filename().string(), apply_directives(example));
  DiagEngine diags = diagnose(r, src);
  std::string got;
  for (const Diagnostic& d : diags.diagnostics()) got += fmt::format("\n  {}  ({})", show(key_of(src, d)), d.message);
  EXPECT_TRUE(reports(diags, r.code)) << path.string() << ": the example does not trigger " << r.code
                                  << "; it reports:" << (got.empty() ? " nothing" : got);
  // `ucutlass explain` prints the embedded copy: a stale build would print an old page.
  auto embedded = embedded_file(fmt::format("{}.md", r.code));
  ASSERT_TRUE(embedded.has_value()) << r.code << ".md is not embedded; reconfigure (cmake -S . -B build)";
  EXPECT_EQ(*embedded, page) << r.code << ".md: the embedded page differs from docs/rules (rebuild)";
}

TEST_P(RulePage, HasAGoldenWhoseEveryCaseExpectsIt) {
  const RuleInfo& r = GetParam();
  fs::path path = golden_of(r);
  ASSERT_TRUE(fs::exists(path)) << "rule " << r.code << " has no golden: write " << path.string();
  std::vector<Case> cases = read_cases(path);
  ASSERT_FALSE(cases.empty());
  for (const Case& c : cases) {
    bool expects = std::any_of(c.expected.begin(), c.expected.end(), [&](const Key& k) { return k.rule == r.code; });
    EXPECT_TRUE(expects) << c.file << ":" << c.first_line << ": a case of " << path.filename().string()
                         << " that never expects " << r.code;
    for (const Key& k : c.expected)
      if (k.rule == r.code)
        EXPECT_EQ(k.severity, r.severity) << c.file << ":" << k.line << ": " << r.code << " is "
                                          << (r.severity == Severity::warning ? "a warning" : "an error");
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, RulePage, ::testing::ValuesIn(all_rules()),
                         [](const ::testing::TestParamInfo<RuleInfo>& info) {
                           return std::string(info.param.code);
                         });

TEST(RulesMeta, EveryPageIsARule) {
  std::set<std::string> codes = rule_codes();
  for (const fs::path& p : files_with_ext(rule_docs_dir(), ".md"))
    EXPECT_TRUE(codes.count(p.stem().string())) << p.string() << " names no rule of support/rules.def";
}

TEST(RulesMeta, EveryGoldenIsARule) {
  std::set<std::string> codes = rule_codes();
  for (auto [dir, ext] : {std::pair{check_golden_dir(), ".ucut"}, std::pair{suite_golden_dir(), ".toml"},
                          std::pair{problem_golden_dir(), ".toml"}, std::pair{export_golden_dir(), ".ucut"}}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      EXPECT_EQ(e.path().extension(), ext) << e.path().string() << ": " << dir.string() << " holds only <ID>" << ext;
      EXPECT_TRUE(codes.count(e.path().stem().string())) << e.path().string() << " names no rule of support/rules.def";
    }
  }
}

/// Replaces the bytes of `edit.span` in `text`.
std::string apply(const std::string& text, const Edit& edit) {
  return text.substr(0, edit.span.begin) + edit.replacement + text.substr(edit.span.end);
}

/// Where byte `p` of the text lies once `edit` is applied; a byte inside the replaced range maps to its start.
uint32_t moved(uint32_t p, const Edit& edit) {
  if (p < edit.span.begin) return p;
  if (p >= edit.span.end) return p - (edit.span.end - edit.span.begin) + static_cast<uint32_t>(edit.replacement.size());
  return edit.span.begin;
}

// Every machine-applicable edit of every golden case, applied: its diagnostic is gone, and no error is left where it
// edits (the replaced text, or where the diagnostic pointed) — an edit fixes what it claims to, whole (a tile hint
// fixes every dimension, not one). Errors elsewhere may appear: a fix can let later stages run on the rest.
TEST(RulesMeta, MachineApplicableFixesRemoveTheirDiagnosticAndAddNoErrorWhereTheyEdit) {
  int applied = 0;
  for (const fs::path& path : files_with_ext(check_golden_dir(), ".ucut")) {
    for (const Case& c : read_cases(path)) {
      SourceFile src(c.file, c.text);
      std::vector<std::string> errors;
      DiagEngine diags = diagnose_spec(src, &errors);
      for (const Diagnostic& d : diags.diagnostics()) {
        if (!d.hint || !d.hint->edit || d.hint->applicability != Applicability::machine_applicable) continue;
        const Edit& e = *d.hint->edit;
        Key before = key_of(src, d);
        ASSERT_TRUE(e.span.valid() && e.span.end <= c.text.size()) << c.file << ":" << before.line << ": "
                                                                   << show(before) << " has an edit out of range";
        ++applied;
        SourceFile fixed(c.file, apply(c.text, e));
        DiagEngine again = diagnose_spec(fixed, &errors);
        uint32_t where = moved(d.primary.begin, e);
        uint32_t edit_end = e.span.begin + static_cast<uint32_t>(e.replacement.size());
        std::string fix = fmt::format("{}:{}: applying the fix of {} (replace `{}` with `{}`)", c.file, before.line,
                                      show(before), c.text.substr(e.span.begin, e.span.end - e.span.begin),
                                      e.replacement);
        for (const Diagnostic& d2 : again.diagnostics()) {
          Key after = key_of(fixed, d2);
          EXPECT_FALSE(d2.rule == d.rule && d2.primary.begin == where)
              << fix << " leaves " << show(after) << ": " << d2.message;
          // Both ranges at least one byte long, so an insertion and an empty span still meet what they touch.
          bool overlaps = d2.primary.begin < std::max(edit_end, e.span.begin + 1) &&
                          e.span.begin < std::max(d2.primary.end, d2.primary.begin + 1);
          EXPECT_FALSE(d2.severity == Severity::error && d2.rule != d.rule && (overlaps || d2.primary.begin == where))
              << fix << " adds " << show(after) << " where it edits: " << d2.message;
        }
      }
      for (const std::string& e : errors) ADD_FAILURE() << e;
    }
  }
  EXPECT_GT(applied, 0) << "no golden case exercises a machine-applicable fix";
}

}  // namespace
}  // namespace ucut::golden
