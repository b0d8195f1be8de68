// suite/report.cpp — see report.h.
#include "suite/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ucut::suite {
namespace {

constexpr sol::Precision kBounds[] = {sol::Precision::fp32, sol::Precision::tf32, sol::Precision::fp16};

std::string shape_text(const Shape& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }

const char* init_name(InputInit i) {
  switch (i) {
    case InputInit::rand: return "rand";
    case InputInit::randn: return "randn";
    case InputInit::rand_triu: return "rand_triu";
    case InputInit::rand_tril: return "rand_tril";
    case InputInit::rand_symmetric: return "rand_symmetric";
  }
  return "rand";
}

nlohmann::json attr_json(const Attr& a) {
  if (a.flag) return *a.flag;
  if (a.text) return *a.text;
  if (a.ints) return *a.ints;
  double v = a.number.value_or(0);
  if (v == static_cast<double>(static_cast<int64_t>(v)) && std::abs(v) < 1e15) return static_cast<int64_t>(v);
  return v;
}

/// The chain as checked: every op with the keys the file gives and the shapes it takes and makes, so a consumer
/// (bench/kernelbench builds the PyTorch module from it) needs no parser or shape rules of its own.
nlohmann::json chain_json(const Checked& c) {
  nlohmann::json inputs = nlohmann::json::array(), ops = nlohmann::json::array();
  for (const Input& in : c.problem.inputs)
    inputs.push_back({{"name", in.name}, {"shape", in.shape}, {"init", init_name(in.init)}});
  Shape x = c.problem.inputs.front().shape;
  for (size_t i = 0; i < c.problem.ops.size(); ++i) {
    const Op& op = c.problem.ops[i];
    nlohmann::json attrs = nlohmann::json::object();
    for (const auto& [key, a] : op.attrs) attrs[key] = attr_json(a);
    nlohmann::json j = {{"op", op_name(op.kind)}, {"attrs", attrs}, {"shape_in", x},
                        {"shape_out", c.analysis.after_op[i]}};
    if (op.save) j["save"] = *op.save;
    ops.push_back(std::move(j));
    x = c.analysis.after_op[i];
  }
  return {{"inputs", inputs}, {"ops", ops}};
}

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
                        {"note", c.problem.note},
                        {"output_shape", c.analysis.output},
                        {"flops", c.analysis.flops},
                        {"min_bytes", c.analysis.min_bytes(c.problem.element_bytes())}};
    for (sol::Precision p : kBounds)
      j["sol_seconds"][std::string(sol::precision_name(p))] = sol_seconds(c, gpu, p);
    if (const auto& kb = c.problem.kernelbench) {
      j["kernelbench"] = {{"level", kb->level}, {"id", kb->id}, {"file", kb->file}};
      if (kb->gflop) j["kernelbench"]["gflop"] = *kb->gflop;
      if (kb->min_bytes) j["kernelbench"]["min_bytes"] = *kb->min_bytes;
      if (kb->eager_ms_h200_audit) j["kernelbench"]["eager_ms_h200_audit"] = *kb->eager_ms_h200_audit;
    }
    j.update(chain_json(c));
    list.push_back(std::move(j));
  }
  return {{"gpu", gpu.key}, {"problems", list}};
}

}  // namespace ucut::suite
