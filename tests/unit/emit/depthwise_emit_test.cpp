// tests/unit/emit/depthwise_emit_test.cpp — `depthwise_conv2d` as CUTLASS's direct convolution
// (emit/sm80/depthwise.cpp): the defaults lowering fills in, the kernel types and the ABI glue it emits (the filter
// reorder buffer in the workspace, the chain as act(alpha * acc + beta * C) with a bias broadcast as C), and the
// rules of check/depthwise_rules.cpp, each with a spec that breaks it.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "ir/depthwise.h"
#include "spec_compile.h"

namespace ucut {
namespace {

using test::code_of;
using test::contains;
using test::error_ids;
using V = std::vector<std::string>;

std::string dw_spec(std::string_view arch, std::string_view configs, std::string_view chain,
                    std::string_view filter = "3,3", std::string_view x = "f32[N,H,W,C]", std::string_view w = "f32",
                    std::string_view y = "f32", std::string_view extra = "") {
  return fmt::format("kernel k : {}\n  depthwise_conv2d(X: {}, W: {}[C,{},1], acc: f32{})\n{}{}\n  >> store(Y: {}[N,P,Q,C])\n",
                     arch, x, w, filter, extra, configs, chain, y);
}

TEST(DepthwiseEmit, DefaultsToTheEightByEightPatchOfSixtyFourChannels) {
  Compilation c = test::compile_text(dw_spec("sm90a", "", ""));
  ASSERT_TRUE(c.config);
  EXPECT_EQ(c.config->backend(), BackendKind::sm80);  // the 2.x direct convolution runs on Hopper too
  EXPECT_EQ(c.config->kernel_schedule.value, KernelSchedule::multistage);
  EXPECT_EQ(c.config->tile.value, (std::array<int, 3>{64, 64, 9}));
  EXPECT_EQ(c.config->warp.value, (std::array<int, 3>{16, 64, 9}));
  EXPECT_EQ(c.config->math.value, MathMode::native);  // exact f32 FMA, not tf32
  EXPECT_EQ(c.config->a.align.value, 4);              // 16-byte channel vectors, not SIMT's align(1)
  std::string code = c.kernel ? c.kernel->code : "";
  EXPECT_TRUE(contains(code, "cutlass::conv::kernel::DefaultDepthwiseDirect2dConvFprop<"));
  EXPECT_TRUE(contains(code, "using ThreadBlockOutputShape = cutlass::conv::TensorNHWCShape<1, 8, 8, 64>;"));
  EXPECT_TRUE(contains(code, "using FilterShape = cutlass::MatrixShape<3, 3>;"));
  EXPECT_TRUE(contains(code, "using ThreadblockShape = cutlass::gemm::GemmShape<64, 64, 9>;"));
  EXPECT_TRUE(contains(code, "using WarpShape = cutlass::gemm::GemmShape<16, 64, 9>;"));
  EXPECT_TRUE(contains(code, "constexpr int Stages = 3;"));  // sm90a holds 3 stride-2 patches
  EXPECT_TRUE(contains(code, "cutlass::conv::IteratorAlgorithm::kOptimized, cutlass::conv::StrideSupport::kStrided"));
  EXPECT_TRUE(contains(code, "DepthwiseDirect2dConvIdentityThreadblockSwizzle<1, 1, 8, 8>"));
  EXPECT_TRUE(contains(code, "cutlass::epilogue::thread::LinearCombination<ElementD, kVector,"));
  EXPECT_TRUE(contains(code, "ElementD* source = nullptr;"));
  EXPECT_TRUE(contains(code, "Params epilogue(ElementCompute(1.0f), ElementCompute(0.0f));"));
  EXPECT_TRUE(contains(code, "cutlass::conv::Mode::kCrossCorrelation, 1, c.groups);"));
}

TEST(DepthwiseEmit, TheFilterReorderBufferIsTheWorkspace) {
  std::string code = code_of(dw_spec("sm80", "", ""));
  EXPECT_TRUE(contains(code, "return size_t(args.problem_size.filter_size()) * sizeof(ElementB);"));
  EXPECT_TRUE(contains(code, "reordered.ref_reordered_B =\n"));
  EXPECT_TRUE(contains(code, "typename ConvKernel::TensorRefB(static_cast<ElementB*>(workspace), args.ref_B.layout());"));
  // Geometry limits with their reasons, through the wrapper's staging hooks (nothing is staged).
  EXPECT_TRUE(contains(code, "if (c.r != FilterShape::kRow || c.s != FilterShape::kColumn)"));
  EXPECT_TRUE(contains(code, "return \"the filter is not 3x3, the size this kernel is compiled for\";"));
  EXPECT_TRUE(contains(code, "if (params.get_smem_size() > limit) {"));
  EXPECT_TRUE(contains(code, "size_t staging_bytes(const ucut_gemm_args*) { return 0; }"));
  EXPECT_TRUE(contains(code, "args.problem_size.split_k_slices = pixel_splits(args, device);"));
  EXPECT_TRUE(contains(code, "arch=compute_80,code=[sm_80,compute_80]"));  // SASS and PTX, like every sm80 kernel
}

TEST(DepthwiseEmit, BiasIsCBroadcastOverThePixels) {
  std::string code = code_of(dw_spec("sm90a", "", "  >> bias(col)\n  >> relu"));
  EXPECT_TRUE(contains(code, "static_cast<const ElementD*>(a->vectors[0])"));
  EXPECT_TRUE(contains(code, "Layout source_layout(0, 0, 0);"));
  EXPECT_TRUE(contains(code, "Params epilogue(ElementCompute(1.0f), ElementCompute(1.0f));"));
  EXPECT_TRUE(contains(code, "LinearCombinationGeneric<cutlass::epilogue::thread::ReLu, ElementD, kVector,"));
  EXPECT_TRUE(contains(code, "// Epilogue: Y = relu(acc + bias[c])."));
}

TEST(DepthwiseEmit, ScaleAndResidualAreAlphaAndBeta) {
  std::string code = code_of(dw_spec("sm86", "    .with_threadblockshape(16, 32, 25)\n",
                                     "  >> scale(alpha = 0.5)\n  >> residual(C: f32[N,P,Q,C])\n  >> leaky_relu(0.1)",
                                     "5,5"));
  EXPECT_TRUE(contains(code, "using ThreadBlockOutputShape = cutlass::conv::TensorNHWCShape<1, 4, 4, 32>;"));
  EXPECT_TRUE(contains(code, "using WarpShape = cutlass::gemm::GemmShape<4, 32, 25>;"));
  EXPECT_TRUE(contains(code, "constexpr int Stages = 4;"));
  EXPECT_TRUE(contains(code, "ElementD* source = static_cast<ElementD*>(a->c.ptr);"));
  EXPECT_TRUE(contains(code, "Params epilogue(ElementCompute(a->scalars[0]), ElementCompute(a->scalars[1]));"));
  EXPECT_TRUE(contains(code, "struct ucut_stage2_leaky_relu {"));  // its slope baked into the functor
}

TEST(DepthwiseSmem, ModelFollowsCutlassThreadMaps) {
  Compilation c = test::compile_text(dw_spec("sm80", "", ""));
  ASSERT_TRUE(c.config);
  DepthwiseSmem m = depthwise_smem(*c.config, *depthwise_tile(64), {3, 3});
  // 10 x 10 pixels x 64 channels of f32, loaded by 128 threads in 16-byte vectors: ceil(16 * 100 / 128) = 13 loads.
  EXPECT_EQ(m.activation_bytes, 13 * 4 * 128 * 4);
  // 9 taps x 64 channels in rows of 128 / 16 = 8 taps: 2 passes.
  EXPECT_EQ(m.filter_bytes, 2 * 4 * 128 * 4);
  // with_stages(auto): at stride 2 the patch is 17 x 17 pixels (37 loads a thread, 75776 bytes); sm80's 163 KB hold
  // two such stages, so auto takes 2 there rather than the tile's 3, which sm90a's 227 KB hold.
  EXPECT_EQ(m.stages, 2);
  EXPECT_EQ(m.total_bytes, 2 * m.activation_bytes + m.filter_bytes);
  Compilation h = test::compile_text(dw_spec("sm90a", "", ""));
  ASSERT_TRUE(h.config);
  EXPECT_EQ(depthwise_smem(*h.config, *depthwise_tile(64), {3, 3}).stages, 3);
}

TEST(DepthwiseRules, FilterMustBeFixedAndSmall) {
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "R,S")), (V{"C423", "C423"}));
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "3,8")), V{"C423"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "1,1")), V{"C423"});
  EXPECT_TRUE(error_ids(dw_spec("sm80", "    .with_threadblockshape(64, 64, 7)\n", "", "1,7")).empty());
}

