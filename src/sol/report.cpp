// sol/report.cpp — renders SOL reports and the GPU table as readable text and as JSON (tool mode).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "eval/protocol.h"
#include "problem/grouped_layout.h"
#include "sol/roofline.h"

namespace ucut::sol {
namespace {

constexpr const char* kRoles[] = {"steering", "integrity", "kernel"};

std::string time_text(double s) {
  double ms = s * 1e3;
  if (ms >= 0.01) return fmt::format("{:.3f} ms", ms);
  return fmt::format("{:.3f} us", ms * 1e3);
}

/// The convolution's tensors, e.g. "X[8,512,1024,64] W[128,3,3,64] pad 0,0 stride 1,1 dilation 1,1".
/// A convolution in its operator's own terms: forward X W -> Y, transposed X W -> Y (X has the forward output's
/// extents), filter gradient DY X -> DW; with channel groups W has c / groups channels and "groups G" follows.
std::string conv_text(const ConvShape& c) {
  auto spatial = [&](const std::array<int64_t, 3>& v) {
    return fmt::format("{}", fmt::join(std::vector<int64_t>(v.begin() + (3 - c.dims), v.end()), ","));
  };
  std::array<int64_t, 3> out{c.out(0), c.out(1), c.out(2)};
  std::string x = fmt::format("[{},{},{}]", c.n, spatial(c.in), c.c);
  std::string y = fmt::format("[{},{},{}]", c.n, spatial(out), c.k);
  std::string geometry = fmt::format("pad {} stride {} dilation {}", spatial(c.pad), spatial(c.stride),
                                     spatial(c.dilation));
  if (c.groups > 1) geometry += fmt::format(" groups {}", c.groups);
  switch (c.kind) {
    case ConvKind::fprop:
      return fmt::format("X{} W[{},{},{}] {}", x, c.k, spatial(c.filter), c.group_c(), geometry);
    case ConvKind::dgrad:
      return fmt::format("transposed X{} W[{},{},{}] -> Y{} {}", y, c.k, spatial(c.filter), c.group_c(), x, geometry);
    case ConvKind::wgrad: break;
  }
  return fmt::format("DY{} X{} -> DW[{},{},{}] {}", y, x, c.k, spatial(c.filter), c.group_c(), geometry);
}

/// A grouped GEMM: "grouped GEMM, 16 problems (M 77..2048, N 4096, K 2048), total M·N·K 1.074e+11".
std::string grouped_text(const std::vector<GroupProblem>& groups) {
  auto range = [&](int64_t GroupProblem::*extent) {
    int64_t lo = groups.front().*extent, hi = lo;
    for (const GroupProblem& p : groups) lo = std::min(lo, p.*extent), hi = std::max(hi, p.*extent);
    return lo == hi ? fmt::format("{}", lo) : fmt::format("{}..{}", lo, hi);
  };
  return fmt::format("grouped GEMM, {} problem{} (M {}, N {}, K {}), total M·N·K {:.4g}", groups.size(),
                     groups.size() == 1 ? "" : "s", range(&GroupProblem::m), range(&GroupProblem::n),
                     range(&GroupProblem::k), double(group_macs(groups)));
}

/// A convolution's implicit GEMM: one, or one per channel group (each group's share of the output channels).
std::string conv_gemm_text(const GemmShape& s) {
  if (s.conv.groups == 1) return fmt::format("GEMM {}x{}x{}", s.m, s.n, s.k);
  return fmt::format("{} group GEMMs {}x{}x{}", s.conv.groups, s.m, s.n / s.conv.groups, s.k);
}

std::string shape_text(const GemmShape& s) {
  std::string t = s.is_grouped() ? grouped_text(s.groups) : fmt::format("{}x{}x{}", s.m, s.n, s.k);
  if (s.is_conv()) t = conv_text(s.conv) + " = " + conv_gemm_text(s);
  if (s.batch != 1) t += fmt::format(" batch {}", s.batch);
  if (!s.label.empty()) t += fmt::format(" ({})", s.label);
  return t;
}

std::string opt_text(const std::optional<double>& v) { return v ? fmt::format("{:g}", *v) : "-"; }

nlohmann::json pair_json(const BoundPair& p, const char* role) {
  return {{"role", role},
          {"peak", p.peak ? bound_json(*p.peak) : nlohmann::json(nullptr)},
          {"achievable", p.achievable ? bound_json(*p.achievable) : nlohmann::json(nullptr)}};
}

void bound_row(std::string& out, const char* role, std::string_view basis, const std::optional<Bound>& b,
               Precision wanted) {
  if (!b) {
    out += fmt::format("  {:<10} {:<12} {:<6} (this GPU has no {} unit)\n", role, basis, precision_name(wanted),
                       precision_name(wanted));
    return;
  }
  // Datasheet bounds have no floor: their t_SOL_eff is t_SOL, shown as "-" beside it.
  bool floor = b->t_floor_s > 0;
  out += fmt::format(
      "  {:<10} {:<12} {:<6} {:>10} {:>9} {:>11} {:>11} {:>11} {:>11} {:>11}  {}\n", role, basis,
      precision_name(b->precision), b->bandwidth_only() ? "-" : fmt::format("{:.2f}", b->peak_tflops),
      b->bandwidth_only() ? "-" : fmt::format("{:.1f}", b->ridge), time_text(b->t_compute_s),
      time_text(b->t_memory_s), time_text(b->t_sol_s()), floor ? time_text(b->t_floor_s) : "-",
      floor ? time_text(b->t_sol_eff_s()) : "-", b->latency_bound() ? "latency" : enum_name(b->kind()));
}

/// The calibration's latency floor, or why it has none.
std::string floor_text(const Calibration& c) {
  auto us = [](const std::optional<double>& v) { return v ? fmt::format("{:.2f} us", *v) : "not measured"; };
  if (auto floor = c.latency_floor_us())
    return fmt::format(
        "latency floor {:.2f} us (GPU busy: empty kernel {}, cold 4 KiB read {}; MSKB-compatible "
        "launch+sync {})",
        *floor, us(c.launch_floor_us), us(c.cold_read_us), us(c.launch_sync_us));
  return "no latency floor: " + c.floor_note();
}

}  // namespace

nlohmann::json work_json(const WorkCount& w) {
  nlohmann::json tensors = nlohmann::json::array();
  for (const TensorTraffic& t : w.tensors)
    tensors.push_back({{"name", t.name}, {"role", t.role}, {"dtype", dtype_name(t.dtype)},
                       {"elements", t.elements}, {"bytes", t.bytes}});
  return {{"gemm_flops", w.gemm_flops}, {"epilogue_flops", w.epilogue_flops}, {"flops", w.flops()},
          {"bytes", w.bytes},           {"intensity", w.intensity()},        {"tensors", tensors}};
}

nlohmann::json bound_json(const Bound& b) {
  return {{"precision", precision_name(b.precision)},
          {"peak_tflops", b.peak_tflops},
          {"bandwidth_tbs", b.bandwidth_tbs},
          {"ridge_flop_per_byte", b.ridge},
          {"t_compute_ms", b.t_compute_s * 1e3},
          {"t_memory_ms", b.t_memory_s * 1e3},
          {"t_sol_ms", b.t_sol_s() * 1e3},
          {"t_floor_ms", b.t_floor_s * 1e3},
          {"t_sol_eff_ms", b.t_sol_eff_s() * 1e3},
          {"bound", b.kind()},
          {"latency_bound", b.latency_bound()},
          {"bandwidth_only", b.bandwidth_only()}};
}

nlohmann::json sol_json(const SolReport& r) {
  nlohmann::json shapes = nlohmann::json::array();
  for (const ShapeSol& s : r.shapes) {
    nlohmann::json j = work_json(s.work);
    j["shape"] = s.shape;
    if (s.shape.is_grouped()) j["problems"] = s.shape.groups.size();
    j["bounds"] = {{"tf32", pair_json(s.tf32, kRoles[0])},
                   {"fp16", pair_json(s.fp16, kRoles[1])},
                   {"kernel", pair_json(s.kernel, kRoles[2])}};
    shapes.push_back(std::move(j));
  }
  return {{"problem", r.problem},
          {"gpu", {{"key", r.gpu_key}, {"name", r.gpu_name}}},
          {"peak_basis", peak_basis_name(r.basis)},
          {"clock_mhz", r.clock_mhz},
          {"clock_scale", r.clock_scale},
          {"bandwidth_tbs", r.bandwidth_tbs},
          {"bandwidth_scaled", false},
          {"precision", precision_name(r.precision)},
          {"precision_source", r.precision_overridden ? "option" : "problem"},
          {"calibration", r.calibration ? nlohmann::json(*r.calibration) : nlohmann::json(nullptr)},
          {"shapes", shapes}};
}

std::string render_sol_text(const SolReport& r) {
  std::string out = fmt::format("SOL of {} on {} ({})\n", r.problem, r.gpu_key, r.gpu_name);
  if (r.basis == PeakBasis::datasheet)
    out += fmt::format("peaks: datasheet, at boost clock {:g} MHz; DRAM {:g} TB/s\n", r.clock_mhz, r.bandwidth_tbs);
  else
    out += fmt::format("peaks: clock_scaled, datasheet x {:.4f} for an SM clock of {:g} MHz; DRAM {:g} TB/s "
                       "(not scaled)\n",
                       r.clock_scale, r.clock_mhz, r.bandwidth_tbs);
  out += fmt::format("kernel precision: {} ({})\n", precision_name(r.precision),
                     r.precision_overridden ? "given: --precision, or the spec's own operands" : "from the problem's operands");
  if (r.calibration)
    out += fmt::format("calibration: {} on {} (driver {}{}): copy {:g} TB/s; {}\n  {}\n", r.calibration->date,
                       r.calibration->gpu_name, r.calibration->driver,
                       r.calibration->clock_mhz ? fmt::format(", {:g} MHz", *r.calibration->clock_mhz) : "",
                       r.calibration->copy_bandwidth_tbs, floor_text(*r.calibration), r.calibration->method);
  else
    out += "calibration: none (datasheet bounds only)\n";
  for (const ShapeSol& s : r.shapes) {
    const WorkCount& w = s.work;
    out += fmt::format("\nshape {}\n", shape_text(s.shape));
    out += fmt::format("  FLOPs      {:.4g}  (GEMM {:.4g} + epilogue {:.4g})\n", w.flops(), w.gemm_flops,
                       w.epilogue_flops);
    std::string parts;
    for (const TensorTraffic& t : w.tensors)
      parts += fmt::format("{}{} {} {:.4g}", parts.empty() ? "" : ", ", t.name, dtype_name(t.dtype), t.bytes);
    out += fmt::format("  bytes      {:.4g}  ({})\n", w.bytes, parts);
    out += fmt::format("  intensity  {:.1f} FLOP/B\n", w.intensity());
    out += fmt::format("  {:<10} {:<12} {:<6} {:>10} {:>9} {:>11} {:>11} {:>11} {:>11} {:>11}  {}\n", "bound",
                       "basis", "prec", "peak TF/s", "ridge", "t_compute", "t_mem", "t_SOL", "t_floor",
                       "t_SOL_eff", "class");
    std::string_view basis = peak_basis_name(r.basis);
    bound_row(out, kRoles[0], basis, s.tf32.peak, Precision::tf32);
    bound_row(out, kRoles[1], basis, s.fp16.peak, Precision::fp16);
    bound_row(out, kRoles[2], basis, s.kernel.peak, r.precision);
    if (r.calibration) {
      const BoundPair* pairs[] = {&s.tf32, &s.fp16, &s.kernel};
      for (int i = 0; i < 3; ++i)
        if (pairs[i]->achievable) bound_row(out, kRoles[i], "achievable", pairs[i]->achievable, r.precision);
    }
  }
  return out;
}

nlohmann::json gpu_table_json(const GpuTable& t) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const GpuSpec& g : t.gpus) {
    nlohmann::json peaks = nlohmann::json::object();
    for (Precision p : all_precisions())
      if (auto v = g.peak_tflops(p)) peaks[std::string(precision_name(p))] = *v;
    gpus.push_back({{"key", g.key},         {"name", g.name},         {"aliases", g.aliases},
                    {"sm", g.sm},           {"sms", g.sms},           {"l2_mb", g.l2_mb},
                    {"boost_clock_mhz", g.boost_clock_mhz},           {"memory_gb", g.memory_gb},
                    {"bandwidth_tbs", g.bandwidth_tbs},               {"peaks_tflops", peaks},
                    {"sources", g.sources}, {"notes", g.notes}});
  }
  return {{"path", t.path}, {"dense", true}, {"gpus", gpus}};
}

