// tests/unit/emit/conv2x_emit_test.cpp — CUTLASS 2.x convolutions (emit/sm80/conv.cpp): which default kernel each
// operator runs as, the geometry from ucut_conv_args, the functor epilogue (bias as a zero-stride C, residual as C,
// scale as alpha), and the rules that keep the rest out (C106, C418, C420, C422).
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

std::string conv2d(std::string_view arch, std::string_view chain, std::string_view type = "f16") {
  return fmt::format("kernel k : {}\n  conv2d(X: {t}[N,H,W,C], W: {t}[K,R,S,C], acc: f32)\n{}\n  >> store(Y: {t}[N,P,Q,K])\n",
                     arch, chain, fmt::arg("t", type));
}

TEST(Conv2xEmit, ForwardConvolutionOnAmpereIsTheOptimizedImplicitGemm) {
  std::string code = code_of(conv2d("sm80", "  >> relu"));
  EXPECT_TRUE(contains(code, "cutlass::conv::kernel::DefaultConv2dFprop<"));
  EXPECT_TRUE(contains(code, "cutlass::conv::IteratorAlgorithm::kOptimized, cutlass::conv::StrideSupport::kStrided, "
                             "AlignmentA, AlignmentB>::Kernel;"));
  EXPECT_TRUE(contains(code, "using ArchTag = cutlass::arch::Sm80;"));
  EXPECT_TRUE(contains(code, "LinearCombinationGeneric<cutlass::epilogue::thread::ReLu, ElementD, AlignmentD"));
  EXPECT_TRUE(contains(code, "using Gemm = cutlass::conv::device::ImplicitGemmConvolution<ConvKernel>;"));
  // The forward geometry of the ABI, with its group count.
  EXPECT_TRUE(contains(code, "c.stride[1], c.stride[2], c.dilation[1], c.dilation[2], cutlass::conv::Mode::kCrossCorrelation, 1,"));
  EXPECT_TRUE(contains(code, "c.groups);"));
  EXPECT_TRUE(contains(code, "ElementCompute(1.0f), ElementCompute(0.0f)"));  // beta 0: C is never read
}

TEST(Conv2xEmit, BiasIsCReadWithZeroPixelStrides) {
  std::string code = code_of(conv2d("sm86", "  >> scale(alpha = 2.0)\n  >> bias(col)"));
  EXPECT_TRUE(contains(code, "static_cast<ElementD*>(const_cast<void*>(a->vectors[0]))"));
  EXPECT_TRUE(contains(code, "LayoutD(typename LayoutD::Stride(0))"));
  EXPECT_TRUE(contains(code, "ElementCompute(a->scalars[0]), ElementCompute(1.0f)"));
}

TEST(Conv2xEmit, ResidualIsCWithItsBeta) {
  std::string code = code_of(conv2d("sm80", "  >> residual(C: f16[N,P,Q,K])\n  >> silu"));
  EXPECT_TRUE(contains(code, "ref_c(static_cast<ElementD*>(const_cast<void*>(a->c.ptr)), layout_d);"));
  EXPECT_TRUE(contains(code, "ElementCompute(1.0f), ElementCompute(a->scalars[0])"));
}

