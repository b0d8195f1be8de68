// tests/unit/suite/suite_test.cpp — suite problem files (docs/suites.md): the S-rule goldens
// (tests/golden/suite/<ID>.toml, format of check/golden_cases.h), every file under suites/ checks clean (which
// includes agreeing with the KernelBench audit, S011), and the shape, FLOP and byte rules on small chains.
#include <gtest/gtest.h>

#include "../check/golden_cases.h"
#include "../problem/problem_text.h"
#include "problem/print.h"
#include "suite/check.h"
#include "suite/lower.h"
#include "suite/score.h"
#include "suite_text.h"

namespace ucut::suite {
namespace {

namespace fs = std::filesystem;
using golden::Case;

std::string test_name(const ::testing::TestParamInfo<fs::path>& info) { return golden::file_param_name(info.param); }

class GoldenSuite : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoldenSuite, ReportsExactlyTheExpectedDiagnostics) {
  std::vector<Case> cases = golden::read_cases(GetParam());
  ASSERT_FALSE(cases.empty()) << GetParam();
  for (const Case& c : cases) {
    SourceFile src(c.file, c.text);
    DiagEngine diags;
    check_problem(src, diags);
    std::string diff = golden::compare(c, src, diags);
    if (!diff.empty()) ADD_FAILURE_AT(c.file.c_str(), c.first_line) << diff;
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, GoldenSuite,
                         ::testing::ValuesIn(golden::files_with_ext(golden::suite_golden_dir(), ".toml")), test_name);

std::vector<fs::path> suite_problems() {
  std::vector<std::string> missing;
  std::vector<fs::path> out;
  for (const std::string& p : problem_files({(golden::source_dir() / "suites").string()}, &missing)) out.push_back(p);
  return out;
}

class SuiteProblem : public ::testing::TestWithParam<fs::path> {};

TEST_P(SuiteProblem, ChecksCleanAndAgreesWithItsAudit) {
  std::string shown = fs::relative(GetParam(), golden::source_dir()).string();
  SourceFile src(shown, golden::read_text(GetParam()));
  DiagEngine diags;
  auto checked = check_problem(src, diags);
  std::string found;
  for (const Diagnostic& d : diags.diagnostics())
    found += fmt::format("\n  {}  ({})", golden::show(golden::key_of(src, d)), d.message);
  EXPECT_TRUE(found.empty()) << shown << ":" << found;
  ASSERT_TRUE(checked.has_value());
  EXPECT_TRUE(checked->problem.kernelbench.has_value()) << shown << ": a KernelBench-derived problem names its source";
}

INSTANTIATE_TEST_SUITE_P(KernelBench, SuiteProblem, ::testing::ValuesIn(suite_problems()), test_name);

TEST(SuiteFiles, TheKernelBenchSuiteHasAtLeast59Problems) { EXPECT_GE(suite_problems().size(), 59u); }

using test::checked;

TEST(SuiteAnalyze, ConvolutionOutputExtentsFlopsAndParameters) {
  // KernelBench L1/80: Conv2d(32, 64, 5x9, padding 2x4, dilation 2x3), no bias, on [8, 32, 512, 512].
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [8, 32, 512, 512]\n[[op]]\nop = \"conv\"\nout_channels = 64\n"
      "kernel = [5, 9]\npadding = [2, 4]\ndilation = [2, 3]\nbias = false\n");
  EXPECT_EQ(c.analysis.output, (Shape{8, 64, 508, 496}));
  EXPECT_DOUBLE_EQ(c.analysis.flops, 2.0 * 8 * 508 * 496 * 45 * 64 * 32);
  EXPECT_DOUBLE_EQ(c.analysis.param_elements, 64.0 * 32 * 45);
}

TEST(SuiteAnalyze, TransposedConvolutionCountsInputPositionsAndGroups) {
  // ConvTranspose2d(32, 64, 3x5, stride 2x3, padding 1x2, dilation 2x1, groups 4) on [16, 32, 128, 256] (L1/75).
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [16, 32, 128, 256]\n[[op]]\nop = \"conv_transpose\"\nout_channels = 64\n"
      "kernel = [3, 5]\nstride = [2, 3]\npadding = [1, 2]\ndilation = [2, 1]\ngroups = 4\nbias = false\n");
  EXPECT_EQ(c.analysis.output, (Shape{16, 64, 257, 766}));
  EXPECT_DOUBLE_EQ(c.analysis.flops, 2.0 * 16 * 128 * 256 * 15 * 32 * (64 / 4));
  EXPECT_DOUBLE_EQ(c.analysis.param_elements, 32.0 * 16 * 15);
}

