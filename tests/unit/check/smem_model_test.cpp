// tests/unit/check/smem_model_test.cpp — sm90_smem_budget() (check/smem_model.h) against the CUTLASS 4.2 builder
// arithmetic and the stage counts measured on an H200 (shared/facts/cutlass.md §1 "Stage count").
//
// The formulas (check/smem_model.cpp, after sm90_gmma_builder.inl compute_stage_count_or_override and
// sm90_builder.inl sm90_get_tma_dispatch_policy):
//   capacity    = 232448 (sm90a), already a multiple of 128
//   stage_bytes = round_up(bits·M·K/8 + bits·N·K/8, 128) + 16          (f32 operands count as tf32, 32 bits)
//   epilogue (TMA schedules only):
//     epi tile  = cooperative: min(128, M) x gcd(min(32, N), N);  other: min(64, M) x gcd(min(32 or 64 for 8-bit D, N), N)
//     epi_tiles = (M / epi_m) · (N / epi_n);   stages_d = min(epi_tiles, 2)
//     reuse     = C present with bits_C == bits_D > 8
//     stages_c  = reuse ? max(min(epi_tiles, 4), stages_d + 1) : min(epi_tiles, 4)
//     bytes     = [C, no reuse] round_up(stages_c·epi_elems·bits_C/8, 128)
//               + round_up((reuse ? stages_c : stages_d)·epi_elems·bits_D/8, 128)
//               + per bias(col)/channel_scale(col): round_up(N·bits_v/8, 16)
//               + per aux_store: round_up(stages_d·epi_elems·bits_Z/8, 128)
//               + stages_c·16
//   auto_stages = (capacity - round_up(epilogue, 128)) / stage_bytes
//   total       = stages·stage_bytes + epilogue + 128
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "check/smem_model.h"
#include "compiler/pipeline.h"

