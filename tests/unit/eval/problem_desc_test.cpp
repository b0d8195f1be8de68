// tests/unit/eval/problem_desc_test.cpp — eval/worker/problem_desc.h, the worker's reading of a problem's canonical
// config: aux slots know whether they hold an aux_store tensor or a reduction (its axis, sum or max, name and
// stage), reductions share the aux slot numbering with aux_store in chain order, a convolution's aux_store is a
// channels-last tensor, and slot_mismatch() refuses a kernel whose aux slot is a different kind of output.
#include "eval/worker/problem_desc.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "compiler/pipeline.h"
#include "ir/canonical.h"
#include "problem_config.h"

namespace ucut::worker {
namespace {

using test::problem_config;

constexpr const char* kBf16 = "a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n";

TEST(ProblemDesc, ReductionsAndAuxStoreShareTheAuxSlotsInChainOrder) {
  ProblemDesc p = parse_problem_desc(
      problem_config("gemm", "scale(alpha = 0.125) >> aux_store(Z: bf16[M,N] row) >> row_max(R: f32[M]) >> relu", kBf16));
  ASSERT_EQ(p.aux.size(), 2u);
  EXPECT_EQ(p.aux[0].kind, EpiKind::aux_store);
  EXPECT_FALSE(p.aux[0].reduction());
  EXPECT_EQ(p.aux[0].name, "Z");
  EXPECT_EQ(p.aux[0].tensor.dtype, DType::bf16);
  EXPECT_EQ(p.aux[0].stage, 1);
  EXPECT_EQ(p.aux[1].kind, EpiKind::row_max);
  EXPECT_TRUE(p.aux[1].reduction());
  EXPECT_EQ(p.aux[1].axis(), Axis::row);
  EXPECT_TRUE(p.aux[1].max());
  EXPECT_EQ(p.aux[1].name, "R");
  EXPECT_EQ(p.aux[1].tensor.dtype, DType::f32);
  EXPECT_EQ(p.aux[1].stage, 2);
  // The reference chain: the reduction captures x through its aux slot.
  ASSERT_EQ(p.chain.count, 5);
  EXPECT_EQ(p.chain.stages[1].slot, 0);
  EXPECT_EQ(p.chain.stages[2].kind, EpiKind::row_max);
  EXPECT_EQ(p.chain.stages[2].slot, 1);
  EXPECT_EQ(p.d_name, "D");
}

TEST(ProblemDesc, BatchedColumnSum) {
  ProblemDesc p = parse_problem_desc(problem_config("batched_gemm", "col_sum(S: f32[L,N]) >> relu",
                                            "a = \"f16 row\"\nb = \"f16 col\"\nd = \"f16 row\"\n"));
  ASSERT_EQ(p.aux.size(), 1u);
  EXPECT_EQ(p.aux[0].kind, EpiKind::col_sum);
  EXPECT_EQ(p.aux[0].axis(), Axis::col);
  EXPECT_FALSE(p.aux[0].max());
  EXPECT_EQ(p.aux[0].name, "S");
  EXPECT_EQ(p.aux[0].stage, 0);
  EXPECT_EQ(p.chain.stages[0].slot, 0);
}

TEST(ProblemDesc, EveryReductionKind) {
  for (auto [stage, axis, max] : {std::tuple{"row_sum(R: f32[M])", Axis::row, false},
                                  std::tuple{"row_max(R: f32[M])", Axis::row, true},
                                  std::tuple{"col_sum(S: f32[N])", Axis::col, false},
                                  std::tuple{"col_max(S: f32[N])", Axis::col, true}}) {
    ProblemDesc p = parse_problem_desc(problem_config("gemm", stage, kBf16));
    ASSERT_EQ(p.aux.size(), 1u) << stage;
    EXPECT_TRUE(p.aux[0].reduction()) << stage;
    EXPECT_EQ(p.aux[0].axis(), axis) << stage;
    EXPECT_EQ(p.aux[0].max(), max) << stage;
  }
}

TEST(ProblemDesc, ReductionVectorsAreF32) {
  nlohmann::json c = problem_config("gemm", "row_sum(R: f32[M])", kBf16);
  c["epilogue"][0]["tensor"]["dtype"] = "f16";
  try {
    parse_problem_desc(c);
    FAIL() << "an f16 reduction vector was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("f32 reduction vectors only"), std::string::npos) << e.what();
  }
}

TEST(ProblemDesc, ReductionsOnGemmsAndPerChannelOnConvolutions) {
  nlohmann::json c = problem_config("gemm", "row_sum(R: f32[M])", kBf16);
  c["op"] = "grouped_gemm";
  try {
    parse_problem_desc(c);
    FAIL() << "a grouped GEMM with a reduction was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not on grouped_gemm"), std::string::npos) << e.what();
  }
  // One value per output channel of a convolution: the implicit GEMM's column reduction.
  nlohmann::json conv = problem_config("conv2d", "bias(col) >> col_sum(S: f32[K]) >> col_max(T: f32[K])",
                                       "a = \"bf16\"\nb = \"bf16\"\nd = \"bf16\"\n",
                                       "{ n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3 }");
  ProblemDesc p = parse_problem_desc(conv);
  ASSERT_EQ(p.aux.size(), 2u);
  EXPECT_EQ(p.aux[0].axis(), Axis::col);
  conv["op"] = "conv2d_wgrad";
  EXPECT_THROW(parse_problem_desc(conv), std::runtime_error);
}

