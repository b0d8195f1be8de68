// tests/unit/sol/roofline_test.cpp — the SOL model (sol/roofline.h): the paper's hand-checked 4096³ case,
// a memory-bound case, epilogue bytes, batched scaling, clock scaling and gap arithmetic.
#include "sol/roofline.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "../problem/problem_text.h"
#include "../test_paths.h"

namespace ucut::sol {
namespace {

const GpuTable& table() {
  static const GpuTable t = [] {
    std::string err;
    auto loaded = load_gpu_table(ucut::test_paths::source_dir() + "/data/gpus.toml", &err);
    EXPECT_TRUE(loaded) << err;
    return *loaded;
  }();
  return t;
}

const GpuSpec& gpu(const char* key) {
  const GpuSpec* g = table().find_key(key);
  EXPECT_NE(g, nullptr) << key;
  return *g;
}

Problem problem(const std::string& body) {
  std::string err;
  auto p = parse_problem("name = \"t\"\n" + body + "\nshapes = [ { m = 1, n = 1, k = 1 } ]\n", "test.toml", &err);
  EXPECT_TRUE(p) << err;
  return *p;
}

GemmShape shape(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  GemmShape s;
  s.m = m, s.n = n, s.k = k, s.batch = batch;
  return s;
}

// The muCUTLASS paper, Appendix A.2: KernelBench L1 #1, 4096³ FP32 GEMM on H100 SXM locked at 1500 MHz.
TEST(Roofline, PaperCase4096Fp32OnH100At1500MHz) {
  Problem p = problem("a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\nmath = \"tf32\"");
  WorkCount w = count_work(p.semantics, shape(4096, 4096, 4096));
  EXPECT_EQ(w.gemm_flops, 2.0 * 4096.0 * 4096.0 * 4096.0);  // 1.374e11
  EXPECT_NEAR(w.gemm_flops, 1.374e11, 0.001e11);
  EXPECT_EQ(w.epilogue_flops, 0);
  EXPECT_EQ(w.bytes, 3.0 * 4096 * 4096 * 4);  // 2.013e8
  EXPECT_NEAR(w.bytes, 2.013e8, 0.001e8);
  EXPECT_NEAR(w.intensity(), 682.7, 0.1);
  EXPECT_EQ(kernel_precision(p.semantics), Precision::tf32);

  SolOptions opt;
  opt.clock_mhz = 1500;
  SolReport r = sol_report(gpu("h100_sxm"), p.semantics, {shape(4096, 4096, 4096)}, opt);
  EXPECT_EQ(r.basis, PeakBasis::clock_scaled);
  EXPECT_NEAR(r.clock_scale, 0.7576, 1e-4);
  ASSERT_EQ(r.shapes.size(), 1u);
  const Bound& tf32 = *r.shapes[0].tf32.peak;
  EXPECT_NEAR(tf32.peak_tflops, 374.77, 0.01);
  EXPECT_NEAR(tf32.ridge, 111.9, 0.05);
  EXPECT_NEAR(tf32.t_compute_s * 1e3, 0.367, 0.0005);
  EXPECT_NEAR(tf32.t_memory_s * 1e3, 0.060, 0.0005);
  EXPECT_NEAR(tf32.t_sol_s() * 1e3, 0.367, 0.0005);
  EXPECT_EQ(tf32.kind(), BoundKind::compute);
  const Bound& fp16 = *r.shapes[0].fp16.peak;
  EXPECT_NEAR(fp16.peak_tflops, 749.55, 0.01);
  EXPECT_NEAR(fp16.t_sol_s() * 1e3, 0.1834, 0.0001);
  EXPECT_EQ(r.shapes[0].kernel.peak->precision, Precision::tf32);
  EXPECT_FALSE(r.shapes[0].tf32.achievable);

  // Without a clock: the datasheet peaks, at boost.
  SolReport d = sol_report(gpu("h100_sxm"), p.semantics, {shape(4096, 4096, 4096)}, {});
  EXPECT_EQ(d.basis, PeakBasis::datasheet);
  EXPECT_DOUBLE_EQ(d.shapes[0].tf32.peak->peak_tflops, 494.7);
  EXPECT_NEAR(d.shapes[0].tf32.peak->t_sol_s() * 1e3, 0.2778, 0.0001);
}

// 8192x8192 output, K = 64, f16 in and out, H200 datasheet (989.4 TF/s, 4.8 TB/s), by hand:
//   FLOPs = 2·8192·8192·64 = 8,589,934,592; bytes = (8192·64 + 64·8192 + 8192·8192)·2 = 136,314,880
//   t_compute = 8.590e9 / 989.4e12 = 8.682 us; t_mem = 1.363e8 / 4.8e12 = 28.399 us → memory-bound.
TEST(Roofline, ShallowKIsMemoryBound) {
  Problem p = problem("a = \"f16 row\"\nb = \"f16 col\"\nd = \"f16 row\"");
  WorkCount w = count_work(p.semantics, shape(8192, 8192, 64));
  EXPECT_EQ(w.gemm_flops, 8589934592.0);
  EXPECT_EQ(w.bytes, 136314880.0);
  EXPECT_NEAR(w.intensity(), 63.02, 0.01);
  SolReport r = sol_report(gpu("h200"), p.semantics, {shape(8192, 8192, 64)}, {});
  const Bound& b = *r.shapes[0].kernel.peak;
  EXPECT_EQ(b.precision, Precision::fp16);
  EXPECT_NEAR(b.t_compute_s * 1e6, 8.682, 0.001);
  EXPECT_NEAR(b.t_memory_s * 1e6, 28.399, 0.001);
  EXPECT_EQ(b.t_sol_s(), b.t_memory_s);
  EXPECT_EQ(b.kind(), BoundKind::memory);
  EXPECT_LT(w.intensity(), b.ridge);
  // Every precision is memory-bound here, so all three bounds agree.
  EXPECT_EQ(r.shapes[0].tf32.peak->t_sol_s(), b.t_sol_s());
}

// A GEMV-like shape: M = 1. FLOPs 2·4096·4096 = 33.55e6, bytes ≈ B (4096·4096·2), far below the ridge.
TEST(Roofline, SkinnyShapeIsMemoryBound) {
  Problem p = problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"");
  WorkCount w = count_work(p.semantics, shape(1, 4096, 4096));
  EXPECT_EQ(w.bytes, (4096.0 + 4096.0 * 4096.0 + 4096.0) * 2);
  EXPECT_NEAR(w.intensity(), 1.0, 0.001);
  Bound b = roofline(w, Precision::bf16, 989.4, 4.8);
  EXPECT_EQ(b.kind(), BoundKind::memory);
  EXPECT_NEAR(b.t_sol_s() * 1e6, w.bytes / 4.8e6, 1e-9);
}

TEST(Roofline, EpilogueBytesAndFlopsAreExact) {
  Problem p = problem(
      "a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"f16 row\"\n"
      "epilogue = \"residual(C: f32[M,N] row) >> bias(col, f32) >> channel_scale(row, f16) >> relu >> "
      "aux_store(Z: bf16[M,N] row) >> gelu\"");
  const double m = 256, n = 512, k = 128;
  WorkCount w = count_work(p.semantics, shape(256, 512, 128));
  EXPECT_EQ(w.gemm_flops, 2 * m * n * k);
  // residual, bias, channel_scale, relu, gelu: 5 elementwise stages; aux_store and store count 0.
  EXPECT_EQ(w.epilogue_flops, 5 * m * n);
  double expected = m * k * 2 + k * n * 2  // A, B bf16
                    + m * n * 4            // C f32
                    + n * 4                // bias(col) f32: one per N
                    + m * 2                // channel_scale(row) f16: one per M
                    + m * n * 2            // Z bf16
                    + m * n * 2;           // D f16
  EXPECT_EQ(w.bytes, expected);
  ASSERT_EQ(w.tensors.size(), 7u);
  EXPECT_EQ(w.tensors[2].name, "C");
  EXPECT_EQ(w.tensors[3].name, "bias");
  EXPECT_EQ(w.tensors[3].elements, n);
  EXPECT_EQ(w.tensors[4].elements, m);
  EXPECT_EQ(w.tensors[5].role, TrafficRole::write);
  EXPECT_EQ(w.tensors[6].name, "D");
  EXPECT_EQ(w.flops(), w.gemm_flops + w.epilogue_flops);
}

TEST(Roofline, ReductionsWriteTheirVectorsAndCountAnOpPerReducedElement) {
  Problem p = problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
                      "epilogue = \"scale(alpha = 0.125) >> row_max(R: f32[M]) >> col_sum(S: f32[N])\"");
  const double m = 1000, n = 1032, k = 520;
  WorkCount w = count_work(p.semantics, shape(1000, 1032, 520));
  EXPECT_EQ(w.gemm_flops, 2 * m * n * k);
  // scale, row_max, col_sum: one op per element each (an add or a max per reduced element).
  EXPECT_EQ(w.epilogue_flops, 3 * m * n);
  ASSERT_EQ(w.tensors.size(), 5u);  // A, B, R, S, D
  EXPECT_EQ(w.tensors[2].name, "R");
  EXPECT_EQ(w.tensors[2].role, TrafficRole::write);
  EXPECT_EQ(w.tensors[2].elements, m);
  EXPECT_EQ(w.tensors[2].bytes, m * 4);
  EXPECT_EQ(w.tensors[3].name, "S");
  EXPECT_EQ(w.tensors[3].elements, n);
  EXPECT_EQ(w.bytes, m * k * 2 + k * n * 2 + m * 4 + n * 4 + m * n * 2);