TEST(Conv2xEmit, EachOperatorRunsItsOwnKernel) {
  std::string t2 = code_of(
      "kernel k : sm80\n  conv_transpose2d(X: f32[N,H,W,C], W: f32[C,R,S,K], acc: f32)\n  >> store(Y: f32[N,P,Q,K])\n");
  EXPECT_TRUE(contains(t2, "cutlass::conv::kernel::DefaultConv2dDgrad<"));
  EXPECT_TRUE(contains(t2, "StridedDgradIdentityThreadblockSwizzle<1>"));
  EXPECT_TRUE(contains(t2, "constexpr auto kOperator = cutlass::conv::Operator::kDgrad;"));
  EXPECT_FALSE(contains(t2, "flip_filter"));  // the SM90 kernel's staging; dgrad reads W as it is

  std::string t3 = code_of(
      "kernel k : sm80\n  conv_transpose3d(X: f16[N,D,H,W,C], W: f16[C,T,R,S,K], acc: f32)\n  >> store(Y: f16[N,Z,P,Q,K])\n");
  EXPECT_TRUE(contains(t3, "DefaultConv3dDgrad<"));
  EXPECT_TRUE(contains(t3, "cutlass::conv::IteratorAlgorithm::kAnalytic, cutlass::conv::StrideSupport::kStrided>::Kernel;"));
  EXPECT_TRUE(contains(t3, "cutlass::conv::Conv3dProblemSize(c.n, c.d, c.h, c.w, c.c, c.k, c.t, c.r, c.s, c.z, c.p, c.q,"));

  std::string w = code_of(
      "kernel k : sm80\n  conv2d_wgrad(DY: bf16[N,P,Q,K], X: bf16[N,H,W,C], acc: f32)\n  >> store(DW: f32[K,R,S,C])\n");
  EXPECT_TRUE(contains(w, "DefaultConv2dWgrad<"));
  EXPECT_TRUE(contains(w, "constexpr auto kOperator = cutlass::conv::Operator::kWgrad;"));

  // conv1d is a conv2d of height 1 on the 2.x kernels.
  std::string c1 = code_of("kernel k : sm80\n  conv1d(X: f16[N,W,C], W: f16[K,S,C], acc: f32)\n  >> store(Y: f16[N,Q,K])\n");
  EXPECT_TRUE(contains(c1, "DefaultConv2dFprop<"));
  EXPECT_TRUE(contains(c1, "using LayoutA = cutlass::layout::TensorNHWC;"));

  std::string g = code_of(
      "kernel k : sm90a\n  grouped_conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,CG], acc: f32)\n    .with_threadblockshape(128, 64, 32)\n"
      "  >> store(Y: bf16[N,P,Q,K])\n");
  EXPECT_TRUE(contains(g, "DefaultConv2dGroupFprop<"));
  EXPECT_TRUE(contains(g, "cutlass::conv::GroupMode::kMultipleGroup, cutlass::conv::IteratorAlgorithm::kAnalytic"));
  EXPECT_TRUE(contains(g, "arch=compute_90a,code=sm_90a"));  // the 2.x kernel, built for the H100/H200
}

TEST(Conv2xEmit, MultistageOnHopperAndTuringsTwoStageLoop) {
  std::string h = code_of(conv2d("sm90a", "    .with_scheduler(multistage)\n    .with_threadblockshape(128, 128, 32)"));
  EXPECT_TRUE(contains(h, "DefaultConv2dFprop<"));
  std::string t = code_of(conv2d("sm75", ""));
  EXPECT_TRUE(contains(t, "using ArchTag = cutlass::arch::Sm75;"));
  EXPECT_TRUE(contains(t, "constexpr int Stages = 2;"));
}

TEST(Conv2xRules, WhatTheFunctorEpilogueAndKernelsCannotDo) {
  using V = std::vector<std::string>;
  // (The forward convolutions' broadcast epilogue takes aux_store and residual + bias: conv2x_broadcast_test.cpp.)
  EXPECT_EQ(error_ids("kernel k : sm80\n  conv_transpose2d(X: f16[N,H,W,C], W: f16[C,R,S,K], acc: f32)\n  >> bias(col)\n"
                      "  >> residual(C: f16[N,P,Q,K])\n  >> store(Y: f16[N,P,Q,K])\n"),
            V{"C420"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> relu\n  >> scale(alpha = 2.0)")), V{"C420"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> bias(row)")), V{"C420"});  // per pixel: not a broadcast C
  EXPECT_EQ(error_ids(conv2d("sm80", "    .with_tile_scheduler(stream_k)")), V{"C106"});
  EXPECT_EQ(error_ids(conv2d("sm80", "", "i8")), V{"C422"});
  EXPECT_EQ(error_ids("kernel k : sm80\n  conv2d_wgrad(DY: bf16[N,P,Q,K], X: bf16[N,H,W,C], acc: f32)\n  >> bias(col)\n"
                      "  >> store(DW: bf16[K,R,S,C])\n"),
            V{"C418"});
  EXPECT_EQ(error_ids("kernel k : sm80\n  conv3d(X: f32[N,D,H,W,C] align(1), W: f32[K,T,R,S,C], acc: f32)\n"
                      "  >> store(Y: f32[N,Z,P,Q,K])\n"),
            V{"C422"});
  // The exact-f32 SIMT kernel moves one element at a time: no 16-byte rule for it.
  EXPECT_TRUE(error_ids("kernel k : sm80\n  conv3d(X: f32[N,D,H,W,C], W: f32[K,T,R,S,C], acc: f32, math = native)\n"
                        "  >> store(Y: f32[N,Z,P,Q,K])\n")
                  .empty());
}

}  // namespace
}  // namespace ucut
