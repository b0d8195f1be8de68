// tests/unit/eval/pipeline_desc_test.cpp — eval/worker/pipeline_desc.h, the worker's reading of a pipeline's
// canonical JSON: stages, links and conversions; the pipelines it refuses to measure, with the stage named; and
// pipeline_mismatch(), which refuses a candidate whose stages read other inputs or carry other slots.
#include "eval/worker/pipeline_desc.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

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

  nlohmann::json no_inputs = mlp();
  no_inputs["stages"][1].erase("inputs");
  EXPECT_NE(parse_error(no_inputs).find("the problem's pipeline config `mlp_block`: stage `down` (1): "),
            std::string::npos)
      << parse_error(no_inputs);
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
