// report/svg.h — a tiny SVG plotting kit for the report page (report/html.h): a chart with linear or log axes,
// ticks and labels, polylines, points with <title> tooltips and text. Output is deterministic: coordinates are
// printed with one decimal, in the order they were drawn.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ucut::report {

/// `text` with &, <, >, " and ' escaped for HTML and SVG.
std::string escape(std::string_view text);

/// A number in its shortest readable form: "0.5", "12", "1e+03" ("%g" with `digits` significant digits).
std::string short_num(double v, int digits = 3);

namespace svg {

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;  // log10 scale; lo and hi must be positive
  std::string label;
};

struct XY {
  double x = 0, y = 0;
};

/// The tick values of `a`: the powers of ten within [lo, hi] on a log axis, else about `count` round steps.
std::vector<double> ticks(const Axis& a, int count = 6);

class Chart {
 public:
  Chart(Axis x, Axis y, std::string title, double width = 640, double height = 360);

  /// Data to pixel coordinates (clamped to the plot area).
  double px(double x) const;
  double py(double y) const;

  /// The frame, the grid lines, the tick labels and the axis labels.
  void axes();
  /// A line through `points` in data coordinates; `step` draws a staircase (holds y until the next x).
  void polyline(const std::vector<XY>& points, std::string_view css_class, bool step = false);
  /// A marker with a tooltip: a circle, or a square when `square`.
  void point(XY at, std::string_view css_class, std::string_view tooltip, bool square = false, double r = 4);
  /// Text at a data position, or at a pixel position with text_px.
  void text(XY at, std::string_view s, std::string_view css_class);
  void text_px(double x, double y, std::string_view s, std::string_view css_class, std::string_view anchor = "start");
  /// A legend entry in the top-right corner (the `n`th from the top).
  void legend(int n, std::string_view s, std::string_view css_class);

  /// The whole <svg> element (inline in HTML5: no namespace attribute, so no URL in the page).
  std::string str() const;

 private:
  double frac(const Axis& a, double v) const;

  Axis x_, y_;
  std::string title_;
  double width_, height_;
  double left_ = 64, right_ = 16, top_ = 28, bottom_ = 44;
  std::string body_;
};

}  // namespace svg
}  // namespace ucut::report
