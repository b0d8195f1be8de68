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
            "  stage s1 = gemm(A: f32[M, K] row, B: f32[K, N1] col, acc: f32)\n"
            "    >> bias(col) >> relu >> store(H1: f32[M, N1] row)\n"
            "  stage s2 = gemm(A: H1, B: f32[N1, N2] col, acc: f32)\n"
            "    >> bias(col) >> relu >> store(H2: f32[M, N2] row)\n"
            "  stage s3 = gemm(A: H2, B: f32[N2, N3] col, acc: f32)\n"
            "    >> bias(col) >> store(Y: f32[M, N3] row)\n");
  EXPECT_NE(p.syntax->pipeline_problem.find("K = 16384, M = 128, N1 = 16384, N2 = 16384, N3 = 8192"), std::string::npos)
      << p.syntax->pipeline_problem;
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
            "  stage s1 = depthwise_conv2d(X: f32[N, H, W, C], W: f32[C, 3, 3, 1], acc: f32)\n"
            "    >> store(H1: f32[N, P1, Q1, C])\n"
            "  stage s2 = conv2d(X: H1, W: f32[K2, 1, 1, C], acc: f32, math = tf32)\n"
            "    >> store(Y: f32[N, P2, Q2, K2])\n");
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

TEST(LowerPipeline, NormsAndReductionsAfterAGemmAreFamilyStages) {
  // A group norm reads [M, N] as [M, G, D]; the parameter multiplied after it is declared in those extents.
  ucut::Problem gn = pipeline_of(checked_file("suites/kernelbench/level2/L2_088_gemm_groupnorm_swish_multiply_swish.toml"));
  EXPECT_EQ(spec_body(gn),
            "pipeline L2_088_gemm_groupnorm_swish_multiply_swish : sm90a\n"
            "  stage s1 = gemm(A: f32[M, K] row, B: f32[K, N1] col, acc: f32)\n"
            "    >> bias(col) >> store(H1: f32[M, N1] row)\n"
            "  stage s2 = rownorm(input: H1[M, G2, D2], gamma2: f32[G2, D2], beta2: f32[G2, D2], p4: f32[G2, D2], "
            "norm = layer, eps = 1e-05, over = D2)\n"
            "    >> expr(x * gamma2 + beta2) >> silu >> expr(x * p4) >> silu >> store(Y: f32[M, G2, D2])\n");
  // Reductions over dims of 1 (amax, mean and two logsumexps of a kept [M, 1] sum) are the identity.
  ucut::Problem sum = pipeline_of(
      checked_file("suites/kernelbench/level2/L2_018_matmul_sum_max_avgpool_logsumexp_logsumexp.toml"));
  EXPECT_EQ(spec_body(sum),
            "pipeline L2_018_matmul_sum_max_avgpool_logsumexp_logsumexp : sm90a\n"
            "  stage s1 = gemm(A: f32[M, K] row, B: f32[K, N1] col, acc: f32)\n"
            "    >> bias(col) >> store(H1: f32[M, N1] row)\n"
            "  stage s2 = reduce(input: H1, op = sum, over = N1, acc: f32)\n"
            "    >> store(Y: f32[M])\n");
}