  Problem b = problem("op = \"batched_gemm\"\na = \"f16 row\"\nb = \"f16 col\"\nd = \"f16 row\"\n"
                      "epilogue = \"col_sum(S: f32[L,N]) >> relu\"");
  WorkCount w3 = count_work(b.semantics, shape(999, 1024, 256, 3));
  EXPECT_EQ(w3.epilogue_flops, 2.0 * 3 * 999 * 1024);  // col_sum and relu
  EXPECT_EQ(w3.bytes, 3.0 * (999 * 256 * 2 + 256 * 1024 * 2 + 1024 * 4 + 999 * 1024 * 2));
}

TEST(Roofline, ConvolutionCountsEveryTapAndReadsEachTensorOnce) {
  // KernelBench L1/55 (shared/facts/kernelbench.md: 615 GFLOP, 3,209 MB).
  std::string err;
  auto p = parse_problem(
      "name = \"c\"\nop = \"conv2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "shapes = [ { n = 8, h = 512, w = 1024, c = 64, k = 128, r = 3, s = 3 } ]\n",
      "c.toml", &err);
  ASSERT_TRUE(p) << err;
  const GemmShape& s = p->shapes[0];
  EXPECT_EQ(s.m, 8 * 510 * 1022);
  EXPECT_EQ(s.n, 128);
  EXPECT_EQ(s.k, 3 * 3 * 64);
  WorkCount w = count_work(p->semantics, s);
  EXPECT_DOUBLE_EQ(w.gemm_flops, 2.0 * 8 * 510 * 1022 * 128 * 576);
  EXPECT_DOUBLE_EQ(w.bytes, 4.0 * (8.0 * 512 * 1024 * 64 + 128.0 * 3 * 3 * 64 + 8.0 * 510 * 1022 * 128));
  EXPECT_NEAR(w.gemm_flops / 1e9, 615, 1);
  EXPECT_NEAR(w.bytes / 1e6, 3209, 1);
}

