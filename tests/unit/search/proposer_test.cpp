// tests/unit/search/proposer_test.cpp — the built-in proposer: valid, new candidates; sensible ranking on clear
// cases; precision moves only where the tolerance allows; lessons and the gap change predictions.
#include "engine/search/proposer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/search/rewrite.h"
#include "search_fixtures.h"

namespace ucut::search {
namespace {

using testing::expect_valid;
using testing::inline_problem;
using testing::repo_problem;
using testing::repo_text;

std::string family(const Proposal& p) { return nlohmann::json::parse(p.hypothesis.move_json).at("family"); }

const Proposal* find_family(const std::vector<Proposal>& ps, const std::string& id) {
  for (const Proposal& p : ps)
    if (family(p) == id) return &p;
  return nullptr;
}

// A 128x128 bf16 GEMM without cluster: room to grow on a large compute-bound problem.
const char* kPlainBf16 =
    "kernel plain : sm90a\n"
    "  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n"
    "    .with_threadblockshape(128, 128, 64)\n"
    "  >> store(D: bf16[M,N] row)\n";

Problem bf16_problem(int m, int n, int k) {
  return inline_problem(fmt::format("name = \"g\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
                                    "shapes = [ {{ m = {}, n = {}, k = {} }} ]\n",
                                    m, n, k));
}

TEST(SearchProposer, EveryCandidateIsValidForItsProblem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"examples/gemm_bf16.ucut", "problems/examples/gemm_bf16.toml"},
      {"examples/gemm_tf32.ucut", "problems/examples/gemm_tf32.toml"},
      {"examples/mlp_up.ucut", "problems/mlp_up_bf16.toml"},
      {"examples/gemm_bias_relu.ucut", "problems/examples/gemm_bias_relu.toml"},
      {"examples/batched_gemm.ucut", "problems/examples/batched_gemm.toml"},
      {"examples/grouped_gemm_bf16.ucut", "problems/examples/grouped_gemm_bf16.toml"},
      {"examples/conv2d_bias_relu.ucut", "problems/examples/conv2d_bias_relu.toml"},
      {"examples/ampere_gemm_bias_leaky_aux.ucut", "problems/examples/ampere_gemm_bias_leaky_aux.toml"},
      {"examples/ampere_conv2d_bias_relu.ucut", "problems/examples/ampere_conv2d_bias_relu.toml"},
      {"examples/depthwise_conv2d_f32.ucut", "problems/examples/depthwise_conv2d_f32.toml"},
      {"examples/gemm_fp8_scaled.ucut", "problems/examples/gemm_fp8_scaled.toml"},
  };
  for (const auto& [spec_path, problem_path] : cases) {
    SCOPED_TRACE(spec_path);
    Problem problem = repo_problem(problem_path);
    std::string spec = repo_text(spec_path);
    ASSERT_TRUE(validate(spec, &problem).ok) << validate(spec, &problem).message;
    Context ctx;
    ctx.problem = &problem;
    std::vector<Proposal> ps = propose(spec, ctx, 8, 4);
    EXPECT_FALSE(ps.empty());
    for (const Proposal& p : ps) {
      EXPECT_FALSE(p.candidates.empty());
      EXPECT_LE(p.candidates.size(), 4u);
      EXPECT_GE(p.hypothesis.risk_impl, 1);
      EXPECT_GE(p.hypothesis.risk_perf, 1);
      EXPECT_FALSE(p.hypothesis.rationale.empty());
      for (const Candidate& c : p.candidates) expect_valid(c, problem);
    }
  }
}

TEST(SearchProposer, NeverProposesATriedConfigOrTheSeed) {
  Problem problem = repo_problem("problems/mlp_up_bf16.toml");
  std::string spec = repo_text("examples/mlp_up.ucut");
  Context ctx;
  ctx.problem = &problem;
  std::set<std::string> first;
  for (const Proposal& p : propose(spec, ctx, 8, 4))
    for (const Candidate& c : p.candidates) EXPECT_TRUE(first.insert(c.config_hash).second) << "repeated " << c.phrase;
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.count(validate(spec, &problem).config_hash), 0u);
  ctx.tried = first;
  size_t second = 0;
  for (const Proposal& p : propose(spec, ctx, 8, 4))
    for (const Candidate& c : p.candidates) {
      EXPECT_EQ(first.count(c.config_hash), 0u) << c.phrase;
      ++second;
    }
  EXPECT_GT(second, 0u);
}