TEST(SuiteAnalyze, MatmulBroadcastsBatchesAndTransposes) {
  Checked c = checked(
      "[[input]]\nname = \"A\"\nshape = [8, 256, 512, 256]\n[[input]]\nname = \"B\"\nshape = [256, 768]\n"
      "[[op]]\nop = \"matmul\"\nother = \"B\"\n");
  EXPECT_EQ(c.analysis.output, (Shape{8, 256, 512, 768}));
  EXPECT_DOUBLE_EQ(c.analysis.flops, 2.0 * 8 * 256 * 512 * 768 * 256);
  Checked t = checked(
      "[[input]]\nname = \"A\"\nshape = [64, 16]\n[[input]]\nname = \"B\"\nshape = [64, 32]\n"
      "[[op]]\nop = \"matmul\"\nother = \"B\"\ntranspose_self = true\n");
  EXPECT_EQ(t.analysis.output, (Shape{16, 32}));
}

TEST(SuiteAnalyze, ReductionsNormsPoolsAndReshape) {
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [4, 8, 10, 12]\n"
      "[[op]]\nop = \"batch_norm\"\n"
      "[[op]]\nop = \"max_pool\"\nkernel = [3, 3]\nstride = [2, 2]\n"
      "[[op]]\nop = \"sum\"\ndim = [-1]\nkeepdim = true\n"
      "[[op]]\nop = \"reshape\"\nshape = [4, -1]\n");
  ASSERT_EQ(c.analysis.after_op.size(), 4u);
  EXPECT_EQ(c.analysis.after_op[1], (Shape{4, 8, 4, 5}));
  EXPECT_EQ(c.analysis.after_op[2], (Shape{4, 8, 4, 1}));
  EXPECT_EQ(c.analysis.output, (Shape{4, 32}));
  EXPECT_DOUBLE_EQ(c.analysis.param_elements, 16);   // BatchNorm weight and bias
  EXPECT_DOUBLE_EQ(c.analysis.buffer_elements, 17);  // running mean, running var, batch count
  EXPECT_DOUBLE_EQ(c.analysis.min_bytes(4), 4.0 * (4 * 8 * 10 * 12 + 16 + 17 + 128));
}

TEST(SuiteAnalyze, UnbatchedPoolAndInstanceNormTakeChannelsFirst) {
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [128, 32768]\n[[op]]\nop = \"max_pool\"\nkernel = [2]\n"
      "[[op]]\nop = \"instance_norm\"\naffine = true\n");
  EXPECT_EQ(c.analysis.output, (Shape{128, 16384}));
  EXPECT_DOUBLE_EQ(c.analysis.param_elements, 256);
}

TEST(SuiteReport, JsonCarriesTheResolvedChainForConsumers) {
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [2, 3, 8, 8]\ninit = \"randn\"\n[[op]]\nop = \"conv\"\nout_channels = 4\n"
      "kernel = [3, 3]\nsave = \"h\"\n[[op]]\nop = \"add\"\nother = \"h\"\n");
  std::string err;
  auto table = sol::load_default_gpu_table(&err);
  ASSERT_TRUE(table) << err;
  nlohmann::json j = to_json({c}, *table->find("h200"))["problems"][0];
  EXPECT_EQ(j["inputs"][0]["init"], "randn");
  EXPECT_EQ(j["ops"][0]["op"], "conv");
  EXPECT_EQ(j["ops"][0]["attrs"]["out_channels"], 4);
  EXPECT_EQ(j["ops"][0]["save"], "h");
  EXPECT_EQ(j["ops"][0]["shape_out"], nlohmann::json({2, 4, 6, 6}));
  EXPECT_EQ(j["ops"][1]["shape_in"], nlohmann::json({2, 4, 6, 6}));
  EXPECT_EQ(j["ops"][1]["attrs"]["other"], "h");
}

