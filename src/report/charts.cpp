// report/charts.cpp — see charts.h.
#include "report/charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/sched/policy.h"
#include "report/format.h"
#include "report/svg.h"

namespace ucut::report {
namespace {

std::vector<svg::XY> xy(const std::vector<CurvePoint>& points) {
  std::vector<svg::XY> out;
  for (const CurvePoint& p : points) out.push_back({p.x, p.y});
  return out;
}

std::string empty_chart(const std::string& title, const std::string& why) {
  svg::Chart c({0, 1, false, ""}, {0, 1, false, ""}, title, 640, 120);
  c.text_px(64, 70, why, "note");
  return c.str();
}

double decade_below(double v) { return std::pow(10, std::floor(std::log10(v))); }
double decade_above(double v) { return std::pow(10, std::ceil(std::log10(v))); }

}  // namespace

std::string fast_p_chart(const WorkspaceReport& r) {
  const char* title = "fast_p: share of problems correct and faster than p × baseline";
  if (r.scored == 0 || r.curve_filtered.empty()) return empty_chart(title, "no problem has a baseline");
  svg::Chart c({0, r.curve_filtered.back().x, false, "p (speedup threshold)"}, {0, 1, false, "share of problems"}, title);
  c.axes();
  c.polyline(xy(r.curve_filtered), "line filtered", true);
  c.polyline(xy(r.curve_unfiltered), "line unfiltered", true);
  c.legend(0, "integrity-filtered", "line filtered");
  c.legend(1, "unfiltered (flagged counted)", "line unfiltered");
  for (const FastP& f : r.fast_p)
    c.point({f.p, f.filtered}, "pt filtered",
            fmt::format("fast_{}: {} filtered, {} unfiltered", short_num(f.p), share_text(f.filtered),
                        share_text(f.unfiltered)));
  return c.str();
}

std::string attempt_fast_p_chart(const WorkspaceReport& r) {
  const char* title = "fast_1 within the first k attempts";
  if (r.scored == 0 || r.attempt_fast_p.empty()) return empty_chart(title, "no finished attempt on a problem with a baseline");
  svg::Chart c({0, static_cast<double>(r.budget), false, "attempts per problem (k)"}, {0, 1, false, "share of problems"},
               title);
  c.axes();
  c.polyline(xy(r.attempt_fast_p), "line filtered", true);
  for (const CurvePoint& p : r.attempt_fast_p)
    c.point({p.x, p.y}, "pt filtered", fmt::format("k = {}: {}", short_num(p.x), share_text(p.y)), false, 3);
  return c.str();
}

std::string pareto_chart(const WorkspaceReport& r) {
  const char* title = "policy replay: cost vs geomean speedup";
  if (!r.grid) return empty_chart(title, "no recorded attempts to replay");
  const sched::GridResult& g = *r.grid;
  double max_cost = 1, lo = g.points[0].geomean, hi = lo;
  for (const sched::GridPoint& p : g.points) {
    max_cost = std::max(max_cost, p.cost);
    lo = std::min(lo, p.geomean);
    hi = std::max(hi, p.geomean);
  }
  double pad = std::max((hi - lo) * 0.1, 0.05);
  svg::Chart c({0, max_cost * 1.05, false, "cost (attempts)"}, {lo - pad, hi + pad, false, "geomean speedup"}, title);
  c.axes();
  std::vector<svg::XY> frontier;
  for (std::size_t i : g.frontier) frontier.push_back({g.points[i].cost, g.points[i].geomean});
  c.polyline(frontier, "line frontier");
  auto mark = [&](std::size_t i, const char* css, double radius) {
    const sched::GridPoint& p = g.points[i];
    std::string tip = fmt::format("{}: cost {}, geomean {}", sched::print_policy(p.policy), short_num(p.cost, 4),
                                  times_text(p.geomean));
    c.point({p.cost, p.geomean}, css, tip, i == 0, radius);
  };
  for (std::size_t i = 1; i < g.points.size(); ++i)
    if (!g.best || g.best->point != i) mark(i, "pt policy", 4);
  if (g.best) mark(g.best->point, "pt best", 6);
  mark(0, "pt fixed", 5);  // last: on top of the SOL points it ties with
  c.legend(0, "Pareto frontier", "line frontier");
  c.text_px(72, 46, fmt::format("square: fixed (budget {})", r.budget), "note");
  return c.str();
}

std::string roofline_chart(const WorkspaceReport& r) {
  const char* title = "roofline (log-log)";
  std::vector<const ProblemReport*> placed;
  for (const ProblemReport& p : r.problems)
    if (p.intensity && p.achieved_tflops && *p.intensity > 0 && *p.achieved_tflops > 0) placed.push_back(&p);
  bool roofs = r.gpu && r.gpu->bandwidth_tbs > 0 && r.gpu->tf32_tflops > 0 && r.gpu->fp16_tflops > 0;
  if (placed.empty() && !roofs) return empty_chart(title, "no measured problem and no GPU roofs");
  std::vector<double> xs, ys;
  for (const ProblemReport* p : placed) {
    xs.push_back(*p->intensity);
    ys.push_back(*p->achieved_tflops);
  }
  if (roofs) {
    xs.push_back(r.gpu->tf32_tflops / r.gpu->bandwidth_tbs);
    xs.push_back(r.gpu->fp16_tflops / r.gpu->bandwidth_tbs);
    ys.push_back(r.gpu->fp16_tflops);
  }
  double x_lo = decade_below(*std::min_element(xs.begin(), xs.end()) / 3);
  double x_hi = decade_above(*std::max_element(xs.begin(), xs.end()) * 3);
  double y_lo = decade_below(*std::min_element(ys.begin(), ys.end()) / 3);
  double y_hi = decade_above(*std::max_element(ys.begin(), ys.end()) * 1.5);
  if (roofs) y_lo = std::min(y_lo, decade_below(r.gpu->bandwidth_tbs * x_lo));
  svg::Chart c({x_lo, x_hi, true, "arithmetic intensity (FLOP/byte)"}, {y_lo, y_hi, true, "TFLOP/s"}, title);
  c.axes();
  if (roofs) {
    auto roof = [&](double peak) {
      double ridge = peak / r.gpu->bandwidth_tbs;
      return std::vector<svg::XY>{{x_lo, r.gpu->bandwidth_tbs * x_lo}, {ridge, peak}, {x_hi, peak}};
    };
    c.polyline(roof(r.gpu->fp16_tflops), "line roof-fp16");
    c.polyline(roof(r.gpu->tf32_tflops), "line roof-tf32");
    c.legend(0, fmt::format("FP16 roof {} TFLOP/s", short_num(r.gpu->fp16_tflops, 4)), "line roof-fp16");
    c.legend(1, fmt::format("TF32 roof {} TFLOP/s", short_num(r.gpu->tf32_tflops, 4)), "line roof-tf32");
    c.legend(2, fmt::format("DRAM {} TB/s", short_num(r.gpu->bandwidth_tbs, 3)), "line roof-tf32");
  }
  for (const ProblemReport* p : placed) {
    std::size_t number = static_cast<std::size_t>(p - r.problems.data()) + 1;  // the # of the problem table
    c.point({*p->intensity, *p->achieved_tflops}, "pt problem",
            fmt::format("#{} {}: {} FLOP/byte, {} TFLOP/s, {} of TF32 SOL", number, p->id, short_num(*p->intensity),
                        short_num(*p->achieved_tflops), pct_text(p->sol_pct)));
    c.text({*p->intensity, *p->achieved_tflops}, fmt::format("  {}", number), "pt-label");
  }
  return c.str();
}

}  // namespace ucut::report
