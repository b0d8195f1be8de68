// tests/unit/emit/grouped_emit_test.cpp — grouped GEMMs on both backends: the SM90 pointer-array kernel (per-problem
// layouts, its schedules, the ABI's problem list read in place) and CUTLASS 2.x's GemmGrouped with the chain mapped
// onto act(alpha * acc + beta * C); and the rules that keep the rest out (C106, C415, C419, C420).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "spec_compile.h"

namespace ucut {
namespace {

std::string grouped_spec(std::string_view arch, std::string_view configs, std::string_view chain,
                         std::string_view d = "f16") {
  return fmt::format("kernel k : {}\n  grouped_gemm(A: f16[G,M,K] row, B: f16[G,K,N] col, acc: f32)\n{}{}\n  >> "
                     "store(D: {}[G,M,N] row)\n",
                     arch, configs, chain, d);
}

using test::code_of;
using test::contains;
using test::error_ids;

TEST(GroupedEmit, Sm90RunsThePointerArrayKernelOverTheAbiProblemList) {
  std::string coop = code_of(grouped_spec("sm90a", "    .with_threadblockshape(128, 128, 64)\n", ""));
  EXPECT_TRUE(contains(coop, "using KernelSchedule = cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative;"));
  EXPECT_TRUE(contains(coop, "using EpilogueSchedule = cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative;"));
  EXPECT_TRUE(contains(coop, "ElementA, LayoutA *, AlignmentA,"));
  EXPECT_TRUE(contains(coop, "ElementC, LayoutC *, AlignmentC, ElementD, LayoutD *, AlignmentD,"));
  EXPECT_TRUE(contains(coop, "using ProblemShape = cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>;"));
  EXPECT_TRUE(contains(coop, "args.mode = cutlass::gemm::GemmUniversalMode::kGrouped;"));
  EXPECT_TRUE(contains(coop, "const_cast<int64_t*>(g.lda)"));
  EXPECT_TRUE(contains(coop, "static_assert(sizeof(typename GemmKernel::InternalStrideD) == sizeof(int64_t),"));
  EXPECT_FALSE(contains(coop, "a->m"));  // a grouped kernel reads only the problem list

  std::string pp = code_of(grouped_spec("sm90a", "    .with_threadblockshape(64, 128, 64)\n    .with_scheduler(tma_pingpong)\n",
                                        "  >> scale(alpha = 0.5)\n  >> relu"));
  EXPECT_TRUE(contains(pp, "using KernelSchedule = cutlass::gemm::KernelPtrArrayTmaWarpSpecializedPingpong;"));
  EXPECT_TRUE(contains(pp, "using EpilogueSchedule = cutlass::epilogue::PtrArrayTmaWarpSpecializedPingpong;"));
  EXPECT_TRUE(contains(pp, "Sm90EVT"));  // the chain is a visitor tree, as on plain GEMMs
}

TEST(GroupedEmit, Sm90ResidualReadsThePerProblemSources) {
  std::string code = code_of(grouped_spec("sm90a", "", "  >> residual(C: f16[G,M,N] row)\n  >> silu"));
  EXPECT_TRUE(contains(code, "args.epilogue.ptr_C = reinterpret_cast<const ElementC**>(const_cast<const void**>(g.c));"));
  EXPECT_TRUE(contains(code, "const_cast<int64_t*>(g.ldc)"));
  std::string plain = code_of(grouped_spec("sm90a", "", ""));
  EXPECT_TRUE(contains(plain, "args.epilogue.ptr_C = nullptr;"));
}

TEST(GroupedEmit, AmpereMapsTheChainOntoGemmGroupedsEpilogue) {
  std::string code = code_of(grouped_spec("sm80", "", "  >> scale(alpha = 0.5)\n  >> residual(C: f16[G,M,N] row)\n  >> silu"));
  EXPECT_TRUE(contains(code, "using Gemm = cutlass::gemm::device::GemmGrouped<GemmKernel>;"));
  EXPECT_TRUE(contains(code, "LinearCombinationGeneric<cutlass::epilogue::thread::SiLu, ElementD, AlignmentD,"));
  EXPECT_TRUE(contains(code, "Params epilogue(ElementCompute(a->scalars[0]), ElementCompute(a->scalars[1]));"));
  EXPECT_TRUE(contains(code, "reinterpret_cast<ElementD**>(const_cast<void**>(g.c))"));
  EXPECT_FALSE(contains(code, "default_gemm_universal_with_visitor.h"));

  std::string plain = code_of(grouped_spec("sm80", "", ""));
  EXPECT_TRUE(contains(plain, "cutlass::epilogue::thread::LinearCombination<ElementD, AlignmentD,"));
  EXPECT_TRUE(contains(plain, "Params epilogue(ElementCompute(1.0f), ElementCompute(0.0f));"));

  std::string leaky = code_of(grouped_spec("sm86", "", "  >> leaky_relu(0.1)"));
  EXPECT_TRUE(contains(leaky, "struct ucut_stage0_leaky_relu {"));  // its slope baked into the functor
}

TEST(GroupedEmit, RulesKeepOutWhatTheGroupedKernelsCannotRun) {
  using V = std::vector<std::string>;
  EXPECT_EQ(error_ids(grouped_spec("sm90a", "    .with_scheduler(tma_warpspecialized)\n", "")), V{"C106"});
  EXPECT_EQ(error_ids(grouped_spec("sm90a", "    .with_tile_scheduler(stream_k)\n", "")), V{"C106"});
  EXPECT_EQ(error_ids(grouped_spec("sm90a", "", "  >> bias(col)")), V{"C419"});
  EXPECT_EQ(error_ids(grouped_spec("sm90a", "", "  >> aux_store(Z: f16[G,M,N] row)")), V{"C419"});
  EXPECT_EQ(error_ids("kernel k : sm90a\n  grouped_gemm(A: f16[G,M,K] row pad, B: f16[G,K,N] col, acc: f32)\n"
                   "  >> store(D: f16[G,M,N] row)\n"),
            V{"C415"});
  EXPECT_EQ(error_ids(grouped_spec("sm80", "", "  >> relu\n  >> scale(alpha = 2.0)")), V{"C420"});
  EXPECT_EQ(error_ids(grouped_spec("sm80", "", "  >> residual(C: f32[G,M,N] row)")), V{"C420"});
  EXPECT_EQ(error_ids(grouped_spec("sm80", "", "  >> expr(x * 2)")), V{"C420"});
  EXPECT_TRUE(error_ids(grouped_spec("sm90a", "", "  >> expr(x * 2)")).empty());  // sm90a's visitor tree runs any chain
}

}  // namespace
}  // namespace ucut