TEST(SuiteLower, LinearChainBecomesAGemmWithItsEpilogue) {
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [64, 32]\n[[op]]\nop = \"linear\"\nout_features = 48\n"
      "[[op]]\nop = \"mul\"\nscalar = 2.0\n[[op]]\nop = \"leaky_relu\"\nnegative_slope = 0.1\n"
      "[[op]]\nop = \"clamp\"\nmin = -1.0\n[[op]]\nop = \"add\"\nparam = [48]\n");
  auto l = lower_to_problem(c);
  ASSERT_TRUE(std::holds_alternative<ucut::Problem>(l)) << std::get<std::string>(l);
  const std::string toml = print_problem(std::get<ucut::Problem>(l));
  EXPECT_NE(toml.find("epilogue = \"bias(col) >> scale(2) >> leaky_relu(0.1) >> expr(max(x, -1)) >> bias(col)\""),
            std::string::npos) << toml;
  EXPECT_NE(toml.find("b = \"f32 col\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("m = 64, n = 48, k = 32"), std::string::npos) << toml;
  std::string err;
  auto p = ucut::parse_problem(toml, "lowered", &err);
  ASSERT_TRUE(p.has_value()) << err;
  // KernelBench's x is torch.rand; the layer's weight and bias PyTorch's default init.
  EXPECT_EQ(p->framework_inputs.text(), "a=rand b=param c=rand vectors=param");
}

TEST(SuiteLower, TransposedOperandsAndConvolutionsKeepTheirGeometry) {
  Checked t = checked(
      "[[input]]\nname = \"A\"\nshape = [64, 16]\n[[input]]\nname = \"B\"\nshape = [32, 64]\n"
      "[[op]]\nop = \"matmul\"\nother = \"B\"\ntranspose_self = true\ntranspose_other = true\n");
  const std::string g = print_problem(std::get<ucut::Problem>(lower_to_problem(t)));
  EXPECT_NE(g.find("a = \"f32 col\"\nb = \"f32 col\""), std::string::npos) << g;
  EXPECT_NE(g.find("m = 16, n = 32, k = 64"), std::string::npos) << g;
  // Both operands are inputs, drawn by torch.rand.
  EXPECT_NE(g.find("framework_inputs = { a = \"rand\", b = \"rand\""), std::string::npos) << g;
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [2, 8, 5, 6, 7]\n[[op]]\nop = \"conv_transpose\"\nout_channels = 4\n"
      "kernel = [3, 3, 3]\nstride = [2, 2, 2]\npadding = [1, 1, 1]\noutput_padding = [1, 0, 1]\n");
  auto l = lower_to_problem(c);
  ASSERT_TRUE(std::holds_alternative<ucut::Problem>(l)) << std::get<std::string>(l);
  EXPECT_EQ(std::get<ucut::Problem>(l).semantics.op.value, ucut::OpKind::conv_transpose3d);
  const std::string toml = print_problem(std::get<ucut::Problem>(l));
  EXPECT_NE(toml.find("n = 2, d = 5, h = 6, w = 7, c = 8, k = 4, t = 3, r = 3, s = 3, pad = [1, 1, 1], stride = "
                      "[2, 2, 2], dilation = [1, 1, 1], output_padding = [1, 0, 1]"),
            std::string::npos) << toml;
  EXPECT_NE(toml.find("epilogue = \"bias(col)\""), std::string::npos) << toml;
  std::string err;
  EXPECT_TRUE(ucut::parse_problem(toml, "lowered", &err).has_value()) << err;
}

