// tests/unit/report/svg_test.cpp — the SVG kit (report/svg.h): escaping, ticks on linear and log axes, the
// mapping from data to pixels and a chart's exact text.
#include "report/svg.h"

#include <gtest/gtest.h>

namespace ucut::report {
namespace {

TEST(ReportSvg, EscapesMarkup) {
  EXPECT_EQ(escape(R"(a<b & "c" 'd'>)"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(escape("plain"), "plain");
}

TEST(ReportSvg, Ticks) {
  std::vector<double> linear = svg::ticks({0, 1, false, ""}, 5), expected = {0, 0.2, 0.4, 0.6, 0.8, 1.0};
  ASSERT_EQ(linear.size(), expected.size());
  for (std::size_t i = 0; i < linear.size(); ++i) EXPECT_NEAR(linear[i], expected[i], 1e-12);
  EXPECT_EQ(svg::ticks({1, 14, false, ""}).front(), 2.5);  // 13 / 6 rounds up to steps of 2.5
  EXPECT_EQ(svg::ticks({0.5, 2000, true, ""}), (std::vector<double>{1, 10, 100, 1000}));
  EXPECT_TRUE(svg::ticks({1, 1, false, ""}).empty());
}

TEST(ReportSvg, MapsDataToPixels) {
  // 640 × 360 with margins left 64, right 16, top 28, bottom 44: the plot is x 64..624, y 28..316.
  svg::Chart c({0, 10, false, "x"}, {1, 100, true, "y"}, "t");
  EXPECT_DOUBLE_EQ(c.px(0), 64);
  EXPECT_DOUBLE_EQ(c.px(10), 624);
  EXPECT_DOUBLE_EQ(c.px(5), 344);
  EXPECT_DOUBLE_EQ(c.py(1), 316);
  EXPECT_DOUBLE_EQ(c.py(10), 172);
  EXPECT_DOUBLE_EQ(c.py(1000), 28);  // clamped
}

TEST(ReportSvg, ChartText) {
  svg::Chart c({0, 1, false, "x"}, {0, 1, false, "y"}, "a<b", 100, 100);
  c.polyline({{0, 0}, {1, 1}}, "line", true);
  c.point({0.5, 0.5}, "pt", "tip & more");
  std::string s = c.str();
  EXPECT_EQ(s.rfind(R"(<svg width="100.0" height="100.0" viewBox="0 0 100.0 100.0" role="img" aria-label="a&lt;b">)", 0), 0u);
  EXPECT_NE(s.find(R"(<polyline class="line" points="64.0,56.0 84.0,56.0 84.0,28.0"/>)"), std::string::npos);
  EXPECT_NE(s.find("<title>tip &amp; more</title>"), std::string::npos);
  EXPECT_EQ(s, c.str());
}

}  // namespace
}  // namespace ucut::report