TEST(DepthwiseRules, TypesAndMath) {
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "3,3", "f16[N,H,W,C]", "f16", "f16")), V{"C103"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "3,3", "f32[N,H,W,C]", "f16")), V{"C212"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "3,3", "f32[N,H,W,C]", "f32", "f32", ", math = tf32")), V{"C105"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "3,3", "f32[N,H,W,C]", "f32", "bf16")), V{"C412"});
  EXPECT_EQ(error_ids("kernel k : sm80\n  depthwise_conv2d(X: f32[N,H,W,C], W: f32[C,3,3,1], acc: f16)\n"
                      "  >> store(Y: f32[N,P,Q,C])\n"),
            V{"C211"});
}

TEST(DepthwiseRules, TargetsAndOptions) {
  EXPECT_EQ(error_ids(dw_spec("sm75", "", "")), V{"C101"});
  EXPECT_EQ(error_ids(dw_spec("sm90a", "    .with_scheduler(tma_cooperative)\n", "")), V{"C106"});
  EXPECT_EQ(error_ids(dw_spec("sm90a", "    .with_cluster(2, 1, 1)\n", "")), V{"C106"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "    .with_tile_scheduler(stream_k)\n", "")), V{"C106"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "    .with_raster(auto, swizzle = 2)\n", "")), V{"C106"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "3,3", "f32[N,H,W,C] pad")), V{"C415"});
}

