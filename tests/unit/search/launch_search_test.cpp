// tests/unit/search/launch_search_test.cpp — engine/search/launch_search.h (a family kernel's launch space, the
// first round, neighbours, the next round) and the family knobs of a Move: printed, parsed back, and written into
// a spec's text by apply_move so that it lowers to those tunables.
#include "engine/search/launch_search.h"

#include <gtest/gtest.h>

#include <set>

#include "compiler/pipeline.h"
#include "engine/search/rewrite.h"

namespace ucut::search {
namespace {

const char* kReluBf16 =
    "kernel RELU_bf16 : sm90a\n"
    "  map(input: bf16[N])\n"
    "  >> relu\n"
    "  >> store(output: bf16[N])\n";

MemOpConfig lower_memop(const std::string& spec) {
  Compilation c = compile_spec(SourceFile("t.ucut", spec), StopAfter::check);
  EXPECT_TRUE(c.ok()) << spec;
  EXPECT_TRUE(c.memop.has_value());
  return *c.memop;
}

TEST(LaunchSearch, SpaceGoesUpToSixteenBytesOfTheWidestTensor) {
  LaunchSpace bf16 = launch_space(lower_memop(kReluBf16));
  EXPECT_EQ(bf16.vectors, (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(bf16.blocks, (std::vector<int>{128, 256, 512, 1024}));
  EXPECT_EQ(bf16.items, (std::vector<int>{1, 2, 4, 8}));
  // An f32 input makes f32 the widest: 4 elements are 16 bytes.
  LaunchSpace mixed = launch_space(lower_memop(
      "kernel k : sm90a\n  map(a: f32[N])\n  >> relu\n  >> store(b: bf16[N])\n"));
  EXPECT_EQ(mixed.vectors, (std::vector<int>{1, 2, 4}));
}

TEST(LaunchSearch, FirstRoundStartsWithTheSpecAndRepeatsNothing) {
  MemOpConfig m = lower_memop(kReluBf16);
  LaunchSpace s = launch_space(m);
  LaunchPoint start = launch_point(m.tune);
  EXPECT_EQ(start.vector, 8);
  std::vector<LaunchPoint> seeds = seed_points(start, s);
  ASSERT_FALSE(seeds.empty());
  EXPECT_EQ(seeds.front(), start);
  EXPECT_EQ(std::set<LaunchPoint>(seeds.begin(), seeds.end()).size(), seeds.size());
  for (const LaunchPoint& p : seeds) EXPECT_TRUE(s.contains(p));
  EXPECT_NE(std::find(seeds.begin(), seeds.end(), LaunchPoint{8, 256, 4, start.grid}), seeds.end());
  EXPECT_NE(std::find(seeds.begin(), seeds.end(), LaunchPoint{8, 256, 1, GridPolicy::cover}), seeds.end());
}

TEST(LaunchSearch, NeighboursMoveOneKnobOneStep) {
  LaunchSpace s = launch_space(lower_memop(kReluBf16));
  LaunchPoint p{4, 256, 1, GridPolicy::persistent};
  std::vector<LaunchPoint> near = neighbors(p, s);
  // vector 2 and 8, block 128 and 512, items 2 (1 is the smallest), the other grid.
  EXPECT_EQ(near.size(), 6u);
  for (const LaunchPoint& n : near) {
    int changed = (n.vector != p.vector) + (n.block != p.block) + (n.items != p.items) + (n.grid != p.grid);
    EXPECT_EQ(changed, 1);
  }
}

TEST(LaunchSearch, NextRoundSkipsWhatWasTriedAndEndsWhenNothingNearIsLeft) {
  LaunchSpace s{{4}, {256}, {1, 2}};
  LaunchPoint best{4, 256, 1, GridPolicy::persistent};
  std::set<LaunchPoint> tried = {best};
  std::vector<LaunchPoint> next = next_points(best, tried, s, 8);
  // items 2, the other grid, and two steps away: items 2 with the other grid.
  EXPECT_EQ(next.size(), 3u);
  for (const LaunchPoint& p : next) tried.insert(p);
  EXPECT_TRUE(next_points(best, tried, s, 8).empty());
  EXPECT_EQ(next_points(best, {best}, s, 1).size(), 1u);  // at most `count`
}

TEST(LaunchSearch, FamilyKnobsPrintAndParseBack) {
  Move m = launch_move({8, 512, 4, GridPolicy::cover}, LaunchSpace{});
  EXPECT_EQ(m.knobs(), (std::vector<std::string>{"vector", "block", "items", "grid"}));
  EXPECT_FALSE(m.rows);
  EXPECT_EQ(move_phrase(m), "vector 8, block 512, 4 items, grid auto");
  m.rows = 8;
  EXPECT_EQ(move_phrase(m), "vector 8, block 512, 4 items, grid auto, 8 rows per block");
  std::optional<Move> back = parse_move_json(move_json(m));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, m);
}

TEST(LaunchSearch, ApplyMoveWritesTheLaunchIntoTheSpec) {
  std::string error;
  std::optional<std::string> text = apply_move(kReluBf16, launch_move({4, 512, 2, GridPolicy::cover}, LaunchSpace{}), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_NE(text->find("  map(input: bf16[N])\n    .with_vector(4)\n    .with_block(512)\n    .with_items(2)\n"
                       "    .with_grid(auto)\n  >> relu"),
            std::string::npos)
      << *text;
  MemOpConfig m = lower_memop(*text);
  EXPECT_EQ(launch_point(m.tune), (LaunchPoint{4, 512, 2, GridPolicy::cover}));
  // A second move replaces the calls in place.
  text = apply_move(*text, launch_move({8, 256, 1, GridPolicy::persistent}, LaunchSpace{}), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(launch_point(lower_memop(*text).tune), (LaunchPoint{8, 256, 1, GridPolicy::persistent}));
  EXPECT_EQ(text->find(".with_block(512)"), std::string::npos);
}

TEST(LaunchSearch, RownormRowsMoveOnlyAlongTheLastExtents) {
  const std::string softmax =
      "kernel softmax : sm90a\n  rownorm(input: f32[N,C], norm = softmax, over = C)\n  >> store(out: f32[N,C])\n";
  MemOpConfig rows = lower_memop(softmax);
  LaunchSpace s = launch_space(rows);
  EXPECT_EQ(s.rows, (std::vector<int>{1, 4, 8, 16, 32}));
  std::vector<LaunchPoint> seeds = seed_points(launch_point(rows.tune), s);
  EXPECT_EQ(seeds.back().rows, 8);  // 256 threads: a warp per row
  std::string error;
  std::optional<std::string> text = apply_move(softmax, launch_move(seeds.back(), s), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_NE(text->find(".with_rows(8)"), std::string::npos) << *text;
  EXPECT_EQ(lower_memop(*text).tune.rows.value, 8);
  // 4 rows of 256 threads are 64 threads each: more than a warp, which check refuses.
  LaunchPoint wide = seeds.front();
  wide.rows = 4;
  text = apply_move(softmax, launch_move(wide, s), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(validate(*text, nullptr).rule, "C707");
  // Columns (over N of [N, C]) and the other families keep one row.
  EXPECT_FALSE(launch_space(lower_memop("kernel b : sm90a\n  rownorm(input: f32[N,C], norm = l2, over = N)\n"
                                        "  >> store(out: f32[N,C])\n"))
                   .moves_rows());
  EXPECT_FALSE(launch_space(lower_memop(kReluBf16)).moves_rows());
  EXPECT_FALSE(launch_move(seeds.front(), launch_space(lower_memop(kReluBf16))).rows);
}

TEST(LaunchSearch, PerAxisReduceRowsMoveFromAuto) {
  const std::string matvec =
      "kernel mv : sm90a\n  reduce(A: f32[M,N], x: f32[N], of = A * x, op = sum, over = N, acc: f32)\n"
      "  >> store(y: f32[M])\n";
  MemOpConfig m = lower_memop(matvec);
  LaunchSpace s = launch_space(m);
  EXPECT_EQ(s.rows, (std::vector<int>{0, 1, 2, 4, 8}));
  LaunchPoint start = launch_point(m.tune);
  EXPECT_EQ(start.rows, 0);
  std::string error;
  std::optional<std::string> text = apply_move(matvec, launch_move(start, s), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_NE(text->find(".with_rows(auto)"), std::string::npos) << *text;
  EXPECT_TRUE(validate(*text, nullptr).ok);
  LaunchPoint two = start;
  two.rows = 2;
  text = apply_move(matvec, launch_move(two, s), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(lower_memop(*text).tune.rows.value, 2);
  EXPECT_EQ(move_phrase(launch_move(start, s)), "vector 4, block 256, 1 item, grid persistent, auto rows per block");
  // A full reduce has no rows to move.
  EXPECT_FALSE(launch_space(lower_memop("kernel d : sm90a\n  reduce(X: f32[N], op = sum)\n  >> store(l: f32[1])\n"))
                   .moves_rows());
}

TEST(LaunchSearch, CheckRefusesALaunchOutsideTheRules) {
  std::string error;
  std::optional<std::string> text = apply_move(kReluBf16, launch_move({16, 256, 1, GridPolicy::persistent}, LaunchSpace{}), &error);
  ASSERT_TRUE(text) << error;
  Verdict v = validate(*text, nullptr);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.rule, "C702");  // 16 bf16 elements are 32 bytes
}

}  // namespace
}  // namespace ucut::search