TEST(SuiteLower, SaysWhyAChainDoesNotLower) {
  Checked c = checked(
      "[[input]]\nname = \"x\"\nshape = [2, 3, 8, 8]\n[[op]]\nop = \"conv\"\nout_channels = 4\nkernel = [3, 3]\n"
      "[[op]]\nop = \"add\"\nscalar = 1.0\nsave = \"h\"\n[[op]]\nop = \"softmax\"\ndim = 1\n"
      "[[op]]\nop = \"mul\"\nother = \"h\"\n");
  auto l = lower_to_problem(c);
  ASSERT_TRUE(std::holds_alternative<std::string>(l));
  EXPECT_EQ(std::get<std::string>(l), "op 4 (mul): `mul` reads back `h`, saved after op 2 in an earlier stage of the pipeline");
}

TEST(SuiteLower, EveryLoweredKernelBenchProblemPrintsAFileThatReadsBackToItself) {
  int lowered = 0;
  for (const fs::path& path : suite_problems()) {
    SourceFile src(path.string(), golden::read_text(path));
    DiagEngine diags;
    auto c = check_problem(src, diags);
    ASSERT_TRUE(c) << path;
    auto l = lower_to_problem(*c);
    if (!std::holds_alternative<ucut::Problem>(l)) continue;
    ++lowered;
    const ucut::Problem& built = std::get<ucut::Problem>(l);
    if (built.pipeline) continue;  // its file names a spec beside it: lower_pipeline_test reads both back
    std::string text = print_problem(built), err;
    auto read = ucut::parse_problem(text, path.stem().string(), &err);
    ASSERT_TRUE(read.has_value()) << path << ": " << err << "\n" << text;
    EXPECT_EQ(meaning(*read), meaning(built)) << path << "\n" << text;
    EXPECT_EQ(built.syntax->provenance + print_problem(*read), text) << path;  // all but where it came from
  }
  EXPECT_GE(lowered, 70);
}

TEST(SuiteScore, FastPCountsEveryProblemAndFilteringFailsWeakAndFlagged) {
  std::vector<ProblemOutcome> o = {
      {"a", true, false, false, 3.0},         // correct, 3x
      {"b", true, true, false, 8.0},          // correct but flagged (e.g. faster than SOL)
      {"c", false, false, false, std::nullopt},  // wrong
      {"d", true, false, true, 0.5},          // correct, slower, weak check
  };
  Score u = score(o, false);
  EXPECT_EQ(u.problems, 4);
  EXPECT_EQ(u.correct, 3);
  EXPECT_DOUBLE_EQ(u.fast_p[0], 0.75);  // fast_0: correct share
  EXPECT_DOUBLE_EQ(u.fast_p[1], 0.5);   // > 1x: a, b
  EXPECT_DOUBLE_EQ(u.fast_p[4], 0.25);  // > 5x: b
  EXPECT_NEAR(*u.geomean, std::cbrt(3.0 * 8.0 * 0.5), 1e-12);
  Score f = score(o, true);
  EXPECT_EQ(f.problems, 4);  // the denominator stays: filtering can only lower the score
  EXPECT_EQ(f.correct, 1);   // b's flag and d's weak check disqualify them
  EXPECT_DOUBLE_EQ(f.fast_p[0], 0.25);
  EXPECT_DOUBLE_EQ(f.fast_p[1], 0.25);
  // Filtered-out results stay in the geomean capped at 1x: b's 8x counts as 1x, d's 0.5x as 0.5x. (A mean over a
  // alone, 3x, would be above the unfiltered 2.29x.)
  EXPECT_NEAR(*f.geomean, std::cbrt(3.0 * 1.0 * 0.5), 1e-12);
  EXPECT_LE(*f.geomean, *u.geomean);
  for (size_t i = 0; i < kFastP.size(); ++i) EXPECT_LE(f.fast_p[i], u.fast_p[i]) << kFastP[i];
  EXPECT_FALSE(score({{"x", false, false, false, std::nullopt}}, false).geomean.has_value());
}

}  // namespace
}  // namespace ucut::suite
