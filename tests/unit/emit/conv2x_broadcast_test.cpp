// tests/unit/emit/conv2x_broadcast_test.cpp — the 2.x forward convolutions' broadcast epilogue (ir/broadcast_chain.h,
// emit/sm80/broadcast_epilogue.h): which chains run the ...FpropWithBroadcast kernels, how the functor and its
// arguments map the chain (alpha, the residual's beta, the bias vector, the aux tensor T), and the rules that keep the
// rest out (C416 for the convolutions without such a kernel, C420 for chains outside the form).
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

std::string conv2d(std::string_view arch, std::string_view chain) {
  return fmt::format("kernel k : {}\n  conv2d(X: f16[N,H,W,C], W: f16[K,R,S,C], acc: f32)\n{}\n  >> store(Y: f16[N,P,Q,K])\n",
                     arch, chain);
}

TEST(Conv2xBroadcast, AuxStoreRunsTheFpropWithBroadcastKernel) {
  std::string code = code_of(conv2d("sm80", "  >> bias(col)\n  >> aux_store(T: f32[N,P,Q,K])\n  >> relu"));
  EXPECT_TRUE(contains(code, "#include <cutlass/conv/kernel/default_conv2d_fprop_with_broadcast.h>"));
  EXPECT_TRUE(contains(code, "cutlass::conv::kernel::DefaultConv2dFpropWithBroadcast<"));
  EXPECT_TRUE(contains(code, "cutlass::conv::IteratorAlgorithm::kOptimized, cutlass::conv::StrideSupport::kStrided, "
                             "AlignmentA, AlignmentB>::Kernel;"));
  EXPECT_TRUE(contains(code, "using ElementT = float;"));
  EXPECT_TRUE(contains(code, "using ElementVector = cutlass::half_t;"));
  EXPECT_TRUE(contains(code, "ElementAccumulator, ElementCompute, ElementD, ElementT, AlignmentD, "
                             "cutlass::epilogue::thread::ReLu<ElementCompute>,"));
  EXPECT_TRUE(contains(code, "/*StoreT=*/true, ElementVector>;"));
  // No residual: beta 0, C never read; the bias is the broadcast vector, T the first aux slot, K elements a pixel.
  EXPECT_TRUE(contains(code, "ref_c = ref_d;"));
  EXPECT_TRUE(contains(code, "ElementCompute(1.0f), ElementCompute(0.0f)"));
  EXPECT_TRUE(contains(code, "cutlass::conv::SplitKMode::kSerial, const_cast<void*>(a->vectors[0]), a->aux[0].ptr, 0, "
                             "problem.K);"));
}

TEST(Conv2xBroadcast, ResidualAndBiasTogetherStoreNoT) {
  // Either order: alpha * acc + beta * C + V. The residual's beta is scalar 1 (scalar 0 is the scale's alpha).
  for (std::string_view chain : {"  >> scale(alpha)\n  >> residual(C: f16[N,P,Q,K])\n  >> bias(col)\n  >> silu",
                                 "  >> scale(alpha)\n  >> bias(col)\n  >> residual(C: f16[N,P,Q,K])\n  >> silu"}) {
    std::string code = code_of(conv2d("sm86", chain));
    EXPECT_TRUE(contains(code, "DefaultConv2dFpropWithBroadcast<")) << chain;
    EXPECT_TRUE(contains(code, "using ElementT = ElementD;")) << chain;
    EXPECT_TRUE(contains(code, "/*StoreT=*/false, ElementVector>;")) << chain;
    EXPECT_TRUE(contains(code, "ref_c(static_cast<ElementD*>(const_cast<void*>(a->c.ptr)), layout_d);")) << chain;
    EXPECT_TRUE(contains(code, "ElementCompute(a->scalars[0]), ElementCompute(a->scalars[1])")) << chain;
    EXPECT_TRUE(contains(code, "const_cast<void*>(a->vectors[0]), nullptr, 0, problem.K);")) << chain;
  }
}

TEST(Conv2xBroadcast, ABiasOfAnotherTypeIsTheBroadcastVector) {
  std::string code = code_of(conv2d("sm80", "  >> bias(col, f32)\n  >> gelu"));
  EXPECT_TRUE(contains(code, "DefaultConv2dFpropWithBroadcast<"));
  EXPECT_TRUE(contains(code, "using ElementVector = float;"));
  EXPECT_TRUE(contains(code, "cutlass::epilogue::thread::GELU<ElementCompute>"));
}