TEST(Roofline, TransposedConvolutionCountsItsOwnTensors) {
  // KernelBench L1/57 (shared/facts/kernelbench.md: 618 GFLOP, 4,304 MB): 64 -> 64 channels, 3x3, 1024 -> 1026.
  std::string err;
  auto p = parse_problem(
      "name = \"t\"\nop = \"conv_transpose2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "shapes = [ { n = 8, h = 1024, w = 1024, c = 64, k = 64, r = 3, s = 3, label = \"L1/57\" } ]\n",
      "t.toml", &err);
  ASSERT_TRUE(p) << err;
  WorkCount w = count_work(p->semantics, p->shapes[0]);
  // Every tap of every input pixel (not the implicit GEMM over the padded output, 2 * 8 * 1026^2 * 64 * 9 * 64).
  EXPECT_DOUBLE_EQ(w.gemm_flops, 2.0 * 8 * 1024 * 1024 * 64 * 9 * 64);
  EXPECT_DOUBLE_EQ(w.bytes, 4.0 * (8.0 * 1024 * 1024 * 64 + 64.0 * 9 * 64 + 8.0 * 1026 * 1026 * 64));
  EXPECT_NEAR(w.gemm_flops / 1e9, 618, 1);
  EXPECT_NEAR(w.bytes / 1e6, 4304, 1);
  SolReport r = sol_report(gpu("h200"), p->semantics, p->shapes, {});
  EXPECT_NE(render_sol_text(r).find("transposed X[8,1024,1024,64] W[64,3,3,64] -> Y[8,1026,1026,64] pad 0,0 stride "
                                    "1,1 dilation 1,1 = GEMM 8421408x64x576 (L1/57)"),
            std::string::npos)
      << render_sol_text(r);
}

TEST(Roofline, GroupedConvolutionCountsOneGroupsChannelsPerOutput) {
  // ResNeXt's 3x3 grouped layer: 256 -> 256 channels in 32 groups of 8, 56 x 56, batch 32.
  std::string err;
  auto p = parse_problem(
      "name = \"g\"\nop = \"grouped_conv2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "epilogue = \"bias(col) >> relu\"\n"
      "shapes = [ { n = 32, h = 56, w = 56, c = 256, k = 256, groups = 32, r = 3, s = 3, pad = [1, 1] } ]\n",
      "g.toml", &err);
  ASSERT_TRUE(p) << err;
  WorkCount w = count_work(p->semantics, p->shapes[0]);
  const double pixels = 32.0 * 56 * 56;
  EXPECT_DOUBLE_EQ(w.gemm_flops, 2.0 * pixels * 256 * 9 * 8);  // 2 N P Q K R S C/G, not C
  EXPECT_DOUBLE_EQ(w.epilogue_flops, 2.0 * pixels * 256);      // bias and relu per output element
  // X and Y once, the filter [256, 3, 3, 8], the bias one value per output channel.
  EXPECT_DOUBLE_EQ(w.bytes, 4.0 * (pixels * 256 + 256.0 * 9 * 8 + 256 + pixels * 256));
  SolReport r = sol_report(gpu("h200"), p->semantics, p->shapes, {});
  EXPECT_NE(render_sol_text(r).find("X[32,56,56,256] W[256,3,3,8] pad 1,1 stride 1,1 dilation 1,1 groups 32 = 32 "
                                    "group GEMMs 100352x8x72"),
            std::string::npos)
      << render_sol_text(r);
}

TEST(Roofline, DepthwiseConvolutionIsMemoryBound) {
  // KernelBench L1/82 (shared/facts/kernelbench.md: 4.79 GFLOP, 2,139 MB): 64 channels, 3x3, 512 -> 510, batch 16.
  std::string err;
  auto p = load_problem(ucut::test_paths::source_dir() + "/problems/kernelbench_depthwise_f32.toml", &err);
  ASSERT_TRUE(p) << err;
  const GemmShape& l82 = p->shapes[0];
  ASSERT_EQ(l82.label, "L1/82");
  WorkCount w = count_work(p->semantics, l82);
  EXPECT_DOUBLE_EQ(w.gemm_flops, 2.0 * 16 * 510 * 510 * 64 * 9);  // 2 N P Q C R S
  EXPECT_DOUBLE_EQ(w.bytes, 4.0 * (16.0 * 512 * 512 * 64 + 64.0 * 9 + 16.0 * 510 * 510 * 64));
  EXPECT_NEAR(w.gemm_flops / 1e9, 4.79, 0.01);
  EXPECT_NEAR(w.bytes / 1e6, 2139, 1);
  EXPECT_LT(w.intensity(), 3);  // about 2.2 FLOP/B
  SolReport r = sol_report(gpu("h200"), p->semantics, p->shapes, {});
  EXPECT_EQ(r.precision, Precision::fp32);  // exact f32: the CUDA cores' peak
  for (const ShapeSol& s : r.shapes) {
    ASSERT_TRUE(s.kernel.peak) << s.shape.label;
    EXPECT_EQ(s.kernel.peak->kind(), BoundKind::memory) << s.shape.label;
    EXPECT_EQ(s.fp16.peak->kind(), BoundKind::memory) << s.shape.label;
  }
  EXPECT_NE(render_sol_text(r).find("X[16,512,512,64] W[64,3,3,1] pad 0,0 stride 1,1 dilation 1,1 groups 64 = 64 "
                                    "group GEMMs 4161600x1x9 (L1/82)"),
            std::string::npos)
      << render_sol_text(r);
}

TEST(Roofline, ExprCountsOneFlopPerOperation) {
  Problem p = problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
                      "epilogue = \"expr(x * sigmoid(1.702 * x))\"");
  WorkCount w = count_work(p.semantics, shape(64, 32, 16));
  EXPECT_EQ(w.epilogue_flops, 3.0 * 64 * 32);  // *, sigmoid, *: the constant and the two x are operands
}

TEST(Roofline, BatchedScalesEverything) {
  Problem p = problem(
      "op = \"batched_gemm\"\na = \"f16 row\"\nb = \"f16 col\"\nd = \"f16 row\"\nepilogue = \"bias(col) >> relu\"");
  WorkCount one = count_work(p.semantics, shape(128, 256, 64, 1));
  WorkCount eight = count_work(p.semantics, shape(128, 256, 64, 8));
  EXPECT_EQ(eight.gemm_flops, 8 * one.gemm_flops);
  EXPECT_EQ(eight.epilogue_flops, 8 * one.epilogue_flops);
  EXPECT_EQ(eight.bytes, 8 * one.bytes);
  EXPECT_EQ(one.bytes, (128.0 * 64 + 64.0 * 256 + 256 + 128.0 * 256) * 2);
  EXPECT_DOUBLE_EQ(eight.intensity(), one.intensity());
}

// Two bf16 problems by hand: (128, 256, 64) and (77, 512, 1024), with a scale and a relu (2 elementwise stages).
TEST(Roofline, GroupedSumsOverItsProblems) {
  std::string err;
  auto p = parse_problem(
      "name = \"g\"\nop = \"grouped_gemm\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
      "epilogue = \"scale(alpha = 0.5) >> relu\"\nshapes = [ { groups = [[128, 256, 64], [77, 512, 1024]] } ]\n",
      "g.toml", &err);
  ASSERT_TRUE(p) << err;
  WorkCount w = count_work(p->semantics, p->shapes[0]);
  EXPECT_EQ(w.gemm_flops, 2.0 * (128 * 256 * 64 + 77 * 512 * 1024));  // 84,934,656
  EXPECT_EQ(w.gemm_flops, 84934656.0);
  EXPECT_EQ(w.epilogue_flops, 2.0 * (128 * 256 + 77 * 512));         // 144,384
  ASSERT_EQ(w.tensors.size(), 3u);                                    // A, B, D
  EXPECT_EQ(w.tensors[0].bytes, 2.0 * (128 * 64 + 77 * 1024));        // A: 174,080
  EXPECT_EQ(w.tensors[1].bytes, 2.0 * (64 * 256 + 1024 * 512));       // B: 1,081,344
  EXPECT_EQ(w.tensors[2].bytes, 2.0 * (128 * 256 + 77 * 512));        // D: 144,384
  EXPECT_EQ(w.bytes, 1399808.0);

  SolReport r = sol_report(gpu("h200"), p->semantics, p->shapes, {});
  std::string text = render_sol_text(r);
  EXPECT_NE(text.find("grouped GEMM, 2 problems (M 77..128, N 256..512, K 64..1024), total M·N·K 4.247e+07"),
            std::string::npos)
      << text;
  EXPECT_EQ(sol_json(r)["shapes"][0]["problems"], 2);
}

TEST(Roofline, PrecisionAndPeaks) {
  EXPECT_EQ(kernel_precision(problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"").semantics),
            Precision::bf16);
  EXPECT_EQ(kernel_precision(problem("a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"").semantics),
            Precision::fp32);
  EXPECT_FALSE(effective_peak_tflops(gpu("a100_sxm"), Precision::fp8, std::nullopt));
  EXPECT_EQ(effective_peak_tflops(gpu("l40s"), Precision::fp64_tensor, std::nullopt), gpu("l40s").fp64);
  EXPECT_NEAR(*effective_peak_tflops(gpu("h200"), Precision::fp16, 990.0), 494.7, 1e-9);
  EXPECT_THROW(clock_scale(gpu("h200"), -1.0), std::invalid_argument);
  // A bound the GPU cannot give is absent, not zero.
  SolOptions opt;
  opt.precision = Precision::fp8;
  Problem p = problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"");
  SolReport r = sol_report(gpu("a100_sxm"), p.semantics, {shape(64, 64, 64)}, opt);
  EXPECT_TRUE(r.precision_overridden);
  EXPECT_FALSE(r.shapes[0].kernel.peak);
  EXPECT_TRUE(r.shapes[0].tf32.peak);
}

TEST(Roofline, AchievableBoundsFromCalibration) {
  Problem p = problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"");
  SolOptions opt;
  opt.calibration = Calibration{};
  opt.calibration->copy_bandwidth_tbs = 4.1;
  opt.calibration->gemm_tflops[Precision::bf16] = 782;
  SolReport r = sol_report(gpu("h200"), p.semantics, {shape(4096, 4096, 4096)}, opt);
  const ShapeSol& s = r.shapes[0];
  ASSERT_TRUE(s.kernel.achievable);
  EXPECT_EQ(s.kernel.achievable->peak_tflops, 782);
  EXPECT_EQ(s.kernel.achievable->bandwidth_tbs, 4.1);
  EXPECT_GT(s.kernel.achievable->t_sol_s(), s.kernel.peak->t_sol_s());
  EXPECT_FALSE(s.tf32.achievable);  // not measured
  nlohmann::json j = sol_json(r);
  EXPECT_EQ(j["shapes"][0]["bounds"]["kernel"]["achievable"]["peak_tflops"], 782);
  EXPECT_TRUE(j["shapes"][0]["bounds"]["tf32"]["achievable"].is_null());
  EXPECT_NE(render_sol_text(r).find("achievable"), std::string::npos);
}