TEST(ProblemDesc, AConvolutionsAuxStoreIsAChannelsLastTensorOfItsOwnType) {
  // The 2.x forward convolutions' broadcast epilogue: T = alpha * acc + beta * C + bias[k] through aux slot 0, the
  // reference capturing x before the activation; the output check reads T as the implicit GEMM's [P·Q·N, K].
  const std::string f16 = "a = \"f16\"\nb = \"f16\"\nd = \"f16\"\n";
  const std::string shape = "{ n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3 }";
  ProblemDesc p = parse_problem_desc(problem_config(
      "conv2d", "scale(alpha = 0.5) >> residual(C: f16[N,P,Q,K]) >> bias(col, f32) >> aux_store(T: f32[N,P,Q,K]) >> relu",
      f16, shape));
  ASSERT_EQ(p.aux.size(), 1u);
  EXPECT_EQ(p.aux[0].kind, EpiKind::aux_store);
  EXPECT_FALSE(p.aux[0].reduction());
  EXPECT_EQ(p.aux[0].name, "T");
  EXPECT_EQ(p.aux[0].tensor.dtype, DType::f32);
  EXPECT_EQ(p.aux[0].tensor.layout, Layout::channels_last);
  EXPECT_EQ(p.aux[0].stage, 3);
  ASSERT_EQ(p.chain.count, 6);
  EXPECT_EQ(p.chain.stages[3].kind, EpiKind::aux_store);
  EXPECT_EQ(p.chain.stages[3].slot, 0);
  EXPECT_TRUE(p.has_residual);
  ASSERT_EQ(p.vectors.size(), 1u);
  EXPECT_EQ(p.vectors[0].axis, Axis::col);
  EXPECT_EQ(p.vectors[0].dtype, DType::f32);
  // A kernel storing T in another type is not this problem's.
  ProblemDesc kernel = parse_problem_desc(problem_config(
      "conv2d", "scale(alpha = 0.5) >> residual(C: f16[N,P,Q,K]) >> bias(col, f32) >> aux_store(T: f16[N,P,Q,K]) >> relu",
      f16, shape));
  std::string why = slot_mismatch(p, kernel);
  EXPECT_NE(why.find("aux slot 0 (aux_store) has a different element type"), std::string::npos) << why;
}

TEST(SlotMismatch, AnAuxSlotOfAnotherKindIsRefused) {
  ProblemDesc problem = parse_problem_desc(problem_config("gemm", "row_max(R: f32[M])", kBf16));
  EXPECT_EQ(slot_mismatch(problem, problem), "");
  ProblemDesc sum = parse_problem_desc(problem_config("gemm", "row_sum(R: f32[M])", kBf16));
  std::string why = slot_mismatch(problem, sum);
  EXPECT_NE(why.find("aux slot 0 is row_sum (a reduction vector) in the kernel but row_max"), std::string::npos) << why;
  ProblemDesc col = parse_problem_desc(problem_config("gemm", "col_max(S: f32[N])", kBf16));
  EXPECT_NE(slot_mismatch(problem, col), "");
  ProblemDesc aux = parse_problem_desc(problem_config("gemm", "aux_store(Z: f32[M,N] row)", kBf16));
  why = slot_mismatch(problem, aux);
  EXPECT_NE(why.find("aux_store (an M x N tensor) in the kernel"), std::string::npos) << why;
}

TEST(ProblemDesc, ConvertedOperandsAreReadInTheCallersType) {
  SourceFile src("k.ucut",
                 "kernel k : sm90a\n  gemm(A: bf16[M,K] row from(f32), B: f16[K,N] col from(f32), acc: f32)\n"
                 "    .with_threadblockshape(128, 128, 64)\n  >> store(D: f32[M,N] row)\n");
  Compilation c = compile_spec(src, StopAfter::lower);
  ASSERT_TRUE(c.config);
  ProblemDesc k = parse_problem_desc(canonical_config(*c.config));
  EXPECT_EQ(k.a.dtype, DType::f32);  // what the caller passes and the ABI takes
  EXPECT_EQ(k.b.dtype, DType::f32);
  ASSERT_TRUE(k.converted.has_value());
  EXPECT_EQ(*k.converted, DType::bf16);  // the narrower (fewer mantissa bits at equal width: the first seen)
  ProblemDesc p = parse_problem_desc(problem_config("gemm", "", "a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n"));
  EXPECT_FALSE(p.converted.has_value());
  EXPECT_EQ(slot_mismatch(p, k), "");
}

}  // namespace
}  // namespace ucut::worker
