// tests/unit/emit/reduction_emit_test.cpp — epilogue reductions: which CUTLASS node each stage becomes (one value per
// row is Sm90ColReduction / the 2.x VisitorColReduction, per column Sm90RowReduction / VisitorRowReduction), its
// functors, identity, vector stride and aux slot, what each launch does first (SM90: re-initialize the workspace's
// tile counters; 2.x: fill the vectors with the identity), and the rules around them (C405, C409, C412, C419, C421).
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

TEST(ReductionEmit, TwoXReductionsAreAtomicVisitorsOverTheThreadMap) {
  std::string code = code_of(gemm_spec("sm80", "", "  >> scale(alpha = 0.125)\n  >> row_max(R: f32[M])\n  >> col_sum(S: f32[N])"));
  EXPECT_TRUE(contains(code, "VisitorColReduction<cutlass::maximum_with_default_nan_propagation, cutlass::atomic_maximum, "
                             "OutputTileThreadMap, float, ElementCompute, RoundStyle, cute::Stride<cute::_1, cute::_0, int64_t>>"));
  EXPECT_TRUE(contains(code, "VisitorRowReduction<cutlass::plus, cutlass::atomic_add, OutputTileThreadMap, float, "
                             "ElementCompute, RoundStyle, cute::Stride<cute::_0, cute::_1, int64_t>>"));
  EXPECT_TRUE(contains(code, "{static_cast<float *>(a->aux[0].ptr), -cutlass::platform::numeric_limits<ElementCompute>::"
                             "infinity(), {cute::_1{}, cute::_0{}, int64_t(a->aux[0].batch_stride)}}"));
  EXPECT_TRUE(contains(code, "{static_cast<float *>(a->aux[1].ptr), ElementCompute(0), {cute::_0{}, cute::_1{}, "
                             "int64_t(a->aux[1].batch_stride)}}"));
  EXPECT_FALSE(contains(code, "p->gemm.initialize(p->args"));  // no workspace counters to re-initialize
}

TEST(ReductionEmit, TwoXLaunchFillsEachVectorWithItsIdentityFirst) {
  std::string code = code_of(gemm_spec("sm80", "", "  >> aux_store(Z: bf16[M,N] row)\n  >> col_max(S: f32[N])"));
  EXPECT_TRUE(contains(code, "__global__ void ucut_fill("));
  // One fill per reduction, N values per batch at the vector's batch stride; the aux store's slot is left alone.
  EXPECT_TRUE(contains(code, "e = ucut_fill_vectors(static_cast<float *>(a->aux[1].ptr), a->n, a->batch, "
                             "a->aux[1].batch_stride, -cutlass::platform::numeric_limits<float>::infinity(), stream);"));
  EXPECT_FALSE(contains(code, "a->aux[0].ptr), a->"));
  EXPECT_TRUE(contains(code, "ucut_gemm_args user;  // the caller's tensors"));
  EXPECT_TRUE(contains(code, "p->user = *a;"));
  size_t reset = code.find("cudaError_t reset = reset_reductions(&p->user, static_cast<cudaStream_t>(stream));");
  ASSERT_NE(reset, std::string::npos);
  EXPECT_LT(reset, code.find("p->gemm.run("));  // before the GEMM, on the same stream
  EXPECT_TRUE(contains(code, "\"resetting the reduction vectors\", cudaGetErrorString(reset)"));

  std::string row_sum = code_of(gemm_spec("sm80", "", "  >> row_sum(R: f32[M])"));
  EXPECT_TRUE(contains(row_sum, "ucut_fill_vectors(static_cast<float *>(a->aux[0].ptr), a->m, a->batch, "
                                "a->aux[0].batch_stride, float(0), stream);"));
  EXPECT_FALSE(contains(code_of(gemm_spec("sm80", "", "  >> relu")), "reset_reductions"));  // nothing to reset
  EXPECT_FALSE(contains(code_of(gemm_spec("sm90a", "", "  >> row_sum(R: f32[M])")), "reset_reductions"));  // no atomics
}

TEST(ReductionEmit, TwoXBatchedVectorsStepByTheirBatchStride) {
  std::string spec = "kernel k : sm80\n  batched_gemm(A: f16[L,M,K] row, B: f16[L,K,N] col, acc: f32)\n"
                     "  >> col_sum(S: f32[L,N])\n  >> store(D: f16[L,M,N] row)\n";
  std::string code = code_of(spec);
  EXPECT_TRUE(contains(code, "VisitorRowReduction<cutlass::plus, cutlass::atomic_add"));
  EXPECT_TRUE(contains(code, "int64_t(a->aux[0].batch_stride)}}"));
  EXPECT_TRUE(contains(code, "a->n, a->batch, a->aux[0].batch_stride, float(0), stream);"));
}