TEST(Roofline, MemoryBoundWorkGetsABandwidthBoundWithoutAGemmRate) {
  Calibration c;
  c.copy_bandwidth_tbs = 4.0;  // no GEMM rate at all
  WorkCount copy;
  copy.bytes = 8e9;
  copy.epilogue_flops = 1e9;
  std::optional<Bound> datasheet = roofline(copy, Precision::bf16, 989, 4.8);
  ASSERT_EQ(datasheet->kind(), BoundKind::memory);
  auto b = achievable_bound(c, copy, Precision::bf16, datasheet);
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->bandwidth_only());
  EXPECT_EQ(b->t_compute_s, 0);
  EXPECT_DOUBLE_EQ(b->t_memory_s, 2e-3);  // 8 GB at 4 TB/s
  EXPECT_EQ(b->t_floor_s, 0);             // a calibration without a floor adds none
  EXPECT_DOUBLE_EQ(b->t_sol_eff_s(), 2e-3);
  // Compute-bound work needs the rate: a bandwidth-only bound would be no bound at all.
  WorkCount gemm;
  gemm.gemm_flops = 1e15;
  gemm.bytes = 1e6;
  EXPECT_FALSE(achievable_bound(c, gemm, Precision::bf16, roofline(gemm, Precision::bf16, 989, 4.8)));
  EXPECT_FALSE(achievable_bound(std::nullopt, copy, Precision::bf16, datasheet));
}

