// tests/unit/eval/pipeline_desc_test.cpp — eval/worker/pipeline_desc.h, the worker's reading of a pipeline's
// canonical JSON: stages, links and conversions, of GEMM and of convolution pipelines; the pipelines it refuses to
// measure, with the stage named; pipeline_mismatch(), which refuses a candidate whose stages read other inputs or
// carry other slots; and conv_link_mismatch(), which refuses a convolution link whose tensors differ at a shape.
#include "eval/worker/pipeline_desc.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "../test_paths.h"
#include "ir/pipeline.h"
#include "problem_config.h"

namespace ucut::worker {
namespace {

using test::problem_config;

constexpr const char* kUp = "a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n";
constexpr const char* kDown = "a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"f32 row\"\n";

nlohmann::json caller(const std::string& dtype) { return {{"producer", -1}, {"caller_dtype", dtype}}; }
nlohmann::json from_stage(int s) { return {{"producer", s}}; }

/// The MLP of the brief: up = gelu(x W1 + b) with x handed over in f32, down = H W2.
nlohmann::json mlp() {
  return {{"pipeline", "mlp_block"},
          {"arch", "sm90a"},
          {"stages",
           {{{"name", "up"},
             {"config", problem_config("gemm", "bias(col) >> gelu", kUp)},
             {"inputs", {{"a", caller("f32")}, {"b", caller("bf16")}}}},
            {{"name", "down"},
             {"config", problem_config("gemm", "", kDown)},
             {"inputs", {{"a", from_stage(0)}, {"b", caller("bf16")}}}}}}};
}

constexpr const char* kConvShape = "{ n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3 }";

/// A convolution stage's config: bf16 operands, D stored as `d`.
nlohmann::json conv_config(const std::string& op, const std::string& epilogue, const std::string& d) {
  return problem_config(op, epilogue, "a = \"bf16\"\nb = \"bf16\"\nd = \"" + d + "\"\n", kConvShape);
}

/// Two convolutions: c1 = relu(conv(X, W1) + b1) with X handed over in f32, c2 = conv(Y1, W2) + b2.
nlohmann::json conv_block() {
  return {{"pipeline", "conv_block"},
          {"arch", "sm90a"},
          {"stages",
           {{{"name", "c1"},
             {"config", conv_config("conv2d", "bias(col) >> relu", "bf16")},
             {"inputs", {{"a", caller("f32")}, {"b", caller("bf16")}}}},
            {{"name", "c2"},
             {"config", conv_config("conv2d", "bias(col)", "f32")},
             {"inputs", {{"a", from_stage(0)}, {"b", caller("bf16")}}}}}}};
}

std::string parse_error(const nlohmann::json& j) {
  try {
    parse_pipeline_desc(j, "the problem's");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << j.dump();
  return "";
}

TEST(PipelineDesc, StagesLinksAndConversions) {
  EXPECT_TRUE(is_pipeline_config(mlp()));
  EXPECT_FALSE(is_pipeline_config(problem_config("gemm", "", kUp)));
  PipelineDesc p = parse_pipeline_desc(mlp(), "the problem's");
  EXPECT_EQ(p.name, "mlp_block");
  ASSERT_EQ(p.stages.size(), 2u);
  EXPECT_EQ(p.stages[0].name, "up");
  EXPECT_EQ(p.stage_label(1), "stage `down` (1)");
  EXPECT_FALSE(p.stages[0].a.linked());
  EXPECT_EQ(p.stages[0].a.caller_dtype, DType::f32);
  EXPECT_TRUE(p.stages[0].a.converted(p.stages[0].problem.a.dtype));
  EXPECT_FALSE(p.stages[0].b.converted(p.stages[0].problem.b.dtype));
  EXPECT_TRUE(p.stages[1].a.linked());
  EXPECT_EQ(p.stages[1].a.producer, 0);
  EXPECT_FALSE(p.stages[1].a.converted(p.stages[1].problem.a.dtype));
  EXPECT_EQ(p.stages[1].problem.d.dtype, DType::f32);
  EXPECT_EQ(p.stages[0].problem.vectors.size(), 1u);
}

TEST(PipelineDesc, AnAbsentCallerDtypeIsTheStagesOwn) {
  nlohmann::json j = mlp();
  j["stages"][1]["inputs"]["b"].erase("caller_dtype");
  EXPECT_EQ(parse_pipeline_desc(j, "the problem's").stages[1].b.caller_dtype, DType::bf16);
}

TEST(PipelineDesc, RefusalsNameTheStage) {
  nlohmann::json later = mlp();
  later["stages"][0]["inputs"]["b"] = from_stage(1);
  EXPECT_NE(parse_error(later).find("stage `up` (0): its B reads stage 1, which does not run before it"),
            std::string::npos)
      << parse_error(later);

  nlohmann::json other_type = mlp();
  other_type["stages"][1]["config"] = problem_config("gemm", "", "a = \"f16 row\"\nb = \"f16 col\"\nd = \"f32 row\"\n");
  other_type["stages"][1]["inputs"]["b"] = caller("f16");
  EXPECT_NE(parse_error(other_type).find("stage `down` (1): its A is f16 row but reads stage `up` (0)'s D, stored "
                                         "bf16 row"),
            std::string::npos)
      << parse_error(other_type);

  nlohmann::json fp8 = mlp();
  fp8["stages"][0]["inputs"]["b"] = caller("e4m3");
  EXPECT_NE(parse_error(fp8).find("stage `up` (0): its B converts e4m3 to bf16"), std::string::npos)
      << parse_error(fp8);

  nlohmann::json aux = mlp();
  aux["stages"][1]["config"] = problem_config("gemm", "row_max(R: f32[M])", kDown);
  EXPECT_NE(parse_error(aux).find("stage `down` (1): has aux outputs or reductions"), std::string::npos)
      << parse_error(aux);

  nlohmann::json unread = mlp();
  unread["stages"][1]["inputs"]["a"] = caller("bf16");
  EXPECT_NE(parse_error(unread).find("stage `up` (0): no later stage reads its D"), std::string::npos)
      << parse_error(unread);

  nlohmann::json grouped = mlp();
  grouped["stages"][1]["config"]["op"] = "grouped_gemm";
  EXPECT_NE(parse_error(grouped).find("stage `down` (1) is a grouped_gemm"), std::string::npos)
      << parse_error(grouped);

  nlohmann::json family = mlp();
  family["stages"][1] = {{"name", "sm"},
                         {"family", "rownorm"},
                         {"config", nlohmann::json::object()},
                         {"links", {{{"input", "input"}, {"caller", 0}, {"producer", 1}}}}};
  EXPECT_NE(parse_error(family).find("stage `sm` (1): its input `input` reads stage 1, which does not run before it"),
            std::string::npos)
      << parse_error(family);

  nlohmann::json no_inputs = mlp();
  no_inputs["stages"][1].erase("inputs");
  EXPECT_NE(parse_error(no_inputs).find("the problem's pipeline config `mlp_block`: stage `down` (1): "),
            std::string::npos)
      << parse_error(no_inputs);
}

TEST(PipelineDesc, ConvolutionStagesReadTheirActivationFromAnEarlierStage) {
  PipelineDesc p = parse_pipeline_desc(conv_block(), "the problem's");
  EXPECT_EQ(p.family(), OpFamily::conv);
  ASSERT_EQ(p.stages.size(), 2u);
  EXPECT_EQ(p.stages[0].problem.op, OpKind::conv2d);
  EXPECT_TRUE(p.stages[0].a.converted(p.stages[0].problem.a.dtype));
  EXPECT_TRUE(p.stages[1].a.linked());
  EXPECT_EQ(p.stages[1].a.producer, 0);
  EXPECT_FALSE(p.stages[1].b.linked());
  EXPECT_EQ(p.stages[1].problem.d.dtype, DType::f32);
  EXPECT_EQ(parse_pipeline_desc(mlp(), "the problem's").family(), OpFamily::gemm);

  nlohmann::json transposed = conv_block();  // a transposed convolution reads a convolution's output
  transposed["stages"][1]["config"] = conv_config("conv_transpose2d", "", "f32");
  EXPECT_EQ(parse_pipeline_desc(transposed, "the problem's").stages[1].problem.op, OpKind::conv_transpose2d);
}

TEST(PipelineDesc, ConvolutionRefusalsNameTheStage) {
  nlohmann::json filter = conv_block();
  filter["stages"][1]["inputs"]["b"] = from_stage(0);
  EXPECT_NE(parse_error(filter).find("stage `c2` (1): its W (the filter) reads stage `c1` (0)'s Y; a convolution's "
                                     "filter is the caller's"),
            std::string::npos)
      << parse_error(filter);

  nlohmann::json gemm_reads_conv = conv_block();
  gemm_reads_conv["stages"][1]["config"] = problem_config("gemm", "", kDown);
  EXPECT_NE(parse_error(gemm_reads_conv).find("stage `c2` (1) is a gemm but stage `c1` (0) is a conv2d; a "
                                              "pipeline's stages are all GEMMs or all convolutions"),
            std::string::npos)
      << parse_error(gemm_reads_conv);

  nlohmann::json conv_reads_gemm = mlp();
  conv_reads_gemm["stages"][1]["config"] = conv_config("conv2d", "", "f32");
  EXPECT_NE(parse_error(conv_reads_gemm).find("stage `down` (1) is a conv2d but stage `up` (0) is a gemm"),
            std::string::npos)
      << parse_error(conv_reads_gemm);

  nlohmann::json wgrad = conv_block();
  wgrad["stages"][1]["config"] = conv_config("conv2d_wgrad", "", "f32");
  EXPECT_NE(parse_error(wgrad).find("stage `c2` (1) is a conv2d_wgrad; pipeline stages are gemm, batched_gemm, "
                                    "or convolutions other than filter gradients"),
            std::string::npos)
      << parse_error(wgrad);

  nlohmann::json other_type = conv_block();
  other_type["stages"][0]["config"] = conv_config("conv2d", "bias(col) >> relu", "f16");
  EXPECT_NE(parse_error(other_type).find("stage `c2` (1): its X is bf16 channels_last but reads stage `c1` (0)'s "
                                         "Y, stored f16 channels_last"),
            std::string::npos)
      << parse_error(other_type);
}

/// A 2-D convolution's geometry: n images of h x w pixels, c channels in, k out, an r x s filter with `pad` and
/// `stride`.
ConvShape conv2d(ConvKind kind, int64_t n, int64_t h, int64_t w, int64_t c, int64_t k, int64_t r, int64_t pad = 0,
                 int64_t stride = 1) {
  ConvShape s;
  s.dims = 2;
  s.kind = kind;
  s.n = n, s.c = c, s.k = k;
  s.in = {1, h, w};
  s.filter = {1, r, r};
  s.pad = {0, pad, pad};
  s.stride = {1, stride, stride};
  return s;
}

TEST(ConvLinkMismatch, TheProducersOutputMustBeTheConsumersActivationExtentByExtent) {
  PipelineDesc p = parse_pipeline_desc(conv_block(), "the problem's");
  ConvShape c1 = conv2d(ConvKind::fprop, 2, 16, 16, 8, 32, 3, 1, 2);  // Y1: [2, 8, 8, 32]
  EXPECT_EQ(conv_link_mismatch(p, 1, c1, conv2d(ConvKind::fprop, 2, 8, 8, 32, 16, 3, 1)), "");

  // The same 128 pixels per image, split 4 x 32: the same matrix, another tensor.
  std::string why = conv_link_mismatch(p, 1, c1, conv2d(ConvKind::fprop, 2, 4, 32, 32, 16, 3, 1));
  EXPECT_EQ(why, "stage `c2` (1): its X [N,H,W,C] = [2, 4, 32, 32] at the request's shape, but it reads stage "
                 "`c1` (0)'s Y [N,P,Q,K] = [2, 8, 8, 32]");
  why = conv_link_mismatch(p, 1, c1, conv2d(ConvKind::fprop, 2, 8, 8, 16, 16, 3, 1));
  EXPECT_NE(why.find("[2, 8, 8, 16] at the request's shape"), std::string::npos) << why;

  // A transposed convolution (dgrad) reads its forward geometry's output side: [n, out, k].
  nlohmann::json transposed = conv_block();
  transposed["stages"][1]["config"] = conv_config("conv_transpose2d", "", "f32");
  PipelineDesc t = parse_pipeline_desc(transposed, "the problem's");
  ConvShape up = conv2d(ConvKind::dgrad, 2, 16, 16, 4, 32, 3, 1, 2);  // reads [2, 8, 8, 32], writes [2, 16, 16, 4]
  EXPECT_EQ(conv_link_mismatch(t, 1, c1, up), "");
  EXPECT_EQ(conv_link_mismatch(t, 1, c1, conv2d(ConvKind::dgrad, 2, 8, 8, 4, 32, 3, 1, 2)),
            "stage `c2` (1): its X [N,H,W,C] = [2, 4, 4, 32] at the request's shape, but it reads stage `c1` (0)'s Y "
            "[N,P,Q,K] = [2, 8, 8, 32]");
}

TEST(ConvLinkMismatch, TheShippedConvPipelineLinksAtEveryShapeOfItsProblem) {
  std::string err;
  auto p = load_problem(ucut::test_paths::source_dir() + "/problems/conv_block_pipeline.toml", &err);
  ASSERT_TRUE(p && p->pipeline) << err;
  PipelineDesc d = parse_pipeline_desc(canonical_pipeline(*p->pipeline), "the problem's");
  EXPECT_EQ(d.family(), OpFamily::conv);
  ASSERT_EQ(d.stages.size(), 2u);
  ASSERT_EQ(d.stages[1].a.producer, 0);
  for (const GemmShape& shape : p->shapes) {
    ASSERT_EQ(shape.stages.size(), 2u);
    ASSERT_TRUE(shape.stages[0].is_conv() && shape.stages[1].is_conv()) << shape.label;
    EXPECT_EQ(conv_link_mismatch(d, 1, shape.stages[0].conv, shape.stages[1].conv), "") << shape.label;
  }
}

TEST(PipelineMismatch, TheCandidateMustReadTheSameInputsWithTheSameSlots) {
  PipelineDesc problem = parse_pipeline_desc(mlp(), "the problem's");
  EXPECT_EQ(pipeline_mismatch(problem, problem), "");

  nlohmann::json bf16_input = mlp();
  bf16_input["stages"][0]["inputs"]["a"] = caller("bf16");
  std::string why = pipeline_mismatch(problem, parse_pipeline_desc(bf16_input, "the kernel's"));
  EXPECT_NE(why.find("stage `up` (0): its A is the caller's, in f32 in the problem but the caller's, in bf16 in the "
                     "kernel"),
            std::string::npos)
      << why;

  nlohmann::json no_bias = mlp();
  no_bias["stages"][0]["config"] = problem_config("gemm", "gelu", kUp);
  why = pipeline_mismatch(problem, parse_pipeline_desc(no_bias, "the kernel's"));
  EXPECT_NE(why.find("stage `up` (0): the kernel's parameter slots"), std::string::npos) << why;

  nlohmann::json one = mlp();
  one["stages"].erase(1);
  why = pipeline_mismatch(problem, parse_pipeline_desc(one, "the kernel's"));
  EXPECT_NE(why.find("the kernel's pipeline has 1 stages, the problem's 2"), std::string::npos) << why;
}

}  // namespace
}  // namespace ucut::worker
