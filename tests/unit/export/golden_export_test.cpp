// tests/unit/export/golden_export_test.cpp — runs every tests/golden/export/<ID>.ucut through `ucutlass
// export` (export_cases.h: --torch, or --kernelbench for a case's `# kernelbench: PATH`) and compares the
// reported rule, line and column with the cases' `# expect-...` lines (format: ../check/golden_cases.h).
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

std::string test_name(const ::testing::TestParamInfo<fs::path>& info) { return file_param_name(info.param); }

class GoldenExport : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoldenExport, ReportsExactlyTheExpectedDiagnostics) {
  std::vector<Case> cases = read_cases(GetParam());
  ASSERT_FALSE(cases.empty()) << GetParam();
  for (const Case& c : cases) {
    SourceFile src(c.file, c.text);
    std::string diff = compare(c, src, export_diagnostics(src));
    if (!diff.empty()) ADD_FAILURE_AT(c.file.c_str(), c.first_line) << diff;
  }
}

INSTANTIATE_TEST_SUITE_P(Export, GoldenExport,
                         ::testing::ValuesIn(files_with_ext(export_golden_dir(), ".ucut")), test_name);

}  // namespace
}  // namespace ucut::golden