TEST(Roofline, TheLatencyFloorBoundsOnlyTheAchievableBound) {
  Problem p = problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"");
  SolOptions opt;
  opt.calibration = Calibration{};
  opt.calibration->copy_bandwidth_tbs = 4.1;
  opt.calibration->launch_floor_us = 1.5;
  opt.calibration->cold_read_us = 2.5;
  // 64x64x64 bf16 moves 24 KiB: t_mem 6 ns, far below the 2.5 us floor.
  SolReport r = sol_report(gpu("h200"), p.semantics, {shape(64, 64, 64)}, opt);
  const ShapeSol& s = r.shapes[0];
  ASSERT_TRUE(s.kernel.achievable);
  EXPECT_TRUE(s.kernel.achievable->bandwidth_only());
  EXPECT_DOUBLE_EQ(s.kernel.achievable->t_floor_s, 2.5e-6);
  EXPECT_DOUBLE_EQ(s.kernel.achievable->t_sol_eff_s(), 2.5e-6);
  EXPECT_TRUE(s.kernel.achievable->latency_bound());
  EXPECT_LT(s.kernel.achievable->t_sol_s(), 1e-7);  // t_SOL itself is unchanged
  // The datasheet bounds, the integrity floor among them, carry no latency: faster_than_bound is as strict as
  // before.
  EXPECT_EQ(s.fp16.peak->t_floor_s, 0);
  EXPECT_FALSE(s.fp16.peak->latency_bound());
  EXPECT_FALSE(faster_than_bound(1e-6, *s.fp16.peak));
  nlohmann::json j = sol_json(r)["shapes"][0]["bounds"]["kernel"];
  EXPECT_DOUBLE_EQ(j["achievable"]["t_floor_ms"].get<double>(), 2.5e-3);
  EXPECT_DOUBLE_EQ(j["achievable"]["t_sol_eff_ms"].get<double>(), 2.5e-3);
  EXPECT_EQ(j["achievable"]["latency_bound"], true);
  EXPECT_EQ(j["achievable"]["bandwidth_only"], true);
  EXPECT_EQ(j["peak"]["t_floor_ms"], 0);
  std::string text = render_sol_text(r);
  EXPECT_NE(text.find("t_SOL_eff"), std::string::npos) << text;
  EXPECT_NE(text.find("latency floor 2.50 us (GPU busy: empty kernel 1.50 us, cold 4 KiB read 2.50 us"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("2.500 us  latency"), std::string::npos) << text;
}