namespace ucut {
namespace {

KernelConfig lowered(const std::string& text) {
  SourceFile src("smem.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.config) << text;
  return c.config ? *c.config : KernelConfig{};
}

/// A GEMM on `t` operands (A row, B col) with the given configuration calls and `>>` chain.
std::string spec(std::string_view t, std::string_view configs, std::string_view chain) {
  return fmt::format("kernel k : sm90a\n  gemm(A: {0}[M,K] row, B: {0}[K,N] col, acc: f32)\n{1}  {2}\n", t, configs,
                     chain);
}

SmemBudget budget(std::string_view t, std::string_view configs, std::string_view chain) {
  return sm90_smem_budget(lowered(spec(t, configs, chain)));
}

constexpr const char* kCoop128 = "    .with_threadblockshape(128, 128, 64)\n    .with_scheduler(tma_cooperative)\n";

TEST(SmemModel, F16Cooperative128x128x64GetsSixStages) {
  // stage:    16·128·64/8 + 16·128·64/8 = 16384 + 16384 = 32768 (a multiple of 128) + 16       = 32784
  // epilogue: tile 128 x gcd(32,128)=32 → 4096 elems, 4 epi tiles, stages_d 2, stages_c 4, no C
  //           D: round_up(2·4096·2, 128) = 16384; barriers 4·16 = 64                          = 16448
  // auto:     (232448 - round_up(16448, 128) = 232448 - 16512 = 215936) / 32784 = 6.59        → 6
  // total:    6·32784 + 16448 + 128 = 213280, rounded up to whole KiB (the 1 KiB-aligned struct) = 214016
  SmemBudget b = budget("f16", kCoop128, ">> store(D: f16[M,N] row)");
  EXPECT_EQ(b.capacity, 232448);
  EXPECT_EQ(b.stage_bytes, 32784);
  EXPECT_EQ(b.epi_tile_m, 128);
  EXPECT_EQ(b.epi_tile_n, 32);
  EXPECT_EQ(b.epilogue_bytes, 16448);
  EXPECT_EQ(b.auto_stages, 6);
  EXPECT_EQ(b.stages, 6);
  EXPECT_EQ(b.total_bytes, 214016);
}

TEST(SmemModel, F16Cooperative128x128x64WithAnF16SourceMatchesTheH200Measurement) {
  // The measured kernel (facts: "6 stages and 230400 B") reads an f16 C, CUTLASS's usual LinearCombination setup.
  // epilogue: bits_C = bits_D = 16 → reuse, stages_c = max(min(4,4), 2+1) = 4
  //           C/D shared buffer: round_up(4·4096·2, 128) = 32768; barriers 64                 = 32832
  // auto:     (232448 - 32896 = 199552) / 32784 = 6.09                                         → 6
  // total:    6·32784 + 32832 + 128 = 229664, rounded up to whole KiB                          = 230400
  SmemBudget b = budget("f16", kCoop128, ">> residual(C: f16[M,N] row) >> store(D: f16[M,N] row)");
  EXPECT_EQ(b.epilogue_bytes, 32832);
  EXPECT_EQ(b.auto_stages, 6);
  EXPECT_EQ(b.total_bytes, 230400);  // exactly the measured size: CUTLASS pads SharedStorage to 1 KiB
}

TEST(SmemModel, F16Pingpong64x128x64) {
  // stage:    16·64·64/8 + 16·128·64/8 = 8192 + 16384 = 24576 + 16                             = 24592
  // epilogue (tma, not cooperative): tile min(64,64)=64 x gcd(min(32,128),128)=32 → 2048 elems, 4 epi tiles,
  //           stages_d 2, stages_c 4
  //   no C:   D round_up(2·2048·2, 128) = 8192; barriers 64                                    = 8256
  //           auto (232448 - 8320 = 224128) / 24592 = 9.11                                     → 9
  //   f16 C:  reuse, C/D buffer round_up(4·2048·2, 128) = 16384; barriers 64                  = 16448
  //           auto (232448 - 16512 = 215936) / 24592 = 8.78                                    → 8
  //           total 8·24592 + 16448 + 128 = 196736 + 16576                                     = 213312
  // The H200 measurement "Pingpong 64x128x64 gives 8 stages and 214016 B" is the f16-C case: without C the
  // builder arithmetic gives 9 (and 8 stages with the measured 214016 B total only add up with the 16 KiB C/D buffer).
  const char* pp = "    .with_threadblockshape(64, 128, 64)\n    .with_scheduler(tma_pingpong)\n";
  SmemBudget plain = budget("f16", pp, ">> store(D: f16[M,N] row)");
  EXPECT_EQ(plain.stage_bytes, 24592);
  EXPECT_EQ(plain.epi_tile_m, 64);
  EXPECT_EQ(plain.epi_tile_n, 32);
  EXPECT_EQ(plain.epilogue_bytes, 8256);
  EXPECT_EQ(plain.auto_stages, 9);

  SmemBudget with_c = budget("f16", pp, ">> residual(C: f16[M,N] row) >> store(D: f16[M,N] row)");
  EXPECT_EQ(with_c.epilogue_bytes, 16448);
  EXPECT_EQ(with_c.auto_stages, 8);
  EXPECT_EQ(with_c.total_bytes, 214016);  // exactly the measured size
}

TEST(SmemModel, Tf32Cooperative128x256x32FitsAtLeastTwoStages) {
  // stage:    32·128·32/8 + 32·256·32/8 = 16384 + 32768 = 49152 + 16                           = 49168
  // epilogue: tile 128 x 32 → 4096 elems, 8 epi tiles, stages_d 2, stages_c 4, no C
  //           D: round_up(2·4096·4, 128) = 32768; barriers 64                                  = 32832
  // auto:     (232448 - 32896 = 199552) / 49168 = 4.06                                         → 4
  SmemBudget b = budget("f32", "    .with_threadblockshape(128, 256, 32)\n    .with_scheduler(tma_cooperative)\n",
                        ">> store(D: f32[M,N] row)");
  EXPECT_EQ(b.stage_bytes, 49168);
  EXPECT_EQ(b.epilogue_bytes, 32832);
  EXPECT_EQ(b.auto_stages, 4);
  EXPECT_GE(b.auto_stages, 2);
}

TEST(SmemModel, F32128x256x64WithAnF32ResidualFitsFewerThanTwoStages) {
  // stage:    32·128·64/8 + 32·256·64/8 = 32768 + 65536 = 98304 + 16                           = 98320
  // no C:     D round_up(2·4096·4, 128) = 32768 + 64 = 32832; (232448 - 32896) / 98320 = 2.03 → 2
  // f32 C:    reuse (32 == 32 > 8), stages_c = max(min(8,4), 3) = 4
  //           C/D buffer round_up(4·4096·4, 128) = 65536 + 64 = 65600
  //           (232448 - 65664 = 166784) / 98320 = 1.70                                         → 1
  // CUTLASS fails to compile the second one, so check rejects it with C208.
  const char* cfg = "    .with_threadblockshape(128, 256, 64)\n    .with_scheduler(tma_cooperative)\n";
  SmemBudget plain = budget("f32", cfg, ">> store(D: f32[M,N] row)");
  EXPECT_EQ(plain.stage_bytes, 98320);
  EXPECT_EQ(plain.epilogue_bytes, 32832);
  EXPECT_EQ(plain.auto_stages, 2);

  std::string text = spec("f32", cfg, ">> residual(C: f32[M,N] row) >> store(D: f32[M,N] row)");
  SmemBudget res = sm90_smem_budget(lowered(text));
  EXPECT_EQ(res.epilogue_bytes, 65600);
  EXPECT_EQ(res.auto_stages, 1);
  EXPECT_LT(res.auto_stages, 2);

  SourceFile src("smem.ucut", text);
  Compilation c = compile_spec(src, StopAfter::check);
  std::vector<std::string> ids;
  for (const Diagnostic& d : c.diags.diagnostics()) ids.emplace_back(rule_info(d.rule).code);
  EXPECT_EQ(ids, std::vector<std::string>{"C208"});
}

TEST(SmemModel, AuxStoreAndColumnVectorsGrowTheEpilogue) {
  // Base (f16 cooperative 128x128x64, f16 D): 16448 (see above).
  //   bias(col) f16:        Sm90RowBroadcast stages one tile row: round_up(128·16/8, 16) = 256 → 16704
  //   aux_store(Z: f16):    round_up(stages_d 2 · 4096 · 2, 128) = 16384                      → 32832
  //   both:                 16448 + 256 + 16384                                                = 33088
  //   bias(row):            Sm90ColBroadcast keeps no shared memory                           → 16448
  SmemBudget base = budget("f16", kCoop128, ">> store(D: f16[M,N] row)");
  SmemBudget bias = budget("f16", kCoop128, ">> bias(col) >> store(D: f16[M,N] row)");
  SmemBudget aux = budget("f16", kCoop128, ">> aux_store(Z: f16[M,N] row) >> store(D: f16[M,N] row)");
  SmemBudget both = budget("f16", kCoop128, ">> bias(col) >> aux_store(Z: f16[M,N] row) >> store(D: f16[M,N] row)");
  SmemBudget row = budget("f16", kCoop128, ">> bias(row) >> store(D: f16[M,N] row)");
  EXPECT_EQ(base.epilogue_bytes, 16448);
  EXPECT_EQ(bias.epilogue_bytes, 16704);
  EXPECT_EQ(aux.epilogue_bytes, 32832);
  EXPECT_EQ(both.epilogue_bytes, 33088);
  EXPECT_EQ(row.epilogue_bytes, base.epilogue_bytes);
  EXPECT_GT(bias.epilogue_bytes, base.epilogue_bytes);
  EXPECT_GT(aux.epilogue_bytes, base.epilogue_bytes);
  // An f32 bias vector costs twice the bytes: round_up(128·32/8, 16) = 512.
  EXPECT_EQ(budget("f16", kCoop128, ">> bias(col, f32) >> store(D: f16[M,N] row)").epilogue_bytes, 16448 + 512);
  // aux_store's 16 KiB costs a stage: (232448 - round_up(33088, 128) = 232448 - 33152 = 199296) / 32784 = 6.08 → 6,
  // and with an f32 Z: 16448 + round_up(2·4096·4, 128) = 49216 → (232448 - 49280) / 32784 = 5.59 → 5.
  EXPECT_EQ(both.auto_stages, 6);
  SmemBudget aux32 = budget("f16", kCoop128, ">> aux_store(Z: f32[M,N] row) >> store(D: f16[M,N] row)");
  EXPECT_EQ(aux32.epilogue_bytes, 49216);
  EXPECT_EQ(aux32.auto_stages, 5);
}

TEST(SmemModel, ExplicitStagesAndNonTmaEpilogues) {
  // with_stages(4): total 4·32784 + 16448 + 128 = 147712, rounded up to whole KiB = 148480.
  SmemBudget four = budget("f16", std::string(kCoop128) + "    .with_stages(4)\n", ">> store(D: f16[M,N] row)");
  EXPECT_EQ(four.auto_stages, 6);
  EXPECT_EQ(four.stages, 4);
  EXPECT_EQ(four.total_bytes, 148480);
  // The no-smem epilogue stages nothing: 232448 / 32784 = 7.09 → 7.
  SmemBudget nosmem = budget("f16", "    .with_threadblockshape(128, 128, 64)\n"
                                    "    .with_scheduler(tma_cooperative, epilogue = nosmem)\n",
                             ">> store(D: f16[M,N] row)");
  EXPECT_EQ(nosmem.epilogue_bytes, 0);
  EXPECT_EQ(nosmem.auto_stages, 7);
}

TEST(SmemModel, Fp8OutputUsesTheWiderPingpongEpilogueTile) {
  // e4m3 D, pingpong, N % 64 == 0: the epilogue tile is 64 x 64 (N_perf 64 for 8-bit D).
  SmemBudget b = budget("e4m3", "    .with_threadblockshape(64, 128, 128)\n    .with_scheduler(tma_pingpong)\n",
                        ">> store(D: e4m3[M,N] row scaled)");
  EXPECT_EQ(b.epi_tile_m, 64);
  EXPECT_EQ(b.epi_tile_n, 64);
  // stage: 8·64·128/8 + 8·128·128/8 = 8192 + 16384 = 24576 + 16 = 24592;
  // epilogue: 2 epi tiles, stages_d 2, stages_c 2: round_up(2·4096·1, 128) = 8192 + 2·16 = 8224
  EXPECT_EQ(b.stage_bytes, 24592);
  EXPECT_EQ(b.epilogue_bytes, 8224);
}

}  // namespace
}  // namespace ucut
