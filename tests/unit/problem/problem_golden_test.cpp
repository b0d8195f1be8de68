// tests/unit/problem/problem_golden_test.cpp — the H-rule goldens (tests/golden/problem/<ID>.toml, the format of
// check/golden_cases.h): every case read by problem/read.h reports exactly the rules, lines and columns it expects.
// Cases are read under their own path, so a pipeline problem's `semantics` resolves beside the golden.
#include <gtest/gtest.h>

#include "../check/golden_cases.h"
#include "problem/read.h"

namespace ucut::golden {
namespace {

std::string test_name(const ::testing::TestParamInfo<fs::path>& info) { return file_param_name(info.param); }

class GoldenProblem : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoldenProblem, ReportsExactlyTheExpectedDiagnostics) {
  std::vector<Case> cases = read_cases(GetParam());
  ASSERT_FALSE(cases.empty()) << GetParam();
  for (const Case& c : cases) {
    SourceFile src((source_dir() / c.file).string(), c.text);
    DiagEngine diags;
    read_problem(src, diags);
    std::string diff = compare(c, src, diags);
    if (!diff.empty()) ADD_FAILURE_AT(c.file.c_str(), c.first_line) << diff;
  }
}

INSTANTIATE_TEST_SUITE_P(Problem, GoldenProblem,
                         ::testing::ValuesIn(files_with_ext(problem_golden_dir(), ".toml")), test_name);

}  // namespace
}  // namespace ucut::golden
