// tests/unit/search/model_test.cpp — the proposer's performance model (engine/search/model.h): the padding term
// (tiles rounded up in M, N and per contiguous run of K) and that it steers the ranking where tiles waste work.
#include "engine/search/model.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "search_fixtures.h"

namespace ucut::search {
namespace {

using testing::inline_problem;

KernelConfig config(const std::string& operands, int tm, int tn, int tk, int stages = 0) {
  std::string spec = fmt::format("kernel k : sm90a\n  {}\n    .with_threadblockshape({}, {}, {})\n", operands, tm, tn, tk);
  if (stages) spec += fmt::format("    .with_stages({})\n", stages);
  spec += operands.rfind("conv2d", 0) == 0 ? "  >> store(Y: f32[N,P,Q,K])\n" : "  >> store(D: f32[M,N] row)\n";
  Compilation c = compile_spec(SourceFile("model.ucut", spec), StopAfter::check);
  EXPECT_TRUE(c.ok() && c.config) << spec;
  return c.config ? *c.config : KernelConfig{};
}

const char* kGemm = "gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32, math = tf32)";
const char* kConv = "conv2d(X: f32[N,H,W,C], W: f32[K,R,S,C], acc: f32, math = tf32)";

Problem conv_problem(int c, int k) {
  return inline_problem(fmt::format("name = \"c\"\nop = \"conv2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
                                    "shapes = [ {{ n = 128, h = 128, w = 128, c = {}, k = {}, r = 3, s = 3 }} ]\n",
                                    c, k));
}

TEST(SearchModel, PaddingIsOneWhenTilesDivideTheProblem) {
  std::vector<GemmExtent> work = {{4096, 4096, 4096, 1}};
  EXPECT_DOUBLE_EQ(padding_efficiency(config(kGemm, 128, 256, 32), work), 1.0);
  EXPECT_DOUBLE_EQ(padding_efficiency(config(kGemm, 128, 256, 32), {}), 1.0);
}

TEST(SearchModel, PaddingCountsTheRoundedUpTiles) {
  // M 1000 -> 1024, N 64 -> 128, K 520 -> 544 under 128x128x32.
  std::vector<GemmExtent> work = {{1000, 64, 520, 2}};
  double expected = (1000.0 * 64 * 520) / (1024.0 * 128 * 544);
  EXPECT_DOUBLE_EQ(padding_efficiency(config(kGemm, 128, 128, 32), work), expected);
}

TEST(SearchModel, AConvolutionRoundsKUpPerFilterTap) {
  // 8 input channels, 3x3 taps: K = 72, but tile K 32 runs 9 x 32 = 288 of it; 64 output channels under tile N 128.
  Problem p = conv_problem(8, 64);
  std::vector<GemmExtent> work = workload(&p);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].k, 72);
  EXPECT_EQ(work[0].k_run, 8);
  EXPECT_NEAR(padding_efficiency(config(kConv, 128, 128, 32), work), 0.5 * 72.0 / 288.0, 1e-3);
  EXPECT_NEAR(padding_efficiency(config(kConv, 128, 64, 16), work), 72.0 / 144.0, 1e-3);
  // 64 channels fill tile K 32 exactly: only M's last tile pads.
  Problem wide = conv_problem(64, 128);
  EXPECT_GT(padding_efficiency(config(kConv, 128, 128, 32), workload(&wide)), 0.99);
}

KernelConfig compiled(const std::string& spec) {
  Compilation c = compile_spec(SourceFile("model.ucut", spec), StopAfter::check);
  EXPECT_TRUE(c.ok() && c.config) << spec;
  return c.config ? *c.config : KernelConfig{};
}

// KernelBench L1_081 (ConvTranspose2d 32 -> 64, 3x3, stride 5, pad 1, dilation 2, 64 x 128 -> 318 x 638): on sm90a
// one forward convolution per output phase. Taps land on residues {0, 2, 4} of 5 per dimension, one each, and the
// other residues run one zero tap: one filter slot per output pixel, so K is the 32 input channels.
TEST(SearchModel, ATransposedConvolutionOnSm90RunsEachPhasesTaps) {
  Problem p = inline_problem(
      "name = \"t\"\nop = \"conv_transpose2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "shapes = [ { n = 16, h = 64, w = 128, c = 32, k = 64, r = 3, s = 3, stride = [5, 5], pad = [1, 1], "
      "dilation = [2, 2] } ]\n");
  const std::string head = "kernel k : sm90a\n  conv_transpose2d(X: f32[N,H,W,C], W: f32[C,R,S,K], acc: f32, math = tf32)\n"
                           "    .with_threadblockshape(128, 64, 32)\n";
  KernelConfig plain = compiled(head + "  >> store(Y: f32[N,P,Q,K])\n");
  std::vector<GemmExtent> harness = workload(&p), phases = workload(&p, &plain);
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(harness[0].m, 16 * 318 * 638);  // the harness's view: every output pixel, 64 channels
  EXPECT_EQ(harness[0].n, 64);
  EXPECT_EQ(phases[0].m, 16 * 318 * 638);
  EXPECT_EQ(phases[0].n, 64);
  EXPECT_EQ(phases[0].k, 32);
  // Stride 2, 3x3, pad 1 (KernelBench L2_016's upsampling, 128 x 128 -> 255 x 255): residue 0 takes taps 0 and 2
  // (127 rows), residue 1 tap 1 (128 rows): (127 x 2 + 128)^2 slot-pixels over 255^2 pixels, times 64 channels.
  Problem up = inline_problem(
      "name = \"t\"\nop = \"conv_transpose2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "shapes = [ { n = 1, h = 128, w = 128, c = 64, k = 64, r = 3, s = 3, stride = [2, 2], pad = [1, 1] } ]\n");
  std::vector<GemmExtent> work = workload(&up, &plain);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].m, 255 * 255);
  EXPECT_EQ(work[0].k, (int64_t(382) * 382 * 64 + 255 * 255 - 1) / (255 * 255));  // 144, not the 9 taps x 64
}

// A padded X with one filter dimension folded: 3 channels x 3 taps of S = 9, rounded up to 4 f32 = 12 per K step,
// times R = 3 steps.
TEST(SearchModel, APaddedFoldedConvolutionRunsItsCopysChannels) {
  Problem p = conv_problem(3, 64);
  KernelConfig folded = compiled(
      "kernel k : sm90a\n  conv2d(X: f32[N,H,W,C] align(1) pad fold(1), W: f32[K,R,S,C] align(1) pad, acc: f32, "
      "math = tf32)\n    .with_threadblockshape(128, 64, 16)\n  >> store(Y: f32[N,P,Q,K])\n");
  std::vector<GemmExtent> work = workload(&p, &folded);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].k_run, 12);
  EXPECT_EQ(work[0].k, 36);
  EXPECT_EQ(workload(&p)[0].k, 27);  // the harness's K: 3 channels x 9 taps
}

