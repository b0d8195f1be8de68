// tests/unit/emit/pipeline_emit_test.cpp — pipelines: links and conversions in the IR and the canonical form, one
// translation unit holding every stage's kernel and the pipeline's entry point, and the structure errors.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "abi/kernel_abi.h"
#include "ir/canonical.h"
#include "ir/pipeline.h"
#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::compile_text;
using test::contains;
using test::error_ids;

const char* kMlp =
    "pipeline mlp : sm90a\n"
    "  stage up = gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col, acc: f32)\n"
    "    >> bias(col) >> gelu >> store(H: bf16[M,N] row)\n"
    "  stage down = gemm(A: H, B: bf16[N,P] col, acc: f32)\n"
    "    >> bias(col) >> store(Y: f32[M,P] row)\n";

TEST(PipelineLowering, LinksTakeTheProducersDeclarationAndConversionsLeaveTheOperandType) {
  Compilation c = compile_text(kMlp);
  ASSERT_TRUE(c.ok() && c.pipeline);
  const PipelineConfig& p = *c.pipeline;
  ASSERT_EQ(p.stages.size(), 2u);
  const PipelineStage &up = p.stages[0], &down = p.stages[1];
  EXPECT_TRUE(up.inputs[0].converted());
  EXPECT_EQ(*up.inputs[0].caller_dtype, DType::f32);
  EXPECT_EQ(up.config.a.dtype.value, DType::bf16);  // the stage reads the converted copy
  EXPECT_FALSE(up.inputs[1].converted() || up.inputs[1].linked());
  EXPECT_EQ(down.inputs[0].producer, 0);
  EXPECT_EQ(down.config.a.dtype.value, DType::bf16);  // H as stored
  EXPECT_EQ(down.config.a.dims[1].symbol, "N");       // H[M,N] read as A[M,K]: K is N
  EXPECT_TRUE(p.intermediate(0));
  EXPECT_FALSE(p.intermediate(1));
}

TEST(PipelineLowering, TheCanonicalFormNamesLinksAndCallerTypes) {
  Compilation c = compile_text(kMlp);
  ASSERT_TRUE(c.pipeline);
  nlohmann::json j = canonical_pipeline(*c.pipeline);
  EXPECT_EQ(j["pipeline"], "mlp");
  EXPECT_EQ(j["arch"], "sm90a");
  EXPECT_EQ(j["stages"][0]["inputs"]["a"]["caller_dtype"], "f32");
  EXPECT_EQ(j["stages"][0]["inputs"]["b"]["caller_dtype"], "bf16");
  EXPECT_EQ(j["stages"][1]["inputs"]["a"]["producer"], 0);
  EXPECT_FALSE(j["stages"][1]["inputs"]["a"].contains("caller_dtype"));
  EXPECT_EQ(j["stages"][1]["config"], canonical_config(c.pipeline->stages[1].config));
}

TEST(PipelineEmit, OneTranslationUnitWithEveryStageAndThePipelineEntry) {
  std::string code = code_of(kMlp);
  Compilation c = compile_text(kMlp);
  ASSERT_TRUE(c.pipeline);
  for (const PipelineStage& s : c.pipeline->stages)
    EXPECT_TRUE(contains(code, fmt::format("namespace {} {{", kernel_namespace(s.config)))) << s.config.name.value;
  EXPECT_TRUE(contains(code, fmt::format("namespace {} {{", pipeline_namespace(*c.pipeline))));
  // The stages' own entry points stay out: the library exports the pipeline's.
  EXPECT_TRUE(contains(code, "#define UCUT_DEFINE_PIPELINE_ENTRY\n#undef UCUT_DEFINE_ENTRY"));
  EXPECT_TRUE(contains(code, "const ucut_pipeline_api* ucut_pipeline_entry(void)"));
  EXPECT_TRUE(contains(code, "constexpr int kStageCount = 2;"));
  // up: A converted from f32 to bf16; down: A is stage 0's output.
  EXPECT_TRUE(contains(code, "\"up\", 0, {-1, -1}, 1, {ucut_elem_f32, ucut_elem_none}, {ucut_elem_bf16, ucut_elem_bf16}"));
  EXPECT_TRUE(contains(code, "\"down\", 0, {0, -1}, 0, {ucut_elem_none, ucut_elem_none}"));
  EXPECT_TRUE(contains(code, "const char* const kTensorName[] = {\"H\", \"Y\"};"));
  EXPECT_EQ(code, code_of(kMlp));  // deterministic
}

