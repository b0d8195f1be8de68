// tests/unit/emit/pipeline_family_test.cpp — memory-bound family stages in pipelines: links and views resolved
// into the family's declarations, the canonical form, the emitted tables and entry, and the errors (C503, C506,
// C507, L018) with their spans.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "ir/pipeline.h"
#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::compile_text;
using test::contains;
using test::error_ids;

const char* kSoftmax =
    "pipeline gemm_softmax : sm90a\n"
    "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32)\n"
    "    >> bias(col) >> gelu >> store(H: f32[M,N] row)\n"
    "  stage sm = rownorm(input: H, norm = softmax, over = N)\n"
    "    >> store(Y: f32[M,N])\n";

const char* kGroupNorm =
    "pipeline gemm_groupnorm : sm90a\n"
    "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
    "  stage gn = rownorm(input: H[M, G, D], gamma: f32[G,D], norm = layer, eps = 1e-5, over = D)\n"
    "    >> expr(x * gamma) >> store(Y: f32[M,G,D])\n";

/// The (line, column) of the first error with rule `code`, or (0, 0).
std::pair<size_t, size_t> error_at(const std::string& text, std::string_view code) {
  SourceFile src("spec.ucut", text);
  Compilation c = compile_spec(src, StopAfter::check);
  for (const Diagnostic& d : c.diags.diagnostics())
    if (d.severity == Severity::error && rule_info(d.rule).code == code) return src.line_col(d.primary.begin);
  return {0, 0};
}

TEST(PipelineFamilyLowering, ABareLinkReadsTheProducersDeclaration) {
  Compilation c = compile_text(kSoftmax);
  ASSERT_TRUE(c.ok() && c.pipeline);
  const PipelineStage& sm = c.pipeline->stages[1];
  ASSERT_TRUE(sm.is_family());
  EXPECT_FALSE(c.pipeline->stages[0].is_family());
  ASSERT_EQ(sm.links.size(), 1u);
  EXPECT_EQ(sm.links[0].producer, 0);
  EXPECT_EQ(sm.links[0].input, 0u);
  EXPECT_EQ(sm.links[0].caller, 0u);
  EXPECT_FALSE(sm.links[0].view);
  const TensorDecl& in = sm.family->input();
  EXPECT_EQ(in.name.value, "input");
  EXPECT_EQ(in.dtype.value, DType::f32);
  ASSERT_EQ(in.dims.size(), 2u);
  EXPECT_EQ(in.dims[1].symbol, "N");
  EXPECT_EQ(sm.name().value, "sm");
  EXPECT_EQ(sm.output().name.value, "Y");
  EXPECT_TRUE(c.pipeline->intermediate(0));
  EXPECT_FALSE(c.pipeline->intermediate(1));
  EXPECT_TRUE(has_family_stage(*c.pipeline));
}

TEST(PipelineFamilyLowering, AViewKeepsTheExtentsWrittenAndTheProducersType) {
  Compilation c = compile_text(kGroupNorm);
  ASSERT_TRUE(c.ok() && c.pipeline);
  const PipelineStage& gn = c.pipeline->stages[1];
  ASSERT_EQ(gn.links.size(), 1u);
  EXPECT_TRUE(gn.links[0].view);
  const TensorDecl& in = gn.family->input();
  ASSERT_EQ(in.dims.size(), 3u);
  EXPECT_EQ(in.dims[1].symbol, "G");
  EXPECT_EQ(in.dtype.value, DType::f32);
  SourceFile src("spec.ucut", kGroupNorm);
  std::string ir = dump_pipeline_ir(src, *c.pipeline);
  EXPECT_TRUE(contains(ir, "input <- H of stage 'mm' viewed as [M, G, D] @3:29")) << ir;
  EXPECT_TRUE(contains(ir, "MemOpConfig 'gn'")) << ir;
}

TEST(PipelineFamilyLowering, TheCanonicalFormSaysTheFamilyAndItsLinks) {
  Compilation c = compile_text(kGroupNorm);
  ASSERT_TRUE(c.pipeline);
  nlohmann::json j = canonical_pipeline(*c.pipeline);
  const nlohmann::json& gn = j["stages"][1];
  EXPECT_EQ(gn["family"], "rownorm");
  EXPECT_EQ(gn["config"], canonical_memop(*c.pipeline->stages[1].family));
  EXPECT_EQ(gn["links"][0]["producer"], 0);
  EXPECT_EQ(gn["links"][0]["input"], "input");
  EXPECT_EQ(gn["links"][0]["view"], nlohmann::json({"M", "G", "D"}));
  EXPECT_FALSE(j["stages"][0].contains("family"));
}

