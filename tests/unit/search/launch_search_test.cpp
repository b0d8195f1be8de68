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
  Move m = launch_move({8, 512, 4, GridPolicy::cover});
  EXPECT_EQ(m.knobs(), (std::vector<std::string>{"vector", "block", "items", "grid"}));
  EXPECT_EQ(move_phrase(m), "vector 8, block 512, 4 items, grid auto");
  std::optional<Move> back = parse_move_json(move_json(m));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, m);
}

TEST(LaunchSearch, ApplyMoveWritesTheLaunchIntoTheSpec) {
  std::string error;
  std::optional<std::string> text = apply_move(kReluBf16, launch_move({4, 512, 2, GridPolicy::cover}), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_NE(text->find("  map(input: bf16[N])\n    .with_vector(4)\n    .with_block(512)\n    .with_items(2)\n"
                       "    .with_grid(auto)\n  >> relu"),
            std::string::npos)
      << *text;
  MemOpConfig m = lower_memop(*text);
  EXPECT_EQ(launch_point(m.tune), (LaunchPoint{4, 512, 2, GridPolicy::cover}));
  // A second move replaces the calls in place.
  text = apply_move(*text, launch_move({8, 256, 1, GridPolicy::persistent}), &error);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(launch_point(lower_memop(*text).tune), (LaunchPoint{8, 256, 1, GridPolicy::persistent}));
  EXPECT_EQ(text->find(".with_block(512)"), std::string::npos);
}

TEST(LaunchSearch, CheckRefusesALaunchOutsideTheRules) {
  std::string error;
  std::optional<std::string> text = apply_move(kReluBf16, launch_move({16, 256, 1, GridPolicy::persistent}), &error);
  ASSERT_TRUE(text) << error;
  Verdict v = validate(*text, nullptr);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.rule, "C702");  // 16 bf16 elements are 32 bytes
}

}  // namespace
}  // namespace ucut::search
