// suite/report.cpp — see report.h.
#include "suite/report.h"

#include <fmt/format.h>

#include <algorithm>

namespace ucut::suite {
namespace {

constexpr sol::Precision kBounds[] = {sol::Precision::fp32, sol::Precision::tf32, sol::Precision::fp16};

std::string shape_text(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }

}  // namespace

double sol_seconds(const Checked& c, const sol::GpuSpec& gpu, sol::Precision p) {
  double peak = gpu.peak_tflops(p).value_or(0) * 1e12;
  double compute = peak > 0 ? c.analysis.flops / peak : 0;
  double memory = c.analysis.min_bytes(c.problem.element_bytes()) / (gpu.bandwidth_tbs * 1e12);
  return std::max(compute, memory);
}

std::string render_table(const std::vector<Checked>& problems, const sol::GpuSpec& gpu) {
  std::string out = fmt::format("{:<44} {:<15} {:>10} {:>10} {:>11} {:>11} {:>11}  {}\n", "problem", "family",
                                "GFLOP", "min MB", "SOL fp32", "SOL tf32", "SOL fp16", "output / weak check");
  for (const Checked& c : problems) {
    out += fmt::format("{:<44} {:<15} {:>10.3f} {:>10.1f}", c.problem.stem, c.problem.family,
                       c.analysis.flops / 1e9, c.analysis.min_bytes(c.problem.element_bytes()) / 1e6);
    for (sol::Precision p : kBounds) out += fmt::format(" {:>8.1f} us", sol_seconds(c, gpu, p) * 1e6);
    out += fmt::format("  {}{}\n", shape_text(c.analysis.output),
                       c.problem.weak_check.empty() ? "" : fmt::format(" ({})", fmt::join(c.problem.weak_check, ", ")));
  }
  out += fmt::format("{} problems; SOL = max(FLOPs / peak, minimum bytes / {} TB/s) on {} at datasheet peaks\n",
                     problems.size(), gpu.bandwidth_tbs, gpu.name);
  return out;
}

nlohmann::json to_json(const std::vector<Checked>& problems, const sol::GpuSpec& gpu) {
  nlohmann::json list = nlohmann::json::array();
  for (const Checked& c : problems) {
    nlohmann::json j = {{"problem", c.problem.stem},
                        {"path", c.problem.path},
                        {"title", c.problem.title},
                        {"family", c.problem.family},
                        {"precision", c.problem.precision},
                        {"tolerance", c.problem.tolerance},
                        {"weak_check", c.problem.weak_check},
                        {"output_shape", c.analysis.output},
                        {"flops", c.analysis.flops},
                        {"min_bytes", c.analysis.min_bytes(c.problem.element_bytes())}};
    for (sol::Precision p : kBounds)
      j["sol_seconds"][std::string(sol::precision_name(p))] = sol_seconds(c, gpu, p);
    if (c.problem.kernelbench)
      j["kernelbench"] = {{"level", c.problem.kernelbench->level},
                          {"id", c.problem.kernelbench->id},
                          {"file", c.problem.kernelbench->file}};
    list.push_back(std::move(j));
  }
  return {{"gpu", gpu.key}, {"problems", list}};
}

}  // namespace ucut::suite
