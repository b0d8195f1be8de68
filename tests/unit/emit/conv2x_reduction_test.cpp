// tests/unit/emit/conv2x_reduction_test.cpp — per-channel sums on the 2.x forward convolutions (ir/conv_reduction.h,
// emit/sm80/conv_reduction.h): the ...FpropWithReduction kernel and its functor, the partial sums' buffer placed by
// the ABI wrapper's staging after the workspace, the finishing kernel launched after each run, and the reductions
// C421 keeps out (what CUTLASS 4.2's reduction epilogue cannot compute).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;
using test::error_ids;

std::string conv2d(std::string_view arch, std::string_view chain, std::string_view acc = "f32",
                   std::string_view t = "f16") {
  return fmt::format("kernel k : {}\n  conv2d(X: {t}[N,H,W,C], W: {t}[K,R,S,C], acc: {})\n{}\n  >> store(Y: {t}[N,P,Q,K])\n",
                     arch, acc, chain, fmt::arg("t", t));
}

TEST(Conv2xReduction, ColumnSumRunsTheFpropWithReductionKernel) {
  std::string code = code_of(conv2d("sm80", "  >> bias(col)\n  >> col_sum(S: f32[K])"));
  EXPECT_TRUE(contains(code, "#include <cutlass/conv/kernel/default_conv2d_fprop_with_reduction.h>"));
  EXPECT_TRUE(contains(code, "#include <cutlass/epilogue/thread/linear_combination_with_elementwise.h>"));
  EXPECT_TRUE(contains(code, "using EpilogueOutputOp = cutlass::epilogue::thread::LinearCombinationWithElementwise<"
                             "ElementCompute, ElementAccumulator, ElementD, ElementD, AlignmentD>;"));
  EXPECT_TRUE(contains(code, "using ReductionOp = cutlass::plus<ElementCompute>;"));
  EXPECT_TRUE(contains(code, "cutlass::conv::kernel::DefaultConv2dFpropWithReduction<"));
  EXPECT_TRUE(contains(code, "InstructionShape, EpilogueOutputOp, ReductionOp,\n"));
  // The bias is C with zero pixel strides, as for the plain functor; the partials go through the aux slot, K apart.
  EXPECT_TRUE(contains(code, "LayoutD(typename LayoutD::Stride(0))"));
  EXPECT_TRUE(contains(code, "ElementCompute(1.0f), ElementCompute(1.0f)"));
  EXPECT_TRUE(contains(code, "cutlass::conv::SplitKMode::kSerial, a->aux[0].ptr, nullptr, problem.K, 0);"));
}

TEST(Conv2xReduction, TheHostApiSizesThePartialsAndFinishesTheSum) {
  std::string code = code_of(conv2d("sm86", "  >> scale(alpha)\n  >> residual(C: f16[N,P,Q,K])\n  >> col_sum(S: f32[K])"));
  EXPECT_TRUE(contains(code, "ElementCompute(a->scalars[0]), ElementCompute(a->scalars[1])"));
  // One partial row of K per CTA row of tiles, after the kernel's workspace (the staging hooks).
  EXPECT_TRUE(contains(code, "using ElementPartial = typename ConvKernel::Epilogue::ElementVector;"));
  EXPECT_TRUE(contains(code, "return (pixels + ThreadblockShape::kM - 1) / ThreadblockShape::kM;"));
  EXPECT_TRUE(contains(code, "partial_rows(a) * a->conv.k * int64_t(sizeof(ElementPartial))"));
  EXPECT_TRUE(contains(code, "k.aux[0].ptr = scratch;  // the partial rows"));
  EXPECT_TRUE(contains(code, "+ staging_bytes(a);"));
  // After every run, on the same stream, the second kernel adds the rows into the caller's vector.
  EXPECT_TRUE(contains(code, "ucut_sum_partials<<<blocks, dim3(32, 8), 0, stream>>>(static_cast<const "
                             "ElementPartial*>(k->aux[0].ptr),"));
  EXPECT_TRUE(contains(code, "partial_rows(a), cols, static_cast<float*>(a->aux[0].ptr));"));
  EXPECT_TRUE(contains(code, "e = stage_out(&p->user, &p->kernel, static_cast<cudaStream_t>(stream));"));
}