TEST(SearchProposer, SmallGridPrefersStreamKOrSplitK) {
  Problem problem = bf16_problem(512, 512, 16384);  // 8 output tiles of 128x256 on 132 SMs
  Context ctx;
  ctx.problem = &problem;
  std::vector<Proposal> ps = propose(repo_text("examples/gemm_bf16.ucut"), ctx, 8, 4);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(family(ps.front()), "stream_k");
  EXPECT_GT(ps.front().hypothesis.predicted_speedup, 2.0);
  const Proposal* smaller = find_family(ps, "smaller_tiles");
  ASSERT_NE(smaller, nullptr);
  EXPECT_GT(ps.front().hypothesis.predicted_speedup, smaller->hypothesis.predicted_speedup);
  EXPECT_NE(ps.front().hypothesis.rationale.find("wave quantization"), std::string::npos);
  for (const Candidate& c : ps.front().candidates) expect_valid(c, problem);
}

// KernelBench L2_071's convolution: 8 input channels, 64 output channels. The 128x128x32 seed runs 8x the MACs it
// needs (tile N 128 over 64 channels, tile K 32 over one tap's 8 channels); smaller tiles that fit come first.
TEST(SearchProposer, SmallChannelConvolutionPrefersTilesThatFit) {
  Problem problem = inline_problem(
      "name = \"c\"\nop = \"conv2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "shapes = [ { n = 128, h = 128, w = 128, c = 8, k = 64, r = 3, s = 3 } ]\n");
  const char* seed =
      "kernel c : sm90a\n"
      "  conv2d(X: f32[N,H,W,C], W: f32[K,R,S,C], acc: f32, math = tf32)\n"
      "    .with_threadblockshape(128, 128, 32)\n"
      "  >> store(Y: f32[N,P,Q,K])\n";
  for (sol::Bottleneck bottleneck : {sol::Bottleneck::memory_bandwidth, sol::Bottleneck::unknown}) {
    SCOPED_TRACE(enum_name(bottleneck));
    Context ctx;
    ctx.problem = &problem;
    ctx.bottleneck = bottleneck;
    ctx.gap = 10;
    std::vector<Proposal> ps = propose(seed, ctx, 8, 4);
    ASSERT_FALSE(ps.empty());
    EXPECT_EQ(family(ps.front()), "smaller_tiles");
    EXPECT_EQ(ps.front().hypothesis.rationale.rfind("tile padding", 0), 0u) << ps.front().hypothesis.rationale;
    ASSERT_FALSE(ps.front().candidates.empty());
    for (const Candidate& c : ps.front().candidates) expect_valid(c, problem);
  }
}

// The same convolution on tiles that fit (128x64x32) at the stages `auto` gives: nine K iterations, then an epilogue
// with nothing beside it; the occupancy family (fewer stages, a half-height tile) is aimed at that.
TEST(SearchProposer, AnExposedEpilogueGetsTheOccupancyFamily) {
  Problem problem = inline_problem(
      "name = \"c\"\nop = \"conv2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "epilogue = \"bias(col) >> leaky_relu(0.01)\"\n"
      "shapes = [ { n = 128, h = 128, w = 128, c = 8, k = 64, r = 3, s = 3 } ]\n");
  const char* seed =
      "kernel c : sm90a\n"
      "  conv2d(X: f32[N,H,W,C], W: f32[K,R,S,C], acc: f32, math = tf32)\n"
      "    .with_threadblockshape(128, 64, 32)\n"
      "  >> bias(col) >> leaky_relu(0.01)\n"
      "  >> store(Y: f32[N,P,Q,K])\n";
  Context ctx;
  ctx.problem = &problem;
  ctx.bottleneck = sol::Bottleneck::memory_latency;
  ctx.gap = 10;
  std::vector<Proposal> ps = propose(seed, ctx, 8, 4);
  ASSERT_FALSE(ps.empty());
  const Proposal* occupancy = find_family(ps, "occupancy");
  ASSERT_NE(occupancy, nullptr);
  EXPECT_EQ(occupancy->hypothesis.rationale.rfind("exposed epilogue", 0), 0u) << occupancy->hypothesis.rationale;
  EXPECT_GT(occupancy->hypothesis.predicted_speedup, 1.0);
  ASSERT_FALSE(occupancy->candidates.empty());
  bool half_height = false;
  for (const Candidate& c : occupancy->candidates) {
    expect_valid(c, problem);
    half_height |= c.spec.find("with_threadblockshape(64, 64, 32)") != std::string::npos;
  }
  EXPECT_TRUE(half_height);
  // With two CTAs already resident there is nothing to relieve: the family is exploration at most.
  std::string resident = std::string(seed).replace(std::string(seed).find("  >>"), 0, "    .with_stages(2)\n");
  for (const Proposal& p : propose(resident, ctx, 8, 4))
    if (family(p) == "occupancy") EXPECT_EQ(p.hypothesis.rationale.rfind("Exploration", 0), 0u);
}

/// A family the proposer offers beyond the bottleneck's own moves.
bool exploration(const Proposal& p) { return p.hypothesis.rationale.rfind("Exploration", 0) == 0; }

TEST(SearchProposer, LargeSquareComputeBoundPrefersTilesAndClusters) {
  Problem problem = bf16_problem(8192, 8192, 8192);
  Context ctx;
  ctx.problem = &problem;
  ctx.bottleneck = sol::Bottleneck::compute;
  ctx.gap = 1.6;
  std::vector<Proposal> ps = propose(kPlainBf16, ctx, 8, 4);
  ASSERT_GE(ps.size(), 2u);
  std::string top = family(ps.front());
  EXPECT_TRUE(top == "larger_tiles" || top == "cluster") << top;
  // Stream-K (4096 tiles fill the SMs) and raster (a memory move) are not aimed at this bottleneck: if they come at
  // all, it is as exploration, after every aimed family; within each group the best prediction comes first.
  for (const char* f : {"stream_k", "raster"})
    if (const Proposal* p = find_family(ps, f)) EXPECT_TRUE(exploration(*p)) << f;
  for (size_t i = 1; i < ps.size(); ++i) {
    EXPECT_FALSE(exploration(ps[i - 1]) && !exploration(ps[i])) << family(ps[i]);
    if (exploration(ps[i - 1]) == exploration(ps[i]))
      EXPECT_GE(ps[i - 1].hypothesis.predicted_speedup, ps[i].hypothesis.predicted_speedup);
  }
  for (const Proposal& p : ps) EXPECT_EQ(p.hypothesis.bottleneck, sol::Bottleneck::compute);
}

TEST(SearchProposer, MemoryBoundPrefersStagesRasterAndClusters) {
  Problem problem = bf16_problem(8192, 8192, 8192);
  Context ctx;
  ctx.problem = &problem;
  ctx.bottleneck = sol::Bottleneck::memory_latency;
  std::string spec = std::string(kPlainBf16).replace(std::string(kPlainBf16).find("  >>"), 0, "    .with_stages(2)\n");
  std::vector<Proposal> ps = propose(spec, ctx, 8, 4);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(family(ps.front()), "stages");
  if (const Proposal* larger = find_family(ps, "larger_tiles")) {
    EXPECT_TRUE(exploration(*larger));
    EXPECT_GT(larger->hypothesis.risk_perf, ps.front().hypothesis.risk_perf);
  }
}

/// A 4096^3 f32 GEMM (A and B row-major) at atol = rtol = `tol`, its math `native` or `tf32`.
Problem square_f32_problem(const char* tol, const char* math = "native") {
  return inline_problem(fmt::format("name = \"f\"\na = \"f32 row\"\nb = \"f32 row\"\nd = \"f32 row\"\nmath = \"{1}\"\n"
                                    "tolerance = {{ atol = {0}, rtol = {0} }}\nshapes = [ {{ m = 4096, n = 4096, k = 4096 }} ]\n",
                                    tol, math));
}

TEST(SearchProposer, PrecisionMovesOnlyWhenTheToleranceAllows) {
  std::string spec = repo_text("bench/kernelbench/impl/L1_001_square_matmul.ucut");
  Problem exact = square_f32_problem("1e-4"), loose = square_f32_problem("1e-2");
  Context ctx;
  ctx.problem = &exact;
  for (const Proposal& p : propose(spec, ctx, 8, 4)) {
    EXPECT_NE(family(p), "precision");
    for (const Candidate& c : p.candidates) {
      EXPECT_FALSE(c.precision_change) << c.phrase;
      expect_valid(c, exact);
    }
  }
  ctx.problem = &loose;
  std::vector<Proposal> ps = propose(spec, ctx, 8, 4);
  const Proposal* precision = find_family(ps, "precision");
  ASSERT_NE(precision, nullptr);
  EXPECT_EQ(family(ps.front()), "precision");  // three products per multiply-add become one
  EXPECT_NE(precision->hypothesis.rationale.find("PRECISION CHANGE"), std::string::npos);
  for (const Candidate& c : precision->candidates) {
    EXPECT_TRUE(c.precision_change);
    expect_valid(c, loose);
  }
}

// A TF32 GEMM with A and B row-major on its best tile and cluster (128x256, 2x1).
constexpr const char* kTf32Spec =
    "kernel k : sm90a\n"
    "  gemm(A: f32[M,K] row, B: f32[K,N] row, acc: f32, math = tf32)\n"
    "    .with_threadblockshape(128, 256, 32)\n"
    "    .with_cluster(2, 1, 1)\n"
    "  >> store(D: f32[M,N] row)\n";

TEST(SearchProposer, SixteenBitOperandsOnlyWhenTheToleranceAllows) {
  Problem tight = square_f32_problem("2e-3", "tf32"), loose = square_f32_problem("1e-2", "tf32");
  Context ctx;
  ctx.problem = &tight;
  ctx.bottleneck = sol::Bottleneck::compute;
  for (const Proposal& p : propose(kTf32Spec, ctx, 9, 4))
    for (const Candidate& c : p.candidates) EXPECT_EQ(c.spec.find("from("), std::string::npos) << c.phrase;
  ctx.problem = &loose;
  std::vector<Proposal> ps = propose(kTf32Spec, ctx, 9, 4);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(family(ps.front()), "precision");  // twice TF32's rate on a compute-bound GEMM
  EXPECT_NE(ps.front().hypothesis.rationale.find("PRECISION CHANGE"), std::string::npos);
  ASSERT_FALSE(ps.front().candidates.empty());
  for (const Candidate& c : ps.front().candidates) {
    EXPECT_TRUE(c.precision_change);
    EXPECT_NE(c.spec.find("16[M,K] row from(f32)"), std::string::npos) << c.spec;
    expect_valid(c, loose);
  }
  EXPECT_NE(ps.front().candidates.front().spec.find("with_threadblockshape(128, 256, 64)"), std::string::npos)
      << "the first variant keeps 128 bytes of K per stage";
}

TEST(SearchProposer, SixteenBitOperandsAlsoAddressMemoryBoundKernels) {
  // On the H200 bf16 operands beat TF32 on convolutions the profile classed memory-bound (half the bytes per K
  // step; bench/results/optimize_1e-2_bf16/): the family is aimed at those classes too, not only explored there.
  Problem loose = square_f32_problem("1e-2", "tf32");
  Context ctx;
  ctx.problem = &loose;
  for (sol::Bottleneck bottleneck : {sol::Bottleneck::memory_bandwidth, sol::Bottleneck::memory_latency}) {
    ctx.bottleneck = bottleneck;
    std::vector<Proposal> ps = propose(kTf32Spec, ctx, 9, 4);
    const Proposal* precision = find_family(ps, "precision");
    ASSERT_NE(precision, nullptr) << enum_name(bottleneck);
    EXPECT_FALSE(exploration(*precision)) << enum_name(bottleneck) << ": " << precision->hypothesis.rationale;
  }
}

TEST(SearchProposer, AConversionPassLongerThanTheProductsKeepsF32Operands) {
  Problem loose = square_f32_problem("1e-2", "tf32");
  Context ctx;
  ctx.problem = &loose;
  ctx.bottleneck = sol::Bottleneck::compute;
  ctx.conversion_share = 0.6;  // converting A and B takes 60% of the TF32 kernel's time
  std::vector<Proposal> ps = propose(kTf32Spec, ctx, 9, 4);
  ASSERT_FALSE(ps.empty());
  EXPECT_NE(family(ps.front()), "precision");
  const Proposal* precision = find_family(ps, "precision");
  ASSERT_NE(precision, nullptr);
  EXPECT_LT(precision->hypothesis.predicted_speedup, 1);
  EXPECT_TRUE(exploration(*precision));
  EXPECT_NE(precision->hypothesis.rationale.find("60%"), std::string::npos) << precision->hypothesis.rationale;
}

TEST(SearchProposer, ALargeConvertedWeightConvertsInTheMainloop) {
  // KernelBench L2_076's shape: x (1024 x 8192) times an 8192 x 8192 weight, both f32, multiplied as bf16 after a
  // copy; converting the weight B in the mainloop saves writing and re-reading eight ninths of that copy.
  Problem p = inline_problem(
      "name = \"w\"\na = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n"
      "tolerance = { atol = 1e-2, rtol = 1e-2 }\nshapes = [ { m = 1024, n = 8192, k = 8192 } ]\n");
  std::string seed =
      "kernel k : sm90a\n"
      "  gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col from(f32), acc: f32)\n"
      "    .with_threadblockshape(128, 128, 64)\n"
      "  >> store(D: f32[M,N] row)\n";
  Context ctx;
  ctx.problem = &p;
  ctx.bottleneck = sol::Bottleneck::compute;
  ctx.conversion_share = 0.3;
  ctx.knobs = {"conversion", "schedule", "tile"};
  std::vector<Proposal> ps = propose(seed, ctx, 9, 2);
  const Proposal* precision = find_family(ps, "precision");
  ASSERT_NE(precision, nullptr);
  EXPECT_FALSE(exploration(*precision)) << precision->hypothesis.rationale;
  EXPECT_GT(precision->hypothesis.predicted_speedup, 1);
  EXPECT_NE(precision->hypothesis.rationale.find("converting B in the mainloop"), std::string::npos)
      << precision->hypothesis.rationale;
  ASSERT_FALSE(precision->candidates.empty());
  const Candidate& first = precision->candidates.front();
  EXPECT_NE(first.spec.find("B: bf16[K,N] col from(f32, mainloop)"), std::string::npos) << first.spec;
  EXPECT_NE(first.spec.find("with_threadblockshape(64, 256, 64)"), std::string::npos) << first.spec;
  EXPECT_NE(first.spec.find("with_scheduler(tma_pingpong)"), std::string::npos) << first.spec;
  for (const Candidate& c : precision->candidates) expect_valid(c, p);
}

TEST(SearchProposer, LessonsChangeTheRanking) {
  Problem problem = bf16_problem(8192, 8192, 8192);
  Context ctx;
  ctx.problem = &problem;
  ctx.bottleneck = sol::Bottleneck::compute;
  std::vector<Proposal> before = propose(kPlainBf16, ctx, 8, 4);
  ASSERT_GE(before.size(), 2u);
  std::string top = family(before.front()), second = family(before[1]);

  store::LessonRow slower;
  slower.move_json = nlohmann::json{{"family", top}}.dump();
  slower.measured_speedup = 0.8;
  ctx.lessons = {slower, slower};
  std::vector<Proposal> after = propose(kPlainBf16, ctx, 8, 4);
  EXPECT_NE(family(after.front()), top);
  const Proposal* demoted = find_family(after, top);
  ASSERT_NE(demoted, nullptr);
  EXPECT_LT(demoted->hypothesis.predicted_speedup, before.front().hypothesis.predicted_speedup);
  EXPECT_NE(demoted->hypothesis.rationale.find("2 lessons"), std::string::npos);

  // A lesson recorded as a plain move (its knobs) raises the family that turns those knobs.
  store::LessonRow faster;
  Move schedule;
  schedule.schedule = KernelSchedule::tma_pingpong;
  faster.move_json = move_json(schedule);
  faster.measured_speedup = 1.6;
  ctx.lessons = {faster};
  std::vector<Proposal> raised = propose(kPlainBf16, ctx, 8, 4);
  EXPECT_EQ(family(raised.front()), "schedule");
}

TEST(SearchProposer, AFamilyRefutedOnThisProblemBecomesExploration) {
  Problem problem = bf16_problem(8192, 8192, 8192);
  problem.name = "this_problem";
  Context ctx;
  ctx.problem = &problem;
  ctx.bottleneck = sol::Bottleneck::compute;
  std::vector<Proposal> before = propose(kPlainBf16, ctx, 8, 4);
  ASSERT_FALSE(before.empty());
  std::string top = family(before.front());
  ASSERT_EQ(before.front().hypothesis.rationale.find("Exploration"), std::string::npos) << before.front().hypothesis.rationale;

  // Measured slower on another problem: evidence that lowers the prediction, but the family stays aimed.
  store::LessonRow elsewhere;
  elsewhere.move_json = nlohmann::json{{"family", top}}.dump();
  elsewhere.measured_speedup = 0.95;
  elsewhere.problem_id = "another_problem";
  ctx.lessons = {elsewhere};
  const Proposal* kept = find_family(propose(kPlainBf16, ctx, 8, 4), top);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->hypothesis.rationale.find("Exploration"), std::string::npos) << kept->hypothesis.rationale;

  // Measured slower on this problem: the causal claim is refuted here, and the family competes as exploration.
  store::LessonRow here = elsewhere;
  here.problem_id = "this_problem";
  ctx.lessons = {here};
  std::vector<Proposal> after = propose(kPlainBf16, ctx, 8, 8);
  const Proposal* refuted = find_family(after, top);
  ASSERT_NE(refuted, nullptr);
  EXPECT_EQ(refuted->hypothesis.rationale.find("Exploration (this problem's lessons measured this family slower)"), 0u)
      << refuted->hypothesis.rationale;
  EXPECT_GT(refuted->hypothesis.risk_perf, before.front().hypothesis.risk_perf);
  EXPECT_NE(family(after.front()), top);
}