TEST(PipelineFamilyLowering, AFamilyStageMayReadAnotherFamilyStage) {
  const char* spec =
      "pipeline p : sm90a\n"
      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
      "  stage act = map(input: H) >> relu >> store(R: f32[M,N])\n"
      "  stage sm = rownorm(input: R, norm = softmax, over = N) >> store(Y: f32[M,N])\n";
  Compilation c = compile_text(spec);
  ASSERT_TRUE(c.ok() && c.pipeline);
  EXPECT_EQ(c.pipeline->stages[2].links[0].producer, 1);
  std::string code = c.kernel->code;
  EXPECT_TRUE(contains(code, "  case 1: return int64_t(a.extents[0]) * a.extents[1];")) << "act's output size";
  EXPECT_TRUE(contains(code, "{1, 0, 0, 0, \"input\"},"));
  EXPECT_TRUE(contains(code, "{2, 0, 1, 0, \"input\"},"));
}

TEST(PipelineFamilyLowering, ScanReduceAndWindowAreStagesToo) {
  // A running sum of each row, then each row's maximum: reduce's extents are its output's (M), then its input's (N).
  Compilation c = compile_text(
      "pipeline p : sm90a\n"
      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
      "  stage cs = scan(input: H, op = sum) >> store(C: f32[M,N])\n"
      "  stage rs = reduce(input: C, op = max, over = N) >> store(Y: f32[M])\n");
  ASSERT_TRUE(c.ok() && c.kernel);
  EXPECT_EQ(c.pipeline->stages[2].links[0].producer, 1);
  EXPECT_TRUE(contains(c.kernel->code, "{2, 0, 1, 0, \"input\"},"));
  // A pooling, last, over a view of the GEMM's output as [B, C, S, T].
  Compilation pool = compile_text(
      "pipeline p : sm90a\n"
      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
      "  stage pool = window(input: H[B, C, S, T], op = max, size = 2, stride = 2, over = (S, T), edge = clip)\n"
      "    >> store(Y: f32[B, C, S2, T2])\n");
  ASSERT_TRUE(pool.ok() && pool.kernel);
  EXPECT_TRUE(pool.pipeline->stages[1].links[0].view);
}

TEST(PipelineFamilyEmit, OneTranslationUnitWithTheFamilyKernelAndItsTables) {
  std::string code = code_of(kSoftmax);
  Compilation c = compile_text(kSoftmax);
  ASSERT_TRUE(c.pipeline);
  const std::string ns = memop_namespace(*c.pipeline->stages[1].family);
  EXPECT_TRUE(contains(code, fmt::format("namespace {} {{", ns)));
  EXPECT_TRUE(contains(code, fmt::format("{{nullptr, {}_api, \"sm\", 0, {{-1, -1}}, 0,", ns)));
  EXPECT_TRUE(contains(code, "constexpr int kLinkCount = 1;"));
  EXPECT_TRUE(contains(code, "{1, 0, 0, 0, \"input\"},"));
  EXPECT_TRUE(contains(code, "  case 0: return int64_t(a.extents[0]) * a.extents[1];")) << "input [M,N]";
  EXPECT_TRUE(contains(code, fmt::format("const ucut_memop_api* const kMemopStageApis[] = {{nullptr, &{}::kMemopApi}};", ns)));
  EXPECT_TRUE(contains(code, "const ucut_kernel_api* const kStageApis[] = {&"));
  EXPECT_EQ(code, code_of(kSoftmax));  // deterministic
}

TEST(PipelineFamilyEmit, AWindowStageFeedsALaterStageSizedByItsWindow) {
  // conv2d → 2x2 max pooling over (P, Q) of the channels-last Y1 → softmax over the channels K.
  const std::string spec =
      "pipeline conv_pool_softmax : sm90a\n"
      "  stage c = conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,C], acc: f32) >> bias(col) >> store(Y1: f32[N,P,Q,K])\n"
      "  stage pool = window(input: Y1, op = max, size = 2, stride = 2, over = (P, Q), edge = clip)\n"
      "    >> store(Y2: f32[N,P2,Q2,K])\n"
      "  stage sm = rownorm(input: Y2, norm = softmax, over = K) >> store(Y: f32[N,P2,Q2,K])\n";
  Compilation c = compile_text(spec);
  ASSERT_TRUE(c.ok() && c.pipeline && c.kernel) << ::testing::PrintToString(error_ids(spec));
  EXPECT_EQ(c.pipeline->stages[2].links[0].producer, 1);
  const MemOpConfig& pool = *c.pipeline->stages[1].family;
  EXPECT_EQ(pool.extent_symbols(), (std::vector<std::string>{"N", "P", "Q", "K"}));
  const std::string code = c.kernel->code;
  // The workspace holds the pooled Y2: N · ((P − 2) / 2 + 1) · ((Q − 2) / 2 + 1) · K from the window's extents.
  EXPECT_TRUE(contains(code,
                       "  case 1: return int64_t(a.extents[0]) * ((a.extents[1] + 2 * 0 - 2) / 2 + 1) * "
                       "((a.extents[2] + 2 * 0 - 2) / 2 + 1) * a.extents[3];"))
      << code;
  EXPECT_TRUE(contains(code, "{1, 0, 0, 0, \"input\"},"));
  EXPECT_TRUE(contains(code, "{2, 0, 1, 0, \"input\"},"));
  // The window is the channels-last kernel: [N] planes, windows along (P, Q), K kept.
  EXPECT_TRUE(contains(code, "const ucut_window_cl_shape shape{n_N, {1, n_P, n_Q},")) << code;
  EXPECT_TRUE(contains(code, "ucut_window_cl_launch<ElementIn0, float, ElementOut, kThreads, WindowOp, false, Body>"));
  EXPECT_EQ(code, code_of(spec));  // deterministic
}