TEST(Conv2xReduction, Conv1dAndTuringAndMultistageHopper) {
  std::string c1 = code_of(
      "kernel k : sm90a\n  conv1d(X: bf16[N,W,C], W: bf16[K,S,C], acc: f32)\n    .with_scheduler(multistage)\n"
      "  >> col_sum(S: f32[K])\n  >> store(Y: bf16[N,Q,K])\n");
  EXPECT_TRUE(contains(c1, "DefaultConv2dFpropWithReduction<"));
  EXPECT_TRUE(contains(c1, "arch=compute_90a,code=sm_90a"));
  std::string t = code_of(conv2d("sm75", "  >> col_sum(S: f32[K])"));
  EXPECT_TRUE(contains(t, "using ArchTag = cutlass::arch::Sm75;"));
  EXPECT_TRUE(contains(t, "DefaultConv2dFpropWithReduction<"));
}

TEST(Conv2xReduction, WithoutOneNothingChanges) {
  std::string code = code_of(conv2d("sm80", "  >> bias(col)"));
  EXPECT_FALSE(contains(code, "WithReduction"));
  EXPECT_FALSE(contains(code, "stage_out"));
}

TEST(Conv2xReduction, WhatCutlassReductionEpilogueCannotCompute) {
  using V = std::vector<std::string>;
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> col_max(S: f32[K])")), V{"C421"});  // partials start from 0
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> row_sum(R: f32[N])")), V{"C421"});  // per pixel
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> relu\n  >> col_sum(S: f32[K])")), V{"C421"});  // no activation
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> col_sum(S: f32[K])\n  >> bias(col)")), V{"C421"});  // sums what D stores
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> aux_store(T: f16[N,P,Q,K])\n  >> col_sum(S: f32[K])")), V{"C421"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> bias(col, f32)\n  >> col_sum(S: f32[K])")), V{"C421"});  // C is Y-typed
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> col_sum(S: f32[K])\n  >> col_sum(U: f32[K])")), (V{"C421", "C421"}));
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> col_sum(S: f32[K])", "f16")), V{"C421"});  // f16 partial sums
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> col_sum(S: f32[K])", "f32", "f32")), V{});  // TF32 tensor cores
  EXPECT_EQ(error_ids("kernel k : sm80\n  conv2d(X: f32[N,H,W,C], W: f32[K,R,S,C], acc: f32, math = native)\n"
                      "  >> col_sum(S: f32[K])\n  >> store(Y: f32[N,P,Q,K])\n"),
            V{"C421"});
  // No kernel with the reduction epilogue.
  for (std::string_view op : {"kernel k : sm80\n  conv3d(X: f16[N,D,H,W,C], W: f16[K,T,R,S,C], acc: f32)\n"
                              "  >> col_sum(S: f32[K])\n  >> store(Y: f16[N,Z,P,Q,K])\n",
                              "kernel k : sm80\n  conv_transpose2d(X: f16[N,H,W,C], W: f16[C,R,S,K], acc: f32)\n"
                              "  >> col_sum(S: f32[K])\n  >> store(Y: f16[N,P,Q,K])\n",
                              "kernel k : sm80\n  grouped_conv2d(X: f16[N,H,W,C], W: f16[K,R,S,CG], acc: f32)\n"
                              "  >> col_sum(S: f32[K])\n  >> store(Y: f16[N,P,Q,K])\n"})
    EXPECT_EQ(error_ids(std::string(op)), V{"C421"}) << op;
}

}  // namespace
}  // namespace ucut