TEST(LowerPipeline, ChannelsLastOutputsReduceAndNormalizeOverTheirStoredExtents) {
  // Mean over depth, a per-channel parameter (a map: a reduction's chain reads no tensor), softmax over channels.
  ucut::Problem p = pipeline_of(
      checked_file("suites/kernelbench/level2/L2_013_convtranspose3d_mean_add_softmax_tanh_scaling.toml"));
  EXPECT_EQ(spec_body(p),
            "pipeline L2_013_convtranspose3d_mean_add_softmax_tanh_scaling : sm90a\n"
            "  stage s1 = conv_transpose3d(X: f32[N, D, H, W, C], W: f32[C, 3, 3, 3, K1], acc: f32, math = tf32)\n"
            "    >> bias(col) >> store(H1: f32[N, Z1, P1, Q1, K1])\n"
            "  stage s2 = reduce(input: H1, op = mean, over = Z1, acc: f32)\n"
            "    >> store(H2: f32[N, P1, Q1, K1])\n"
            "  stage s3 = map(x: H2, p3: f32[K1])\n"
            "    >> expr(x + p3) >> store(H3: f32[N, P1, Q1, K1])\n"
            "  stage s4 = rownorm(input: H3, norm = softmax, over = K1)\n"
            "    >> tanh >> expr(x * 2) >> store(Y: f32[N, P1, Q1, K1])\n");
  // Batch norm over (N, P, Q) of a channels-last output, with the channel's gamma and beta.
  ucut::Problem bn = pipeline_of(checked_file("suites/kernelbench/level2/L2_073_conv2d_batchnorm_scaling.toml"));
  EXPECT_NE(spec_body(bn).find("rownorm(input: H1, gamma2: f32[K1], beta2: f32[K1], norm = layer, eps = 1e-05, "
                               "over = (N, P1, Q1))\n    >> expr(x * gamma2 + beta2) >> expr(x * 2)"),
            std::string::npos)
      << spec_body(bn);
}

TEST(LowerPipeline, AGroupNormAfterAConvolutionReadsATransposedCopy) {
  // Channels-last groups are no run in memory: a transposing map stores [N, S, K] column-major ([N, K, S] in
  // memory), which the norm reads as [N, G, D, spatial...] (a view of its memory order).
  ucut::Problem p = pipeline_of(checked_file("suites/kernelbench/level2/L2_023_conv3d_groupnorm_mean.toml"));
  EXPECT_EQ(spec_body(p),
            "pipeline L2_023_conv3d_groupnorm_mean : sm90a\n"
            "  stage s1 = conv3d(X: f32[N, D, H, W, C], W: f32[K1, 3, 3, 3, C], acc: f32, math = tf32)\n"
            "    >> bias(col) >> store(H1: f32[N, Z1, P1, Q1, K1])\n"
            "  stage s2t = map(x: H1[N, S2, K1])\n"
            "    >> store(T2: f32[N, S2, K1] col)\n"
            "  stage s2 = rownorm(input: T2[N, G2, D2, Z1, P1, Q1], gamma2: f32[G2, D2, 1, 1, 1], "
            "beta2: f32[G2, D2, 1, 1, 1], norm = layer, eps = 1e-05, over = (D2, Z1, P1, Q1))\n"
            "    >> expr(x * gamma2 + beta2) >> store(H2: f32[N, G2, D2, Z1, P1, Q1])\n"
            "  stage s3 = reduce(input: H2, op = mean, over = (G2, D2, Z1, P1, Q1), acc: f32)\n"
            "    >> store(Y: f32[N])\n");
  EXPECT_NE(p.syntax->pipeline_problem.find("S2 = 19800"), std::string::npos) << p.syntax->pipeline_problem;
  ASSERT_TRUE(p.pipeline);
  EXPECT_EQ(p.pipeline->stages.size(), 4u);
}