TEST(PipelineFamilyEmit, APipelineWithoutFamilyStagesHasNoLinks) {
  std::string code = code_of(
      "pipeline p : sm90a\n"
      "  stage a = gemm(A: f16[M,K] row, B: f16[K,N] col, acc: f32) >> store(H: f16[M,N] row)\n"
      "  stage b = gemm(A: H, B: f16[N,P] col, acc: f32) >> store(Y: f32[M,P] row)\n");
  EXPECT_TRUE(contains(code, "const ucut_family_link* const kLinks = nullptr;"));
  EXPECT_TRUE(contains(code, "const ucut_memop_api* const kMemopStageApis[] = {nullptr, nullptr};"));
}

TEST(PipelineFamilyRules, LinkErrorsHaveTheirRulesAndSpans) {
  // A GEMM reading a family stage's output: C506 at the operand.
  const std::string gemm_reads_norm =
      "pipeline p : sm90a\n"
      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
      "  stage sm = rownorm(input: H, norm = softmax, over = N) >> store(P: f32[M,N] row)\n"
      "  stage out = gemm(A: P, B: f32[N,Q] col, acc: f32) >> store(Y: f32[M,Q] row)\n";
  EXPECT_EQ(error_ids(gemm_reads_norm), std::vector<std::string>{"C506"});
  EXPECT_EQ(error_at(gemm_reads_norm, "C506"), (std::pair<size_t, size_t>{4, 23}));
  // A name that is neither an element type nor a stored output: L018 with a did-you-mean.
  const std::string typo =
      "pipeline p : sm90a\n"
      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(Hid: f32[M,N] row)\n"
      "  stage sm = rownorm(input: Hdi, norm = softmax, over = N) >> store(Y: f32[M,N])\n";
  EXPECT_EQ(error_ids(typo), std::vector<std::string>{"L018"});
  EXPECT_EQ(error_at(typo, "L018"), (std::pair<size_t, size_t>{3, 29}));
  // A view with twice the elements.
  const std::string twice =
      "pipeline p : sm90a\n"
      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
      "  stage gn = rownorm(input: H[M, N, 2], norm = layer, eps = 1e-5, over = N) >> store(Y: f32[M,N,2])\n";
  EXPECT_EQ(error_ids(twice), std::vector<std::string>{"C507"});
  EXPECT_EQ(error_at(twice, "C507"), (std::pair<size_t, size_t>{3, 29}));
  // A family stage whose output nobody reads, before the last stage.
  EXPECT_EQ(error_ids("pipeline p : sm90a\n"
                      "  stage m = map(input: f32[M,N]) >> relu >> store(R: f32[M,N])\n"
                      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(Y: f32[M,N] row)\n"),
            std::vector<std::string>{"C503"});
  // The family's own checks apply: a softmax takes no eps (C707).
  EXPECT_EQ(error_ids("pipeline p : sm90a\n"
                      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32) >> store(H: f32[M,N] row)\n"
                      "  stage sm = rownorm(input: H, norm = softmax, eps = 1e-5, over = N) >> store(Y: f32[M,N])\n"),
            std::vector<std::string>{"C707"});
  // A stage reading a failed producer reports nothing of its own.
  EXPECT_EQ(error_ids("pipeline p : sm90a\n"
                      "  stage mm = gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f99) >> store(H: f32[M,N] row)\n"
                      "  stage sm = rownorm(input: H, norm = softmax, over = N) >> store(Y: f32[M,N])\n")
                .size(),
            1u);
}

}  // namespace
}  // namespace ucut
