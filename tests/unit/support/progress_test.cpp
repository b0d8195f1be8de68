// tests/unit/support/progress_test.cpp — support/progress.h: the status line's text (counts, items in hand,
// elapsed time, ETA, cut to the terminal's width), what a live reporter writes on a fake clock (redrawn in
// place, at most ten times a second, lines printed above it, erased at the end) and that a reporter that is
// not live draws nothing and passes printed lines through.
#include "support/progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ucut {
namespace {

constexpr const char* kErase = "\r\x1b[K";

struct FakeClock {
  double now = 100;
  ProgressClock fn() {
    return [this] { return now; };
  }
};

TEST(ProgressLine, CountsItemElapsedAndEta) {
  EXPECT_EQ(progress_line("building", 3, 12, {"mlp_up.ucut"}, 42, 80),
            "building [3/12] mlp_up.ucut (0:42 elapsed, ETA 2:06)");  // 42 s / 3 x 9 left
  EXPECT_EQ(progress_line("checking", 0, 152, {"L1_001.toml"}, 0.4, 80),
            "checking [0/152] L1_001.toml (0:00 elapsed)");
  EXPECT_EQ(progress_line("measuring", 5, 5, {}, 3725, 80), "measuring [5/5] (1:02:05 elapsed)");
}

TEST(ProgressLine, WithoutATotalThereIsNoCountAndNoEta) {
  EXPECT_EQ(progress_line("timing PyTorch on 3 problems", 0, 0, {}, 75, 80),
            "timing PyTorch on 3 problems (1:15 elapsed)");
}

TEST(ProgressLine, SeveralItemsInHandShowTheFirstAndHowManyMore) {
  EXPECT_EQ(progress_line("building", 1, 9, {"a.ucut", "b.ucut", "c.ucut"}, 10, 80),
            "building [1/9] a.ucut (+2 more) (0:10 elapsed, ETA 1:20)");
}

TEST(ProgressLine, NeverWiderThanTheTerminal) {
  std::string line = progress_line("checking", 1, 2, {std::string(200, 'x')}, 1, 50);
  EXPECT_EQ(line, "checking [1/2] xxxxxx... (0:01 elapsed, ETA 0:01)");
  EXPECT_EQ(line.size(), 49u);  // one column short of the width: the cursor never wraps
  EXPECT_EQ(progress_line("checking", 1, 2, {"an item"}, 1, 30), "checking [1/2] (0:01 elaps...");
  // A multi-byte character is cut whole.
  EXPECT_EQ(progress_line("t", 0, 0, {std::string(18, 'a') + "μμμμμμμμμμ"}, 0, 40),
            "t " + std::string(18, 'a') + "... (0:00 elapsed)");
}

TEST(Progress, ALiveLineIsRedrawnInPlaceAndErasedAtTheEnd) {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress p(out, true, 80, clock.fn());
    p.stage("building", 2);
    clock.now += 1;
    p.start("a.ucut");
    clock.now += 9;
    p.finish("a.ucut");
    clock.now += 1;
    p.start("b.ucut");
    clock.now += 10;
    p.finish("b.ucut");
  }
  EXPECT_EQ(out.str(), std::string(kErase) + "building [0/2] (0:00 elapsed)" +          //
                           kErase + "building [0/2] a.ucut (0:01 elapsed)" +            //
                           kErase + "building [1/2] (0:10 elapsed, ETA 0:10)" +         //
                           kErase + "building [1/2] b.ucut (0:11 elapsed, ETA 0:11)" +  //
                           kErase + "building [2/2] (0:21 elapsed)" + kErase);
}

/// A live reporter on a fake clock, writing into `out`.
class LiveProgress : public ::testing::Test {
 protected:
  std::ostringstream out;
  FakeClock clock;
  Progress p{out, true, 80, clock.fn()};
};

TEST_F(LiveProgress, RedrawsAtMostTenTimesASecondButAlwaysTheLastItem) {
  p.stage("checking", 3);
  p.start("a");
  p.finish("a");
  p.start("b");
  p.finish("b");
  p.start("c");
  p.finish("c");  // the last one is drawn however soon it comes
  p.clear();
  EXPECT_EQ(out.str(), std::string(kErase) + "checking [0/3] (0:00 elapsed)" + kErase +
                           "checking [3/3] (0:00 elapsed)" + kErase);
}

TEST_F(LiveProgress, LinesArePrintedAboveTheStatusLine) {
  p.stage("optimizing", 4);
  p.start("L1_001 it1");
  clock.now += 1;
  p.print("L1_001 it1 #1 verified 0.5 ms");
  EXPECT_EQ(out.str(), std::string(kErase) + "optimizing [0/4] (0:00 elapsed)" + kErase +
                           "L1_001 it1 #1 verified 0.5 ms\n" + kErase +
                           "optimizing [0/4] L1_001 it1 (0:01 elapsed)");
  out.str("");
  clock.now += 1;
  p.count(2);  // two attempts of the turn in hand
  p.drop("L1_001 it1");
  p.set_total(3);  // a problem left early
  clock.now += 1;
  p.count();
  EXPECT_EQ(out.str(), std::string(kErase) + "optimizing [2/4] L1_001 it1 (0:02 elapsed, ETA 0:02)" + kErase +
                           "optimizing [3/3] (0:03 elapsed)");
}

TEST(Progress, NotLiveItDrawsNothingAndPassesLinesThrough) {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress p(out, false, 80, clock.fn(), 0.01);
    p.stage("building", 2);
    p.start("a.ucut");
    p.print("a.ucut: error");
    p.finish("a.ucut");
    p.count();
  }
  EXPECT_EQ(out.str(), "a.ucut: error\n");
}

TEST(Progress, QuietOutputNeverGetsAStatusLine) { EXPECT_FALSE(progress_on_stderr(true)); }

}  // namespace
}  // namespace ucut
