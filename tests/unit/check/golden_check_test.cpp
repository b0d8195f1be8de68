// tests/unit/check/golden_check_test.cpp — runs every tests/golden/check/<ID>.ucut through compile_spec
// (StopAfter::check), and a C6xx case's kernel against its `# shape:` lines (check/shape_rules.h), and
// compares the reported rule, line and column with the cases' `# expect-...` lines (format: golden_cases.h).
// Also checks that every examples/*.ucut and examples/mskb/*.ucut spec is clean: valid specs live there.
#include <gtest/gtest.h>

#include "golden_cases.h"

namespace ucut::golden {
namespace {

std::string test_name(const ::testing::TestParamInfo<fs::path>& info) { return file_param_name(info.param); }

class GoldenCheck : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoldenCheck, ReportsExactlyTheExpectedDiagnostics) {
  std::vector<Case> cases = read_cases(GetParam());
  ASSERT_FALSE(cases.empty()) << GetParam();
  for (const Case& c : cases) {
    SourceFile src(c.file, c.text);
    std::vector<std::string> errors;
    DiagEngine diags = diagnose_spec(src, &errors);
    for (const std::string& e : errors) ADD_FAILURE_AT(c.file.c_str(), c.first_line) << e;
    std::string diff = compare(c, src, diags);
    if (!diff.empty()) ADD_FAILURE_AT(c.file.c_str(), c.first_line) << diff;
  }
}

INSTANTIATE_TEST_SUITE_P(Check, GoldenCheck, ::testing::ValuesIn(files_with_ext(check_golden_dir(), ".ucut")),
                         test_name);

class ExampleSpec : public ::testing::TestWithParam<fs::path> {};

TEST_P(ExampleSpec, ChecksWithoutDiagnostics) {
  std::string shown = fs::relative(GetParam(), source_dir()).string();
  SourceFile src(shown, read_text(GetParam()));
  Compilation comp = compile_spec(src, StopAfter::check);
  std::string found;
  for (const Diagnostic& d : comp.diags.diagnostics())
    found += fmt::format("\n  {}  ({})", show(key_of(src, d)), d.message);
  EXPECT_TRUE(found.empty()) << shown << ": an example spec must check clean, but got:" << found;
  EXPECT_TRUE(comp.config.has_value() || comp.memop.has_value() || comp.pipeline.has_value()) << shown;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleSpec,
                         ::testing::ValuesIn(files_with_ext(source_dir() / "examples", ".ucut")), test_name);
// The MSKB launchers' specs (examples/mskb/, exported with `export --mskb`).
INSTANTIATE_TEST_SUITE_P(MskbExamples, ExampleSpec,
                         ::testing::ValuesIn(files_with_ext(source_dir() / "examples" / "mskb", ".ucut")),
                         test_name);

TEST(GoldenCheckFiles, ThereAreGoldensAndExamples) {
  EXPECT_FALSE(files_with_ext(check_golden_dir(), ".ucut").empty()) << check_golden_dir();
  EXPECT_FALSE(files_with_ext(source_dir() / "examples", ".ucut").empty());
  EXPECT_FALSE(files_with_ext(source_dir() / "examples" / "mskb", ".ucut").empty());
}

}  // namespace
}  // namespace ucut::golden