TEST(SearchModel, TheTileThatWastesLessIsPredictedFaster) {
  Problem p = conv_problem(8, 64);
  std::vector<GemmExtent> work = workload(&p);
  for (sol::Bottleneck bottleneck :
       {sol::Bottleneck::compute, sol::Bottleneck::memory_bandwidth, sol::Bottleneck::unknown})
    EXPECT_LT(model_time(config(kConv, 128, 64, 16), work, bottleneck, 132),
              model_time(config(kConv, 128, 128, 32), work, bottleneck, 132))
        << enum_name(bottleneck);
}

// KernelBench L2_071's convolution (8 channels, K = 72: nine 32-wide K iterations, one per filter tap) on 128x64x32
// tiles: with the stages `auto` gives, one CTA fills the SM and its epilogue runs alone; at 2 stages a second fits.
TEST(SearchModel, AShortKLoopExposesTheEpilogueUnlessASecondCtaFits) {
  Problem p = conv_problem(8, 64);
  std::vector<GemmExtent> work = workload(&p);
  KernelConfig full = config(kConv, 128, 64, 32), two = config(kConv, 128, 64, 32, 2);
  EXPECT_EQ(k_iterations(full, work), 9);
  EXPECT_EQ(resident_ctas(full), 1);
  EXPECT_GE(resident_ctas(two), 2);
  double e = 128.0 * 64 / (192.0 * 32);  // the epilogue's stores in K iterations
  EXPECT_NEAR(overlap_efficiency(full, work), 9 / (9 + e), 1e-9);
  EXPECT_DOUBLE_EQ(overlap_efficiency(two, work), 1.0);
  // Two stages each, but two CTAs: as many bytes in flight per SM as the deep pipeline of one.
  EXPECT_DOUBLE_EQ(latency_efficiency(two), latency_efficiency(full));
  EXPECT_LT(model_time(two, work, sol::Bottleneck::unknown, 132),
            model_time(full, work, sol::Bottleneck::unknown, 132));
  // A long K loop hides the epilogue's share whatever the occupancy.
  std::vector<GemmExtent> gemm = {{4096, 4096, 4096, 1}};
  EXPECT_GT(overlap_efficiency(config(kGemm, 128, 128, 32), gemm), 0.98);
}

// KernelBench L1_001 (4096^3): its TF32 kernel at 0.379 ms, converting A and B (6 bytes per element at 4.8 TB/s) 0.042
// ms, c = 0.11; bf16 with tile K doubled measured 0.231 ms, 1.64x (bench/results/optimize_1e-2_half).
TEST(SearchModel, SixteenBitOperandsPayTheirConversionPass) {
  std::vector<GemmExtent> work = {{4096, 4096, 4096, 1}};
  KernelConfig tf32 = config(kGemm, 128, 256, 32);
  KernelConfig bf16 = config("gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col from(f32), acc: f32)", 128, 256, 64);
  ASSERT_TRUE(bf16.a.narrowed());
  double c = 0.042 / 0.379;
  EXPECT_NEAR(model_time(tf32, work, sol::Bottleneck::compute, 132, c) /
                  model_time(bf16, work, sol::Bottleneck::compute, 132, c),
              1.64, 0.05);
  // Unknown share: 5%.
  EXPECT_NEAR(model_time(tf32, work, sol::Bottleneck::compute, 132) /
                  model_time(bf16, work, sol::Bottleneck::compute, 132),
              1 / 0.55, 0.05);
  // A conversion pass as long as the kernel itself (a matrix-vector product) loses even when compute-bound. A kernel
  // bound by memory gains from the halved operand bytes (0.8 of its time), less than a compute-bound one, and loses
  // to a pass longer than that gain.
  EXPECT_LT(model_time(tf32, work, sol::Bottleneck::compute, 132, 1.0),
            model_time(bf16, work, sol::Bottleneck::compute, 132, 1.0));
  for (sol::Bottleneck bottleneck : {sol::Bottleneck::memory_bandwidth, sol::Bottleneck::memory_latency}) {
    EXPECT_NEAR(model_time(tf32, work, bottleneck, 132, c) / model_time(bf16, work, bottleneck, 132, c),
                1 / (0.8 + c), 0.01)
        << enum_name(bottleneck);
    EXPECT_LT(model_time(tf32, work, bottleneck, 132, 0.3), model_time(bf16, work, bottleneck, 132, 0.3))
        << enum_name(bottleneck);
  }
}

}  // namespace
}  // namespace ucut::search