std::string render_gpu_table_text(const GpuTable& t) {
  std::string out = fmt::format("GPU table {} (dense peaks in TFLOP/s, int8 in TOPS, at boost clock)\n", t.path);
  out += fmt::format("{:<10} {:<26} {:>4} {:>4} {:>5} {:>6} {:>5} {:>6} {:>6} {:>7} {:>6} {:>7} {:>7} {:>7} {:>7} "
                     "{:>7}\n",
                     "key", "name", "sm", "SMs", "L2 MB", "MHz", "GB", "TB/s", "fp64", "fp64_tc", "fp32", "tf32",
                     "fp16", "bf16", "fp8", "int8");
  for (const GpuSpec& g : t.gpus)
    out += fmt::format("{:<10} {:<26} {:>4} {:>4} {:>5g} {:>6g} {:>5g} {:>6g} {:>6} {:>7} {:>6} {:>7} {:>7} {:>7} "
                       "{:>7} {:>7}\n",
                       g.key, g.name, g.sm, g.sms, g.l2_mb, g.boost_clock_mhz, g.memory_gb, g.bandwidth_tbs,
                       opt_text(g.fp64), opt_text(g.fp64_tensor), opt_text(g.fp32), opt_text(g.tf32),
                       opt_text(g.fp16), opt_text(g.bf16), opt_text(g.fp8), opt_text(g.int8));
  out += "sources and notes: ucutlass sol --gpus --json\n";
  return out;
}

}  // namespace ucut::sol
