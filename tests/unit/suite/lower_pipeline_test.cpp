// tests/unit/suite/lower_pipeline_test.cpp — suite problems with several GEMMs or convolutions lowered to pipeline
// problems (suite/lower_pipeline.h): the generated spec of KernelBench's MLP and depthwise-separable convolution,
// each stage's GEMM extents as the harness will run them, the files written and read back as `ucutlass run` reads
// them, and every reason such a chain does not lower.
#include <gtest/gtest.h>

#include <filesystem>

#include "problem/print.h"
#include "problem/read.h"
#include "suite/lower.h"
#include "suite/lower_pipeline.h"
#include "suite_text.h"

namespace ucut::suite {
namespace {

using test::checked;
using test::checked_file;

ucut::Problem pipeline_of(const Checked& c) {
  auto l = lower_to_problem(c);
  if (const auto* why = std::get_if<std::string>(&l)) ADD_FAILURE() << c.problem.path << ": " << *why;
  return std::holds_alternative<ucut::Problem>(l) ? std::get<ucut::Problem>(std::move(l)) : ucut::Problem{};
}

std::string why_not(const Checked& c) {
  auto l = lower_to_problem(c);
  EXPECT_TRUE(std::holds_alternative<std::string>(l));
  return std::holds_alternative<std::string>(l) ? std::get<std::string>(l) : "";
}

/// The generated spec without its two comment lines (which name the source file).
std::string spec_body(const ucut::Problem& p) {
  const std::string& s = p.syntax->pipeline_source;
  size_t at = s.find("pipeline ");
  return at == std::string::npos ? s : s.substr(at);
}

TEST(LowerPipeline, KernelBenchMlpIsAPipelineOfItsLinearLayers) {
  ucut::Problem p = pipeline_of(checked_file("suites/kernelbench/level3/L3_001_mlp.toml"));
  ASSERT_TRUE(p.pipeline);
  EXPECT_EQ(spec_body(p),
            "pipeline L3_001_mlp : sm90a\n"
            "  stage s1 = gemm(A: f32[128,16384] row, B: f32[16384,16384] col, acc: f32)\n"
            "    >> bias(col) >> relu >> store(H1: f32[128,16384] row)\n"
            "  stage s2 = gemm(A: H1, B: f32[16384,16384] col, acc: f32)\n"
            "    >> bias(col) >> relu >> store(H2: f32[128,16384] row)\n"
            "  stage s3 = gemm(A: H2, B: f32[16384,8192] col, acc: f32)\n"
            "    >> bias(col) >> store(Y: f32[128,8192] row)\n");
  ASSERT_EQ(p.pipeline->stages.size(), 3u);
  EXPECT_EQ(p.pipeline->stages[1].inputs[0].producer, 0);
  EXPECT_EQ(p.pipeline->stages[2].inputs[0].producer, 1);
  ASSERT_EQ(p.shapes.size(), 1u);
  ASSERT_EQ(p.shapes[0].stages.size(), 3u);
  EXPECT_EQ(p.shapes[0].stages[2].m, 128);
  EXPECT_EQ(p.shapes[0].stages[2].n, 8192);
  EXPECT_EQ(p.shapes[0].stages[2].k, 16384);
  EXPECT_EQ(p.shapes[0].label, "L3/1");
  EXPECT_DOUBLE_EQ(p.tolerance.atol, 1e-4);
  EXPECT_EQ(p.semantics.output().name.value, "Y");
}

TEST(LowerPipeline, DepthwiseSeparableConvolutionCarriesEachStagesGeometry) {
  ucut::Problem p =
      pipeline_of(checked_file("suites/kernelbench/level1/L1_086_depthwise_separable_conv2d.toml"));
  ASSERT_TRUE(p.pipeline);
  EXPECT_EQ(spec_body(p),
            "pipeline L1_086_depthwise_separable_conv2d : sm90a\n"
            "  stage s1 = depthwise_conv2d(X: f32[16,512,512,64], W: f32[64,3,3,1], acc: f32)\n"
            "    >> store(H1: f32[16,512,512,64])\n"
            "  stage s2 = conv2d(X: H1, W: f32[128,1,1,64], acc: f32, math = tf32)\n"
            "    >> store(Y: f32[16,512,512,128])\n");
  EXPECT_NE(p.syntax->pipeline_problem.find("s1 = { pad = [1, 1], stride = [1, 1], dilation = [1, 1] }"),
            std::string::npos)
      << p.syntax->pipeline_problem;
  ASSERT_EQ(p.shapes[0].stages.size(), 2u);
  // The pointwise stage's implicit GEMM: every output pixel a row, 128 channels, K = 64 input channels.
  EXPECT_EQ(p.shapes[0].stages[1].m, 16 * 512 * 512);
  EXPECT_EQ(p.shapes[0].stages[1].n, 128);
  EXPECT_EQ(p.shapes[0].stages[1].k, 64);
}

TEST(LowerPipeline, FilesWrittenReadBackAsTheSameProblem) {
  ucut::Problem p = pipeline_of(checked_file("suites/kernelbench/level3/L3_002_shallow_wide_mlp.toml"));
  auto dir = std::filesystem::temp_directory_path() / "ucut_lower_pipeline_test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "L3_002.toml").string();
  ASSERT_TRUE(write_problem_files(p, path));
  EXPECT_TRUE(std::filesystem::exists(dir / "L3_002_shallow_wide_mlp.ucut"));
  std::string error;
  auto read = load_problem(path, &error);
  ASSERT_TRUE(read) << error;
  ASSERT_TRUE(read->pipeline);
  EXPECT_EQ(read->pipeline->stages.size(), 3u);
  EXPECT_EQ(read->shapes[0].stages[1].n, p.shapes[0].stages[1].n);
  std::filesystem::remove_all(dir);
}

TEST(LowerPipeline, SingleKernelLoweringSaysItIsAPipeline) {
  auto l = lower_with_sources(checked_file("suites/kernelbench/level3/L3_001_mlp.toml"));
  ASSERT_TRUE(std::holds_alternative<std::string>(l));
  EXPECT_NE(std::get<std::string>(l).find("a pipeline problem"), std::string::npos);
}

TEST(LowerPipeline, ReasonsAChainOfSeveralMainOpsDoesNotLower) {
  const std::string x = "[[input]]\nname = \"x\"\nshape = [64, 32]\n";
  EXPECT_EQ(why_not(checked(x + "[[op]]\nop = \"linear\"\nout_features = 16\n[[op]]\nop = \"relu\"\n"
                                "[[op]]\nop = \"linear\"\nout_features = 8\n[[op]]\nop = \"sum\"\ndim = [1]\n")),
            "op 4 (sum): `sum` is not an elementwise epilogue stage");
  EXPECT_EQ(why_not(checked(x + "[[op]]\nop = \"linear\"\nout_features = 16\nsave = \"h\"\n"
                                "[[op]]\nop = \"linear\"\nout_features = 16\n[[op]]\nop = \"add\"\nother = \"h\"\n")),
            "op 3 (add): `add` reads back `h`, saved after op 1 in an earlier stage of the pipeline");
  EXPECT_EQ(why_not(checked(x + "[[op]]\nop = \"linear\"\nout_features = 16\n[[op]]\nop = \"relu\"\nsave = \"r\"\n"
                                "[[op]]\nop = \"add\"\nother = \"r\"\n"
                                "[[op]]\nop = \"linear\"\nout_features = 16\n[[op]]\nop = \"mul\"\nother = \"r\"\n")),
            "op 5 (mul): `mul` reads back `r`, saved after op 2 in an earlier stage of the pipeline");
  EXPECT_EQ(why_not(checked(x + "[[input]]\nname = \"y\"\nshape = [16, 8]\n[[op]]\nop = \"linear\"\nout_features = 16\n"
                                "[[op]]\nop = \"matmul\"\nother = \"y\"\n")),
            "op 2 (matmul): a pipeline stage multiplies by a learned matrix (a `linear`, or a `matmul` by a 2-D "
            "`param`)");
}

}  // namespace
}  // namespace ucut::suite
