// tests/unit/problem/input_draw_test.cpp — problem/input_draw.h: the draws' names and text survive a round trip, and
// anything else is refused.
#include "problem/input_draw.h"

#include <gtest/gtest.h>

namespace ucut {
namespace {

TEST(InputDraw, NamesRoundTrip) {
  for (InputDraw d : {InputDraw::signed_mix, InputDraw::rand, InputDraw::randn, InputDraw::param})
    EXPECT_EQ(parse_enum<InputDraw>(enum_name(d)), d) << enum_name(d);
  EXPECT_FALSE(parse_enum<InputDraw>("uniform").has_value());
  EXPECT_FALSE(parse_enum<InputDraw>("").has_value());
}

TEST(InputDraw, DefaultIsSignedEverywhere) {
  InputDraws d;
  EXPECT_TRUE(d.all_signed());
  EXPECT_EQ(d.text(), "signed");
  EXPECT_TRUE(parse_input_draws("signed")->same_as(d));
}

TEST(InputDraw, FrameworkTextRoundTrips) {
  InputDraws d;
  d.a = InputDraw::rand;
  d.b = InputDraw::param;
  d.vectors = InputDraw::param;
  EXPECT_FALSE(d.all_signed());
  EXPECT_EQ(d.text(), "a=rand b=param c=signed vectors=param");
  auto back = parse_input_draws(d.text());
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->same_as(d));
  EXPECT_FALSE(back->same_as(InputDraws{}));
}

TEST(InputDraw, MalformedTextIsRefused) {
  for (const char* bad : {"", "rand", "a=rand b=param c=signed", "a=rand b=param c=signed vectors=param extra",
                          "b=rand a=param c=signed vectors=param", "a=uniform b=param c=signed vectors=param"})
    EXPECT_FALSE(parse_input_draws(bad).has_value()) << bad;
}

}  // namespace
}  // namespace ucut
