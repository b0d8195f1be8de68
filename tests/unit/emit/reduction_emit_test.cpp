// tests/unit/emit/reduction_emit_test.cpp — epilogue reductions: which CUTLASS node each stage becomes (one value per
// row is Sm90ColReduction, per column Sm90RowReduction), its functor, identity, vector stride and aux slot, the
// per-launch workspace re-initialization their tile counters need, and the rules around them (C405, C409, C412,
// C419, C421).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "spec_compile.h"

namespace ucut {
namespace {

std::string gemm_spec(std::string_view arch, std::string_view configs, std::string_view chain) {
  return fmt::format("kernel k : {}\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n{}{}\n  >> store(D: bf16[M,N] "
                     "row)\n",
                     arch, configs, chain);
}

using test::code_of;
using test::contains;
using test::error_ids;

TEST(ReductionEmit, RowMaxIsAColumnVectorReductionWithMinusInfinity) {
  std::string code = code_of(gemm_spec("sm90a", "", "  >> scale(alpha = 0.125)\n  >> row_max(R: f32[M])"));
  EXPECT_TRUE(contains(code, "Sm90ColReduction<cutlass::maximum_with_default_nan_propagation, "
                             "cutlass::maximum_with_default_nan_propagation, cutlass::maximum_with_default_nan_propagation, "
                             "0, TileShape, float, ElementCompute, RoundStyle, cute::Stride<cute::_1, cute::_0, int64_t>>"));
  EXPECT_TRUE(contains(code, "{a->aux[0].ptr, -cutlass::platform::numeric_limits<ElementCompute>::infinity(), "
                             "{cute::_1{}, cute::_0{}, int64_t(a->aux[0].batch_stride)}}"));
  // The reductions' tile counters are zeroed by initialize(): every launch re-initializes.
  EXPECT_TRUE(contains(code, "cutlass::Status s = p->gemm.initialize(p->args, p->workspace,"));
}

TEST(ReductionEmit, ColSumIsARowVectorReductionAndTakesTheNextAuxSlot) {
  std::string code = code_of(gemm_spec("sm90a", "", "  >> aux_store(Z: bf16[M,N] row)\n  >> col_sum(S: f32[N])"));
  EXPECT_TRUE(contains(code, "Sm90RowReduction<cutlass::plus, cutlass::plus, cutlass::plus, 0, TileShape, float, "
                             "ElementCompute, RoundStyle, cute::Stride<cute::_0, cute::_1, int64_t>>"));
  EXPECT_TRUE(contains(code, "{a->aux[1].ptr, ElementCompute(0), {cute::_0{}, cute::_1{}, int64_t(a->aux[1].batch_stride)}}"));
  std::string plain = code_of(gemm_spec("sm90a", "", "  >> relu"));
  EXPECT_FALSE(contains(plain, "p->gemm.initialize(p->args"));  // no counters, no per-launch initialization
}

TEST(ReductionEmit, BatchedVectorsCarryTheBatchExtent) {
  std::string spec = "kernel k : sm90a\n  batched_gemm(A: f16[L,M,K] row, B: f16[L,K,N] col, acc: f32)\n"
                     "  >> col_sum(S: f32[L,N])\n  >> store(D: f16[L,M,N] row)\n";
  EXPECT_TRUE(contains(code_of(spec), "Sm90RowReduction<cutlass::plus"));
  std::string unbatched = "kernel k : sm90a\n  batched_gemm(A: f16[L,M,K] row, B: f16[L,K,N] col, acc: f32)\n"
                          "  >> col_sum(S: f32[N])\n  >> store(D: f16[L,M,N] row)\n";
  EXPECT_EQ(error_ids(unbatched), std::vector<std::string>{"C405"});
}

TEST(ReductionEmit, RulesSayWhereReductionsRun) {
  using V = std::vector<std::string>;
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "", "  >> row_max(R: f32[N])")), V{"C405"});  // a row max has M entries
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "", "  >> row_sum(R: bf16[M])")), V{"C412"});
  EXPECT_EQ(error_ids(gemm_spec("sm80", "", "  >> row_sum(R: f32[M])")), V{"C421"});
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "    .with_scheduler(multistage)\n", "  >> row_sum(R: f32[M])")), V{"C421"});
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "    .with_scheduler(tma_cooperative)\n    .with_tile_scheduler(split_k(2))\n",
                             "  >> col_max(S: f32[N])")),
            V{"C421"});
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "",
                             "  >> row_sum(R: f32[M])\n  >> col_sum(S: f32[N])\n  >> aux_store(Z: bf16[M,N] row)")),
            V{"C409"});  // three outputs through two aux slots
  EXPECT_EQ(error_ids("kernel k : sm90a\n  conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,C], acc: f32)\n"
                   "  >> row_sum(R: f32[N])\n  >> store(Y: bf16[N,P,Q,K])\n"),
            V{"C421"});
  EXPECT_EQ(error_ids("kernel k : sm90a\n  grouped_gemm(A: f16[G,M,K] row, B: f16[G,K,N] col, acc: f32)\n"
                   "  >> row_max(R: f32[G,M])\n  >> store(D: f16[G,M,N] row)\n"),
            V{"C419"});
  EXPECT_TRUE(error_ids(gemm_spec("sm90a", "    .with_scheduler(tma_cooperative)\n    .with_tile_scheduler(persistent)\n",
                               "  >> row_sum(R: f32[M])"))
                  .empty());
}

}  // namespace
}  // namespace ucut