TEST(ReductionEmit, NonPersistentSm90KernelsGetTheirEpilogueWorkspaceFromTheHostApi) {
  // CUTLASS 4.2's non-persistent kernel reports no workspace: the host API sizes the epilogue's and zeroes its tile
  // counters before every launch, for the convolutions' kernel and a tma_warpspecialized GEMM alike.
  std::string conv = code_of("kernel k : sm90a\n  conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,C], acc: f32)\n"
                             "  >> col_sum(S: f32[K])\n  >> store(Y: bf16[N,P,Q,K])\n");
  std::string gemm = code_of(gemm_spec("sm90a", "    .with_scheduler(tma_warpspecialized)\n", "  >> row_sum(R: f32[M])"));
  for (const std::string& code : {conv, gemm}) {
    EXPECT_TRUE(contains(code, "return kernel_workspace_size(make_arguments(a, device));"));
    EXPECT_TRUE(contains(code, "init_epilogue_workspace(p->args, p->workspace"));
  }
  EXPECT_TRUE(contains(conv, "using EpilogueCollective = typename ConvKernel::CollectiveEpilogue;"));
  // The persistent kernels size it themselves.
  std::string coop = code_of(gemm_spec("sm90a", "    .with_scheduler(tma_cooperative)\n", "  >> row_sum(R: f32[M])"));
  EXPECT_FALSE(contains(coop, "init_epilogue_workspace"));
}

TEST(ReductionEmit, RulesSayWhereReductionsRun) {
  using V = std::vector<std::string>;
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "", "  >> row_max(R: f32[N])")), V{"C405"});  // a row max has M entries
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "", "  >> row_sum(R: bf16[M])")), V{"C412"});
  // Every 2.x GEMM target builds them (atomics into a vector reset each launch); their stream-K does not.
  for (std::string_view arch : {"sm75", "sm80", "sm86", "sm89"})
    EXPECT_TRUE(error_ids(fmt::format("kernel k : {}\n  gemm(A: f16[M,K] row, B: f16[K,N] col, acc: f32)\n"
                                      "  >> row_sum(R: f32[M])\n  >> col_max(S: f32[N])\n  >> store(D: f16[M,N] row)\n",
                                      arch))
                    .empty())
        << arch;
  EXPECT_TRUE(error_ids(gemm_spec("sm90a", "    .with_scheduler(multistage)\n", "  >> row_sum(R: f32[M])")).empty());
  EXPECT_EQ(error_ids(gemm_spec("sm80", "    .with_tile_scheduler(stream_k)\n", "  >> row_sum(R: f32[M])")), V{"C421"});
  EXPECT_EQ(error_ids(gemm_spec("sm80", "", "  >> col_sum(S: f16[N])")), V{"C412"});
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "    .with_scheduler(tma_cooperative)\n    .with_tile_scheduler(split_k(2))\n",
                             "  >> col_max(S: f32[N])")),
            V{"C421"});
  EXPECT_EQ(error_ids(gemm_spec("sm90a", "",
                             "  >> row_sum(R: f32[M])\n  >> col_sum(S: f32[N])\n  >> aux_store(Z: bf16[M,N] row)")),
            V{"C409"});  // three outputs through two aux slots
  EXPECT_EQ(error_ids("kernel k : sm90a\n  conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,C], acc: f32)\n"
                   "  >> row_sum(R: f32[N])\n  >> store(Y: bf16[N,P,Q,K])\n"),
            V{"C421"});
  // The 2.x convolutions sum per output channel through CUTLASS's reduction epilogue, not max
  // (conv2x_reduction_test.cpp has the rest).
  EXPECT_EQ(error_ids("kernel k : sm80\n  conv2d(X: f16[N,H,W,C], W: f16[K,R,S,C], acc: f32)\n"
                   "  >> col_max(S: f32[K])\n  >> store(Y: f16[N,P,Q,K])\n"),
            V{"C421"});
  // sm90a convolutions reduce per output channel (forward and transposed), not per pixel nor on filter gradients.
  for (std::string_view op : {"conv2d", "conv_transpose2d"})
    EXPECT_TRUE(error_ids(fmt::format("kernel k : sm90a\n  {}(X: bf16[N,H,W,C], W: bf16[{}], acc: f32)\n"
                                      "  >> col_sum(S: f32[K])\n  >> col_max(T: f32[K])\n  >> store(Y: bf16[N,P,Q,K])\n",
                                      op, op == "conv2d" ? "K,R,S,C" : "C,R,S,K"))
                    .empty())
        << op;
  EXPECT_EQ(error_ids("kernel k : sm90a\n  conv2d_wgrad(DY: bf16[N,P,Q,K], X: bf16[N,H,W,C], acc: f32)\n"
                   "  >> col_sum(S: f32[C])\n  >> store(DW: f32[K,R,S,C])\n"),
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
