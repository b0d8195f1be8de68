// tests/unit/search/space_test.cpp — Move printing, and the knobs each backend's space offers.
#include "engine/search/space.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/search/rewrite.h"
#include "search_fixtures.h"

namespace ucut::search {
namespace {

using testing::inline_problem;
using testing::repo_problem;
using testing::repo_text;

KernelConfig lowered(const std::string& rel) {
  std::string error;
  auto cfg = lower_kernel(repo_text(rel), &error);
  EXPECT_TRUE(cfg.has_value()) << error;
  return cfg.value_or(KernelConfig{});
}

const char* kExactF32 =
    "name = \"exact\"\na = \"f32 row\"\nb = \"f32 row\"\nd = \"f32 row\"\n"
    "tolerance = { atol = 1e-4, rtol = 1e-4 }\nshapes = [ { m = 1024, n = 1024, k = 1024 } ]\n";
const char* kLooseF32 =
    "name = \"loose\"\na = \"f32 row\"\nb = \"f32 row\"\nd = \"f32 row\"\n"
    "tolerance = { atol = 2e-2, rtol = 2e-2 }\nshapes = [ { m = 1024, n = 1024, k = 1024 } ]\n";

TEST(SearchSpace, MoveJsonRoundTripsAndReads) {
  Move m;
  m.tile = Triple{128, 256, 64};
  m.cluster = Triple{2, 1, 1};
  m.schedule = KernelSchedule::tma_pingpong;
  m.tile_scheduler = TileSched{TileScheduler::split_k, 4};
  m.raster = RasterSwizzle{Raster::along_n, 2};
  m.stages = 0;
  m.math = MathMode::tf32;
  m.operands = DType::bf16;
  m.conversion = Conversion::mainloop_b;
  EXPECT_EQ(move_json(m),
            R"j({"cluster":[2,1,1],"conversion":"mainloop_b","math":"tf32","operands":"bf16","raster":"along_n",)j"
            R"j("schedule":"tma_pingpong",)j"
            R"j("stages":"auto","swizzle":2,"tile":[128,256,64],"tile_scheduler":"split_k(4)"})j");
  EXPECT_TRUE(parse_move_json(move_json(m)) == m);
  EXPECT_EQ(move_phrase(m),
            "tile 128x256x64, cluster 2x1x1, tma_pingpong, split-K 4, raster along_n swizzle 2, auto stages, math tf32, "
            "bf16 operands, B converted in the mainloop");
  EXPECT_EQ(move_phrase(Move{}), "no change");
  EXPECT_FALSE(parse_move_json("not json").has_value());
}

TEST(SearchSpace, HopperGemmMovesEveryKnob) {
  Space s = space_for(lowered("examples/gemm_bf16.ucut"), nullptr);
  EXPECT_EQ(s.backend, BackendKind::sm90);
  EXPECT_GE(s.tiles.size(), 27u);
  EXPECT_EQ(s.clusters.size(), 4u);
  EXPECT_EQ(s.schedules, (std::vector<KernelSchedule>{KernelSchedule::tma_cooperative, KernelSchedule::tma_pingpong}));
  EXPECT_NE(std::find(s.tile_schedulers.begin(), s.tile_schedulers.end(), TileSched{TileScheduler::stream_k, 1}),
            s.tile_schedulers.end());
  EXPECT_NE(std::find(s.tile_schedulers.begin(), s.tile_schedulers.end(), TileSched{TileScheduler::split_k, 4}),
            s.tile_schedulers.end());
  EXPECT_EQ(s.rasters.size(), 9u);
  EXPECT_EQ(s.maths, std::vector<MathMode>{MathMode::native});
}

TEST(SearchSpace, KnobsLimitTheSpaceAndWhatItContains) {
  KernelConfig cfg = lowered("examples/gemm_bf16.ucut");
  Space s = space_for(cfg, nullptr);
  restrict_space(s, cfg, {"tile", "stages"});
  EXPECT_GE(s.tiles.size(), 27u);
  EXPECT_EQ(s.stages.size(), 5u);
  EXPECT_EQ(s.clusters, std::vector<Triple>{cfg.cluster.value});
  EXPECT_EQ(s.schedules.size(), 1u);
  EXPECT_EQ(s.tile_schedulers.size(), 1u);
  EXPECT_EQ(s.rasters.size(), 1u);
  EXPECT_EQ(s.size(), s.tiles.size() * s.stages.size());
  Move in;
  in.tile = Triple{64, 128, 64};
  in.stages = 3;
  EXPECT_TRUE(s.contains(in));
  in.cluster = cfg.cluster.value;  // a pinned knob at its own value stays inside
  EXPECT_TRUE(s.contains(in));
  Move out = in;
  out.cluster = cfg.cluster.value == Triple{2, 1, 1} ? Triple{1, 2, 1} : Triple{2, 1, 1};
  EXPECT_FALSE(s.contains(out));
  for (const std::string& k : knob_names()) EXPECT_NE(k, "warp");
}

TEST(SearchSpace, HopperConvolutionKeepsItsOneSchedule) {
  Space s = space_for(lowered("examples/conv2d_bias_relu.ucut"), nullptr);
  EXPECT_EQ(s.schedules.size(), 1u);
  EXPECT_EQ(s.tile_schedulers.size(), 1u);
  EXPECT_GT(s.clusters.size(), 1u);
}

const char* kConvHeader =
    "name = \"conv\"\nop = \"conv2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n";

TEST(SearchSpace, PointwiseConvolutionAlsoRunsOnThePersistentGemmSchedules) {
  KernelConfig cfg = lowered("examples/conv2d_bias_relu.ucut");
  cfg.epilogue.erase(cfg.epilogue.begin(), cfg.epilogue.end() - 1);  // store only, as the problems below
  Problem pointwise = inline_problem(std::string(kConvHeader) +
                                     "shapes = [ { n = 2, h = 16, w = 16, c = 64, k = 128, r = 1, s = 1 } ]\n");
  Problem three = inline_problem(std::string(kConvHeader) +
                                 "shapes = [ { n = 2, h = 16, w = 16, c = 64, k = 128, r = 3, s = 3 } ]\n");
  const std::vector<KernelSchedule> all = {KernelSchedule::tma_warpspecialized, KernelSchedule::tma_cooperative,
                                           KernelSchedule::tma_pingpong};
  EXPECT_EQ(space_for(cfg, &pointwise).schedules, all);
  EXPECT_EQ(space_for(cfg, &three).schedules.size(), 1u);  // a 3x3 filter X is not copied (folded) for
  cfg.a.padded.value = cfg.b.padded.value = true;
  cfg.a.fold.value = 1;  // S folded, R still 3 taps
  EXPECT_EQ(space_for(cfg, &three).schedules.size(), 1u);
  cfg.a.fold.value = 2;  // X's copy is pointwise
  EXPECT_EQ(space_for(cfg, &three).schedules, all);
}

TEST(SearchSpace, TwoXBackendUsesTheTileTable) {
  KernelConfig cfg = lowered("bench/kernelbench/impl/L1_001_square_matmul.ucut");
  Space s = space_for(cfg, nullptr);
  EXPECT_EQ(s.backend, BackendKind::sm80);
  EXPECT_EQ(s.clusters.size(), 1u);
  EXPECT_EQ(s.schedules, std::vector<KernelSchedule>{KernelSchedule::multistage});
  EXPECT_EQ(s.tile_schedulers.size(), 2u);  // default, stream_k
  for (const Triple& t : s.tiles) EXPECT_TRUE(sm80_tile(Sm80MmaClass::tf32, t[0], t[1]).has_value());
  EXPECT_EQ(s.maths, std::vector<MathMode>{MathMode::tf32x3});
}

TEST(SearchSpace, Tf32OnlyWhenTheToleranceAllowsIt) {
  KernelConfig cfg = lowered("bench/kernelbench/impl/L1_001_square_matmul.ucut");
  Problem exact = inline_problem(kExactF32), loose = inline_problem(kLooseF32);
  EXPECT_FALSE(tf32_allowed(exact));
  EXPECT_TRUE(tf32_allowed(loose));
  EXPECT_TRUE(tf32_allowed(repo_problem("problems/gemm_fp32_4096.toml")));
  EXPECT_FALSE(tf32_allowed(repo_problem("problems/examples/gemm_bf16.toml")));
  EXPECT_EQ(space_for(cfg, &exact).maths, std::vector<MathMode>{MathMode::tf32x3});
  EXPECT_EQ(space_for(cfg, &loose).maths, (std::vector<MathMode>{MathMode::tf32x3, MathMode::tf32}));
}

TEST(SearchSpace, SixteenBitOperandsOnlyWhenTheToleranceAllowsThem) {
  KernelConfig cfg = lowered("bench/kernelbench/impl/L1_001_square_matmul.ucut");
  Problem exact = inline_problem(kExactF32), loose = inline_problem(kLooseF32);
  EXPECT_FALSE(half_operands_allowed(exact));
  EXPECT_TRUE(half_operands_allowed(loose));
  EXPECT_FALSE(half_operands_allowed(repo_problem("problems/examples/gemm_bf16.toml")));  // nothing to convert
  EXPECT_EQ(space_for(cfg, &exact).operand_types, std::vector<DType>{DType::f32});
  EXPECT_EQ(space_for(cfg, &loose).operand_types, (std::vector<DType>{DType::bf16, DType::f16, DType::f32}));
  EXPECT_EQ(space_for(cfg, nullptr).operand_types, std::vector<DType>{DType::f32});
  // Where they convert: on a Hopper (3.x) GEMM also in the mainloop (one operand), once 16-bit types are in the
  // space; never on the 2.x multistage kernel above.
  EXPECT_EQ(space_for(cfg, &loose).conversions, std::vector<Conversion>{Conversion::workspace});
  std::string error;
  std::optional<KernelConfig> tma = lower_kernel(
      "kernel k : sm90a\n  gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32, math = tf32)\n  >> store(D: f32[M,N] row)\n",
      &error);
  ASSERT_TRUE(tma.has_value()) << error;
  EXPECT_EQ(space_for(*tma, &exact).conversions, std::vector<Conversion>{Conversion::workspace});
  EXPECT_EQ(space_for(*tma, &loose).conversions,
            (std::vector<Conversion>{Conversion::workspace, Conversion::mainloop_b, Conversion::mainloop_a}));
  std::optional<KernelConfig> row_b = lower_kernel(
      "kernel k : sm90a\n  gemm(A: f32[M,K] row, B: f32[K,N] row, acc: f32, math = tf32)\n  >> store(D: f32[M,N] row)\n",
      &error);
  ASSERT_TRUE(row_b.has_value()) << error;
  EXPECT_EQ(space_for(*row_b, &loose).conversions, std::vector<Conversion>{Conversion::workspace})
      << "the mixed-input mainloop reads both operands K-major (C426)";
  KernelConfig mainloop = lowered("tests/golden/specs/gemm_f32_weight_mainloop.ucut");
  EXPECT_EQ(conversion_of(mainloop), Conversion::mainloop_b);
  EXPECT_EQ(conversion_of(cfg), Conversion::workspace);
  Space pinned = space_for(mainloop, &loose);
  restrict_space(pinned, mainloop, {"tile"});
  EXPECT_EQ(pinned.conversions, std::vector<Conversion>{Conversion::mainloop_b});
}

TEST(SearchSpace, PointsCoverTheProductOnce) {
  Space s = space_for(lowered("bench/kernelbench/impl/L1_001_square_matmul.ucut"), nullptr);
  std::set<std::string> seen;
  for (size_t i = 0; i < s.size(); ++i) seen.insert(move_json(s.point(i)));
  EXPECT_EQ(seen.size(), s.size());
}

TEST(SearchSpace, RelativeMoveKeepsOnlyWhatChanges) {
  KernelConfig cfg = lowered("examples/gemm_bf16.ucut");
  Space s = space_for(cfg, nullptr);
  Move point;
  point.tile = cfg.tile.value;
  point.cluster = Triple{1, 1, 1};
  point.schedule = cfg.kernel_schedule.value;
  point.tile_scheduler = TileSched{};
  point.raster = RasterSwizzle{};
  point.stages = 0;
  point.math = cfg.math.value;
  Move rel = relative_move(s, cfg, point);
  EXPECT_EQ(rel.knobs(), std::vector<std::string>{"cluster"});
}

}  // namespace
}  // namespace ucut::search