TEST(DepthwiseRules, TilesComeFromTheGeneratorsList) {
  EXPECT_EQ(error_ids(dw_spec("sm80", "    .with_threadblockshape(32, 64, 9)\n", "")), V{"C213"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "    .with_threadblockshape(64, 128, 9)\n", "")), V{"C213"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "    .with_threadblockshape(64, 64, 8)\n", "")), V{"C213"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "    .with_threadblockshape(64, 64, 9)\n    .with_warpshape(32, 64, 9)\n", "")),
            V{"C213"});
  for (const DepthwiseTile& t : depthwise_tiles())
    for (int n : depthwise_channel_tiles())
      EXPECT_TRUE(error_ids(dw_spec("sm80", fmt::format("    .with_threadblockshape({}, {}, 9)\n", t.tile_m, n), "")).empty())
          << t.tile_m << "x" << n;
}

TEST(DepthwiseRules, SixteenByteVectors) {
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "", "3,3", "f32[N,H,W,C] align(1)")), V{"C214"});
  EXPECT_EQ(error_ids("kernel k : sm80\n  depthwise_conv2d(X: f32[N,H,W,30], W: f32[30,3,3,1], acc: f32)\n"
                      "  >> store(Y: f32[N,P,Q,30])\n"),
            V{"C205"});  // once, at X: W and Y agree with it
}

TEST(DepthwiseRules, StagesAndSharedMemory) {
  EXPECT_EQ(error_ids(dw_spec("sm80", "    .with_stages(1)\n", "")), V{"C208"});
  // 8x8 pixels of 64 channels through a 7x7 filter: 14 x 14 activation pixels a stage, over sm86's 99 KB at 2.
  EXPECT_EQ(error_ids(dw_spec("sm86", "    .with_threadblockshape(64, 64, 49)\n", "", "7,7")), V{"C207"});
  EXPECT_TRUE(error_ids(dw_spec("sm86", "    .with_threadblockshape(64, 32, 49)\n", "", "7,7")).empty());
  EXPECT_TRUE(error_ids(dw_spec("sm90a", "    .with_threadblockshape(64, 64, 49)\n", "", "7,7")).empty());
}

TEST(DepthwiseRules, EpilogueIsOneLinearCombination) {
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "  >> bias(row)")), V{"C420"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "  >> bias(col)\n  >> scale(alpha = 2.0)")), V{"C420"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "  >> bias(col, f16)")), V{"C420"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "  >> residual(C: f16[N,P,Q,C])")), V{"C420"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "  >> expr(x * sigmoid(x))")), V{"C420"});
  EXPECT_EQ(error_ids(dw_spec("sm80", "", "  >> aux_store(Z: f32[N,P,Q,C])")), V{"C416"});
  EXPECT_TRUE(error_ids(dw_spec("sm80", "", "  >> scale(alpha)\n  >> bias(col)\n  >> gelu")).empty());
}

}  // namespace
}  // namespace ucut