TEST(Roofline, TextSaysWhenTheCalibrationHasNoFloor) {
  Problem p = problem("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"");
  SolOptions opt;
  opt.calibration = Calibration{};
  opt.calibration->schema_version = 1;
  opt.calibration->date = "2026-11-30";
  opt.calibration->copy_bandwidth_tbs = 4.1;
  std::string text = render_sol_text(sol_report(gpu("h200"), p.semantics, {shape(64, 64, 64)}, opt));
  EXPECT_NE(text.find("no latency floor: the calibration of 2026-11-30 is a ucutlass.calibration/1 file"),
            std::string::npos)
      << text;
}

TEST(Roofline, JsonAndTextNameTheBasis) {
  Problem p = problem("a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\nmath = \"tf32\"");
  SolOptions opt;
  opt.clock_mhz = 1500;
  SolReport r = sol_report(gpu("h100_sxm"), p.semantics, {shape(4096, 4096, 4096)}, opt);
  nlohmann::json j = sol_json(r);
  EXPECT_EQ(j["peak_basis"], "clock_scaled");
  EXPECT_EQ(j["clock_mhz"], 1500);
  EXPECT_EQ(j["bandwidth_scaled"], false);
  EXPECT_NEAR(j["shapes"][0]["bounds"]["tf32"]["peak"]["t_sol_ms"].get<double>(), 0.367, 0.0005);
  EXPECT_EQ(j["shapes"][0]["bounds"]["fp16"]["role"], "integrity");
  std::string text = render_sol_text(r);
  EXPECT_NE(text.find("0.367 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("clock_scaled"), std::string::npos);
}

TEST(Gap, Arithmetic) {
  EXPECT_DOUBLE_EQ(gap(0.734e-3, 0.367e-3), 2.0);
  EXPECT_DOUBLE_EQ(gap(0.367e-3, 0.367e-3), 1.0);
  EXPECT_THROW(gap(1e-3, 0), std::invalid_argument);
  EXPECT_THROW(gap(-1e-3, 1e-3), std::invalid_argument);
  Bound fp16;
  fp16.t_compute_s = 0.1834e-3;
  fp16.t_memory_s = 0.060e-3;
  EXPECT_TRUE(faster_than_bound(0.150e-3, fp16));   // implausible: flagged
  EXPECT_FALSE(faster_than_bound(0.200e-3, fp16));
  EXPECT_TRUE(within_sol(0.38e-3, 0.367e-3, 0.05));
  EXPECT_FALSE(within_sol(0.40e-3, 0.367e-3, 0.05));
}

}  // namespace
}  // namespace ucut::sol