TEST(PipelineEmit, Ampere2xStagesShareTheRuntime) {
  std::string code = code_of(
      "pipeline p : sm80\n"
      "  stage a = gemm(A: f16[M,K] row, B: f16[K,N] col from(bf16), acc: f32) >> store(H: f16[M,N] row)\n"
      "  stage b = gemm(A: f16[R,M] row, B: H, acc: f32) >> store(Y: f32[R,N] row)\n");
  EXPECT_TRUE(contains(code, "ucut_convert_kernel"));
  EXPECT_TRUE(contains(code, "\"b\", 0, {-1, 0}"));  // b's B operand is a's output
  EXPECT_TRUE(contains(code, "arch=compute_80,code=[sm_80,compute_80]"));
}

TEST(PipelineEmit, ConvolutionStagesSayTheirKind) {
  std::string code = code_of(
      "pipeline p : sm80\n"
      "  stage down = conv2d(X: f16[N,H,W,C] from(f32), W: f16[K,R,S,C], acc: f32) >> store(Y1: f16[N,P,Q,K])\n"
      "  stage up = conv_transpose2d(X: Y1, W: f16[K,R2,S2,K2], acc: f32) >> store(Y: f16[N,P2,Q2,K2])\n");
  // A forward convolution (1) whose activation the pipeline converts; a transposed one (2) reading it.
  EXPECT_TRUE(contains(code, "\"down\", 1, {-1, -1}, 1, {ucut_elem_f32, ucut_elem_none}"));
  EXPECT_TRUE(contains(code, "\"up\", 2, {0, -1}, 0"));
  EXPECT_TRUE(contains(code, "ucut_conv_tensor"));
}

TEST(PipelineRules, StructureErrorsHaveTheirRules) {
  // A linked operand must match its reader's type rules like any operand: bf16 A with an f16 H is C212.
  EXPECT_EQ(error_ids("pipeline p : sm90a\n"
                      "  stage a = gemm(A: f16[M,K] row, B: f16[K,N] col, acc: f32) >> store(H: f16[M,N] row)\n"
                      "  stage b = gemm(A: H, B: bf16[N,P] col, acc: f32) >> store(Y: f32[M,P] row)\n"),
            std::vector<std::string>{"C212"});
  EXPECT_EQ(error_ids("pipeline p : sm90z\n  stage a = gemm(A: f16[M,K] row, B: f16[K,N] col) >> store(H: f16[M,N] row)\n"),
            std::vector<std::string>{"L001"});
  EXPECT_EQ(error_ids("pipeline p : sm90a\n"),
            std::vector<std::string>{"P003"});
  // UCUT_MAX_STAGES (32) stages are a pipeline; one more is C501.
  auto chain = [](int stages) {
    std::string out = "pipeline p : sm90a\n  stage s0 = gemm(A: f16[M,K] row, B: f16[K,K] col) >> store(H0: f16[M,K] row)\n";
    for (int i = 1; i < stages; ++i)
      out += fmt::format("  stage s{} = gemm(A: H{}, B: f16[K,K] col) >> store(H{}: f16[M,K] row)\n", i, i - 1, i);
    return out;
  };
  EXPECT_EQ(error_ids(chain(UCUT_MAX_STAGES)), std::vector<std::string>{});
  EXPECT_EQ(error_ids(chain(UCUT_MAX_STAGES + 1)), std::vector<std::string>{"C501"});
}

}  // namespace
}  // namespace ucut