TEST(Conv2xBroadcast, ThePlainFunctorStaysWhereItFits) {
  std::string code = code_of(conv2d("sm80", "  >> bias(col)\n  >> relu"));
  EXPECT_TRUE(contains(code, "cutlass::conv::kernel::DefaultConv2dFprop<"));
  EXPECT_FALSE(contains(code, "WithBroadcast"));
  EXPECT_FALSE(contains(code, "linear_combination_bias_elementwise.h"));
}

TEST(Conv2xBroadcast, ThreeDimensionsTuringAndParameterizedActivations) {
  std::string c3 = code_of(
      "kernel k : sm80\n  conv3d(X: bf16[N,D,H,W,C], W: bf16[K,T,R,S,C], acc: f32)\n  >> aux_store(Pre: bf16[N,Z,P,Q,K])\n"
      "  >> leaky_relu(0.2)\n  >> store(Y: bf16[N,Z,P,Q,K])\n");
  EXPECT_TRUE(contains(c3, "#include <cutlass/conv/kernel/default_conv3d_fprop_with_broadcast.h>"));
  EXPECT_TRUE(contains(c3, "DefaultConv3dFpropWithBroadcast<"));
  EXPECT_TRUE(contains(c3, "cutlass::conv::IteratorAlgorithm::kOptimized, cutlass::conv::StrideSupport::kStrided>::Kernel;"));
  // No bias: V is null (the epilogue adds zeros); the activation's parameter is baked into a functor.
  EXPECT_TRUE(contains(c3, "cutlass::conv::SplitKMode::kSerial, nullptr, a->aux[0].ptr, 0, problem.K);"));
  EXPECT_TRUE(contains(c3, "struct ucut_stage1_leaky_relu {"));
  EXPECT_TRUE(contains(c3, "ucut_stage1_leaky_relu<ElementCompute>,"));

  std::string t = code_of(conv2d("sm75", "  >> aux_store(T: f16[N,P,Q,K])\n  >> relu"));
  EXPECT_TRUE(contains(t, "using ArchTag = cutlass::arch::Sm75;"));
  EXPECT_TRUE(contains(t, "DefaultConv2dFpropWithBroadcast<"));
  EXPECT_TRUE(contains(t, "ElementD, ElementT, AlignmentD, cutlass::epilogue::thread::ReLu<ElementCompute>,"));
}

TEST(Conv2xBroadcast, WhatItCannotDo) {
  using V = std::vector<std::string>;
  // T is the value before the activation, stored once; the scale multiplies the accumulator only.
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> relu\n  >> aux_store(T: f16[N,P,Q,K])")), V{"C420"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> aux_store(T: f16[N,P,Q,K])\n  >> aux_store(U: f16[N,P,Q,K])")), V{"C420"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> aux_store(T: f16[N,P,Q,K])\n  >> bias(col)")), V{"C420"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> bias(col)\n  >> scale(alpha = 2.0)\n  >> aux_store(T: f16[N,P,Q,K])")),
            V{"C420"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> bias(col)\n  >> bias(col, f32)")), V{"C420"});
  EXPECT_EQ(error_ids(conv2d("sm80", "  >> residual(C: bf16[N,P,Q,K])\n  >> aux_store(T: f16[N,P,Q,K])")), V{"C420"});
  // The convolutions without a broadcast-epilogue kernel.
  EXPECT_EQ(error_ids("kernel k : sm80\n  conv_transpose2d(X: f16[N,H,W,C], W: f16[C,R,S,K], acc: f32)\n"
                      "  >> aux_store(T: f16[N,P,Q,K])\n  >> store(Y: f16[N,P,Q,K])\n"),
            V{"C416"});
  EXPECT_EQ(error_ids("kernel k : sm80\n  grouped_conv2d(X: f16[N,H,W,C], W: f16[K,R,S,CG], acc: f32)\n"
                      "  >> aux_store(T: f16[N,P,Q,K])\n  >> store(Y: f16[N,P,Q,K])\n"),
            V{"C416"});
  EXPECT_EQ(error_ids("kernel k : sm80\n  depthwise_conv2d(X: f32[N,H,W,C], W: f32[C,3,3,1], acc: f32)\n"
                      "  >> aux_store(T: f32[N,P,Q,C])\n  >> store(Y: f32[N,P,Q,C])\n"),
            V{"C416"});
  // sm90a's conv kernel has no aux output; the hint points to the 2.x kernel, where it builds.
  EXPECT_EQ(error_ids(conv2d("sm90a", "  >> aux_store(T: f16[N,P,Q,K])")), V{"C416"});
  EXPECT_TRUE(error_ids(conv2d("sm90a", "    .with_scheduler(multistage)\n  >> aux_store(T: f16[N,P,Q,K])")).empty());
}

}  // namespace
}  // namespace ucut