TEST(LowerPipeline, PoolingsAreWindowStagesAndLogsumexpAReduction) {
  // A 3-D max pool over a channels-last output's spatial extents (each output extent a symbol of its own), then a
  // logsumexp over the channels.
  ucut::Problem p = pipeline_of(checked_file("suites/kernelbench/level2/L2_043_conv3d_max_logsumexp_relu.toml"));
  EXPECT_EQ(spec_body(p),
            "pipeline L2_043_conv3d_max_logsumexp_relu : sm90a\n"
            "  stage s1 = conv3d(X: f32[N, D, H, W, C], W: f32[K1, 3, 3, 3, C], acc: f32, math = tf32)\n"
            "    >> bias(col) >> store(H1: f32[N, Z1, P1, Q1, K1])\n"
            "  stage s2 = window(input: H1, op = max, size = 2, stride = 2, over = (Z1, P1, Q1), edge = clip)\n"
            "    >> store(H2: f32[N, Z2, P2, Q2, K1])\n"
            "  stage s3 = reduce(input: H2, op = logsumexp, over = K1, acc: f32)\n"
            "    >> relu >> store(Y: f32[N, Z2, P2, Q2])\n");
  EXPECT_NE(p.syntax->pipeline_problem.find("P2 = 64"), std::string::npos) << p.syntax->pipeline_problem;
  // A 1-D max pool of a GEMM's [M, N] (an unbatched (C, L) sequence) pools its last extent.
  ucut::Problem g = pipeline_of(checked_file("suites/kernelbench/level2/L2_055_matmul_maxpool_sum_scale.toml"));
  EXPECT_NE(spec_body(g).find("window(input: H1, op = max, size = 2, stride = 2, over = N1, edge = clip)\n"
                              "    >> store(H2: f32[M, L2])"),
            std::string::npos)
      << spec_body(g);
}

TEST(LowerPipeline, ALayerNormOverAMiddleExtentBroadcastsItsWeightWithTrailingOnes) {
  ucut::Problem p =
      pipeline_of(checked_file("suites/kernelbench/level2/L2_034_convtranspose3d_layernorm_gelu_scaling.toml"));
  EXPECT_NE(spec_body(p).find("rownorm(input: H1, gamma2: f32[Q1, 1], beta2: f32[Q1, 1], norm = layer, eps = 1e-05, "
                              "over = Q1)\n    >> expr(x * gamma2 + beta2) >> gelu"),
            std::string::npos)
      << spec_body(p);
}

TEST(LowerPipeline, SingleKernelLoweringSaysItIsAPipeline) {
  auto l = lower_with_sources(checked_file("suites/kernelbench/level3/L3_001_mlp.toml"));
  ASSERT_TRUE(std::holds_alternative<std::string>(l));
  EXPECT_NE(std::get<std::string>(l).find("a pipeline problem"), std::string::npos);
}