TEST(SearchProposer, NoPredictionBeatsTheSpeedOfLight) {
  Problem problem = bf16_problem(512, 512, 16384);
  Context ctx;
  ctx.problem = &problem;
  ctx.gap = 1.3;
  std::vector<Proposal> ps = propose(repo_text("examples/gemm_bf16.ucut"), ctx, 8, 2);
  ASSERT_FALSE(ps.empty());
  for (const Proposal& p : ps) EXPECT_LE(p.hypothesis.predicted_speedup, 1.3);
}

TEST(SearchProposer, LimitsHypothesesAndAttempts) {
  Problem problem = repo_problem("problems/mlp_up_bf16.toml");
  Context ctx;
  ctx.problem = &problem;
  std::vector<Proposal> ps = propose(repo_text("examples/mlp_up.ucut"), ctx, 2, 3);
  EXPECT_EQ(ps.size(), 2u);
  for (const Proposal& p : ps) {
    EXPECT_LE(p.candidates.size(), 3u);
    nlohmann::json j = nlohmann::json::parse(p.hypothesis.move_json);
    EXPECT_EQ(j.at("variants").size(), p.candidates.size());
  }
}

// A pipeline gets one hypothesis per stage it can move (pipeline_proposer_test.cpp has the details); a spec that
// does not lower gets nothing.
TEST(SearchProposer, PipelinesMoveByStageAndBrokenSpecsGetNothing) {
  Context ctx;
  std::vector<Proposal> pipeline = propose(repo_text("examples/mlp_block_pipeline.ucut"), ctx, 4, 4);
  ASSERT_FALSE(pipeline.empty());
  for (const Proposal& p : pipeline) EXPECT_NE(p.hypothesis.move_json.find("\"stage\""), std::string::npos);
  EXPECT_TRUE(propose("kernel k : sm90a gemm(", ctx, 4, 4).empty());
}

TEST(SearchProposer, ShapeClasses) {
  EXPECT_EQ(shape_class(bf16_problem(512, 512, 16384)), "small-grid");
  EXPECT_EQ(shape_class(bf16_problem(8192, 8192, 8192)), "square-large");
  EXPECT_EQ(shape_class(bf16_problem(2048, 2048, 16384)), "large-k");
  EXPECT_EQ(shape_class(bf16_problem(128, 65536, 4096)), "skinny");
  EXPECT_EQ(shape_class(repo_problem("problems/examples/conv2d_bias_relu.toml")), "conv");
}

}  // namespace
}  // namespace ucut::search
