// report/svg.cpp — see svg.h.
#include "report/svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ucut::report {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string short_num(double v, int digits) { return fmt::format("{:.{}g}", v, digits); }

namespace svg {
namespace {

std::string n1(double v) { return fmt::format("{:.1f}", v); }

}  // namespace

std::vector<double> ticks(const Axis& a, int count) {
  std::vector<double> out;
  if (!(a.hi > a.lo)) return out;
  if (a.log) {
    for (double e = std::ceil(std::log10(a.lo) - 1e-9); e <= std::log10(a.hi) + 1e-9; e += 1) out.push_back(std::pow(10, e));
    return out;
  }
  double raw = (a.hi - a.lo) / std::max(count, 1);
  double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  for (double i = std::ceil(a.lo / step - 1e-9); i * step <= a.hi + step * 1e-9; i += 1) out.push_back(i * step);
  return out;
}

Chart::Chart(Axis x, Axis y, std::string title, double width, double height)
    : x_(std::move(x)), y_(std::move(y)), title_(std::move(title)), width_(width), height_(height) {}

double Chart::frac(const Axis& a, double v) const {
  double f = a.log ? (std::log10(v) - std::log10(a.lo)) / (std::log10(a.hi) - std::log10(a.lo))
                   : (v - a.lo) / (a.hi - a.lo);
  return std::clamp(std::isfinite(f) ? f : 0.0, 0.0, 1.0);
}

double Chart::px(double x) const { return left_ + frac(x_, x) * (width_ - left_ - right_); }
double Chart::py(double y) const { return height_ - bottom_ - frac(y_, y) * (height_ - top_ - bottom_); }

void Chart::axes() {
  double x0 = left_, x1 = width_ - right_, y0 = height_ - bottom_, y1 = top_;
  for (double t : ticks(x_)) {
    body_ += fmt::format(R"(<line class="grid" x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", n1(px(t)), n1(y0), n1(y1));
    text_px(px(t), y0 + 16, short_num(t, 6), "tick", "middle");
  }
  for (double t : ticks(y_)) {
    body_ += fmt::format(R"(<line class="grid" x1="{1}" y1="{0}" x2="{2}" y2="{0}"/>)", n1(py(t)), n1(x0), n1(x1));
    text_px(x0 - 6, py(t) + 4, short_num(t, 6), "tick", "end");
  }
  body_ += fmt::format(R"(<rect class="frame" x="{}" y="{}" width="{}" height="{}"/>)", n1(x0), n1(y1), n1(x1 - x0),
                       n1(y0 - y1));
  text_px((x0 + x1) / 2, height_ - 8, x_.label, "label", "middle");
  body_ += fmt::format(R"x(<text class="label" text-anchor="middle" transform="translate(14,{}) rotate(-90)">{}</text>)x",
                       n1((y0 + y1) / 2), escape(y_.label));
  text_px(x0, 18, title_, "title");
}

void Chart::polyline(const std::vector<XY>& points, std::string_view css_class, bool step) {
  std::string coords;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (step && i > 0) coords += fmt::format("{},{} ", n1(px(points[i].x)), n1(py(points[i - 1].y)));
    coords += fmt::format("{},{} ", n1(px(points[i].x)), n1(py(points[i].y)));
  }
  if (!coords.empty()) coords.pop_back();
  body_ += fmt::format(R"(<polyline class="{}" points="{}"/>)", escape(css_class), coords);
}

void Chart::point(XY at, std::string_view css_class, std::string_view tooltip, bool square, double r) {
  std::string title = fmt::format("<title>{}</title>", escape(tooltip));
  if (square)
    body_ += fmt::format(R"(<rect class="{}" x="{}" y="{}" width="{}" height="{}">{}</rect>)", escape(css_class),
                         n1(px(at.x) - r), n1(py(at.y) - r), n1(2 * r), n1(2 * r), title);
  else
    body_ += fmt::format(R"(<circle class="{}" cx="{}" cy="{}" r="{}">{}</circle>)", escape(css_class), n1(px(at.x)),
                         n1(py(at.y)), n1(r), title);
}

void Chart::text(XY at, std::string_view s, std::string_view css_class) { text_px(px(at.x), py(at.y), s, css_class); }

void Chart::text_px(double x, double y, std::string_view s, std::string_view css_class, std::string_view anchor) {
  body_ += fmt::format(R"(<text class="{}" x="{}" y="{}" text-anchor="{}">{}</text>)", escape(css_class), n1(x),
                       n1(y), escape(anchor), escape(s));
}

void Chart::legend(int n, std::string_view s, std::string_view css_class) {
  double x = width_ - right_ - 220, y = top_ + 14 + 16 * n;
  body_ += fmt::format(R"(<line class="{}" x1="{}" y1="{}" x2="{}" y2="{}"/>)", escape(css_class), n1(x), n1(y - 4),
                       n1(x + 18), n1(y - 4));
  text_px(x + 24, y, s, "legend");
}

std::string Chart::str() const {
  return fmt::format(R"(<svg width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
                     R"(role="img" aria-label="{2}">{3}</svg>)",
                     n1(width_), n1(height_), escape(title_), body_) +
         "\n";
}

}  // namespace svg
}  // namespace ucut::report