TEST(LowerPipeline, ReasonsAChainOfSeveralMainOpsDoesNotLower) {
  const std::string x = "[[input]]\nname = \"x\"\nshape = [64, 32]\n";
  EXPECT_EQ(why_not(checked(x + "[[op]]\nop = \"linear\"\nout_features = 16\n[[op]]\nop = \"add\"\n"
                                "param = [64, 16]\n[[op]]\nop = \"sum\"\ndim = [1]\n[[op]]\nop = \"add\"\nparam = [64, 1, 1]\n")),
            "op 2 (add): `add` with a parameter of shape [64, 16]: epilogues add, subtract or multiply per-channel "
            "vectors only");
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

// A reduction whose value a later op reads back: the ops after it start a map stage whose x is the stored value,
// and the read-back folds there into one `expr(...)` (views skipped). A value saved earlier than the stage's x
// still does not lower, nor a fold through an op with no `expr` form.
TEST(LowerPipeline, AReducedValueReadBackFoldsInTheMapStageAfterIt) {
  ucut::Problem lse = pipeline_of(
      checked_file("suites/kernelbench/level2/L2_058_convtranspose3d_logsumexp_hardswish_subtract_clamp.toml"));
  EXPECT_NE(spec_body(lse).find("  stage s2 = reduce(input: H1, op = logsumexp, over = K1, acc: f32)\n"
                                "    >> store(H2: f32[N, Z1, P1, Q1])\n"
                                "  stage s3 = map(x: H2, p7: f32[1])\n"
                                "    >> expr(sigmoid(x + 3) * x) >> expr(x / 6) >> expr(x - p7) >> clamp(-1, 1)"),
            std::string::npos)
      << spec_body(lse);
  ucut::Problem max = pipeline_of(checked_file("suites/kernelbench/level2/L2_080_gemm_max_subtract_gelu.toml"));
  EXPECT_NE(spec_body(max).find("  stage s3 = map(x: H2)\n    >> expr(x - x) >> expr(x * -1) >> gelu"),
            std::string::npos)
      << spec_body(max);
  EXPECT_EQ(why_not(checked_file("suites/kernelbench/level2/L2_015_convtranspose3d_batchnorm_subtract.toml")),
            "op 4 (sub): `sub` reads back `h`, saved after op 2 in an earlier stage of the pipeline");
  // A read-back through mish folds now that `expr(...)` has mish and softplus (PyTorch's defaults).
  ucut::Problem mish = pipeline_of(
      checked_file("suites/kernelbench/level2/L2_022_matmul_scale_residualadd_clamp_logsumexp_mish.toml"));
  EXPECT_NE(spec_body(mish).find("  stage s3 = map(x: H2)\n    >> expr(mish(x) * x)"), std::string::npos)
      << spec_body(mish);
  // A read-back through a parameter cannot fold in the convolution's epilogue (`expr` reads x and numbers): the
  // stored value starts a map stage, whose fold reads the parameter by its operand name.
  ucut::Problem param = pipeline_of(
      checked_file("suites/kernelbench/level2/L2_020_convtranspose3d_sum_residualadd_multiply_residualadd.toml"));
  EXPECT_NE(spec_body(param).find("    >> bias(col) >> store(H1: f32[N, Z1, P1, Q1, K1])\n"
                                  "  stage s2 = map(x: H1, p2: f32[K1])\n"
                                  "    >> expr((x + p2 + x) * x + x) >> store(Y: f32[N, Z1, P1, Q1, K1])"),
            std::string::npos)
      << spec_body(param);
  ucut::Problem softplus = pipeline_of(checked_file("suites/kernelbench/level2/L2_052_conv2d_activation_batchnorm.toml"));
  EXPECT_NE(spec_body(softplus).find(">> expr(tanh(softplus(x)) * x) >> store(H1"), std::string::npos)
      << spec_body(softplus);
}

TEST(LowerPipeline, AFoldThroughOneTensorIsAMapStageAndThroughTwoIsRefused) {
  const std::string head =
      "[[input]]\nname = \"x\"\nshape = [64, 32]\n[[input]]\nname = \"y\"\nshape = [64, 48]\n"
      "[[op]]\nop = \"linear\"\nout_features = 48\nsave = \"h\"\n";
  // An input between the save and the read-back: the map stage after the GEMM reads it by name.
  ucut::Problem one = pipeline_of(checked(head + "[[op]]\nop = \"add\"\nother = \"y\"\n[[op]]\nop = \"mul\"\nother = \"h\"\n"));
  EXPECT_NE(spec_body(one).find("map(x: H1, in_y: f32[M, N1])\n    >> expr((x + in_y) * x)"), std::string::npos)
      << spec_body(one);
  // A parameter and an input in one fold: one `expr` reads at most one tensor.
  auto two = lower_pipeline_problem(checked(head + "[[op]]\nop = \"add\"\nother = \"y\"\n[[op]]\nop = \"add\"\n"
                                                   "param = [48]\n[[op]]\nop = \"mul\"\nother = \"h\"\n"));
  ASSERT_TRUE(std::holds_alternative<std::string>(two));
  EXPECT_NE(std::get<std::string>(two).find("reads a second tensor"), std::string::npos) << std::get<std::string>(two);
}

PipelineFeeds feeds_of(const Checked& c) {
  auto l = lower_pipeline_with_feeds(c);
  if (const auto* why = std::get_if<std::string>(&l)) ADD_FAILURE() << c.problem.path << ": " << *why;
  return std::holds_alternative<PipelineLowering>(l) ? std::get<PipelineLowering>(l).feeds : PipelineFeeds{};
}

TEST(LowerPipeline, FeedsSayWhichFrameworkTensorEachStageReads) {
  // conv_transpose3d (bias) → mean over depth → + param [1, 64, 1, 1, 1] (a map) → softmax, tanh, * 2.
  PipelineFeeds f = feeds_of(
      checked_file("suites/kernelbench/level2/L2_013_convtranspose3d_mean_add_softmax_tanh_scaling.toml"));
  ASSERT_EQ(f.stages.size(), 4u);
  EXPECT_EQ(f.stages[0].op, 0u);
  ASSERT_EQ(f.stages[0].epilogue.size(), 1u);  // bias(col): the layer's own bias
  EXPECT_EQ(f.stages[0].epilogue[0].kind, StageSource::Kind::layer_bias);
  EXPECT_TRUE(f.stages[1].operands.empty());
  ASSERT_EQ(f.stages[2].operands.count("p3"), 1u);
  const FamilyOperand& p3 = f.stages[2].operands.at("p3");
  EXPECT_EQ(p3.kind, FamilyOperand::Kind::param);
  EXPECT_EQ(p3.index, 2u);
  EXPECT_EQ(p3.order, (std::vector<size_t>{0, 1, 2, 3, 4}));  // dims of 1 move no element
  // The output: stored [N, P1, Q1, K1] (channels-last), PyTorch's [N, C, 1 (the kept depth), H, W].
  EXPECT_EQ(f.stored, (std::vector<std::string>{"N", "P1", "Q1", "K1"}));
  EXPECT_EQ(f.dims, (std::vector<std::vector<std::string>>{{"N"}, {"K1"}, {}, {"P1"}, {"Q1"}}));
  // Batch norm: gamma and beta are the module's weight and bias; a group norm's transposing map reads
  // nothing.
  PipelineFeeds bn = feeds_of(checked_file("suites/kernelbench/level2/L2_073_conv2d_batchnorm_scaling.toml"));
  ASSERT_EQ(bn.stages.size(), 2u);
  EXPECT_EQ(bn.stages[1].operands.at("gamma2").kind, FamilyOperand::Kind::weight);
  EXPECT_EQ(bn.stages[1].operands.at("beta2").kind, FamilyOperand::Kind::bias);
  EXPECT_EQ(bn.stages[1].operands.at("beta2").index, 1u);
  PipelineFeeds gn = feeds_of(
      checked_file("suites/kernelbench/level2/L2_011_convtranspose2d_batchnorm_tanh_maxpool_groupnorm.toml"));
  ASSERT_EQ(gn.stages.size(), 5u);  // conv, batch norm, max pool, the transposing map, the group norm
  EXPECT_TRUE(gn.stages[3].operands.empty());
  EXPECT_EQ(gn.stages[4].operands.at("gamma5").index, 4u);
  EXPECT_EQ(gn.dims, (std::vector<std::vector<std::string>>{{"N"}, {"G4", "D4"}, {"P3"}, {"Q3"}}));
}

TEST(LowerPipeline, AFamilyOperandInAnotherDimOrderThanMemorySaysWhichOrder) {
  // A [C, H, W] parameter after a channels-last softmax: its declaration reads [P, Q, K], dims (1, 2, 0).
  PipelineFeeds f =
      feeds_of(checked("[[input]]\nname = \"x\"\nshape = [2, 3, 10, 10]\n[[op]]\nop = \"conv\"\nout_channels "
                       "= 8\nkernel = [3, 3]\n"
                       "[[op]]\nop = \"softmax\"\ndim = 1\n[[op]]\nop = \"add\"\nparam = [8, 8, 8]\n"));
  ASSERT_EQ(f.stages.size(), 2u);
  ASSERT_EQ(f.stages[1].operands.count("p3"), 1u);
  EXPECT_EQ(f.stages[1].operands.at("p3").order, (std::vector<size_t>{1, 2, 0}));
}

}  // namespace
}  // namespace ucut::suite
