// ir/canonical.cpp — canonical JSON, hash and namespace of a KernelConfig, and the IR dump.
#include "ir/canonical.h"

#include <fmt/format.h>

#include "ir/abi_slots.h"
#include "support/sha256.h"

namespace ucut {

nlohmann::json tensor_json(const TensorDecl& t) {
  nlohmann::json dims = nlohmann::json::array();
  for (const Extent& e : t.dims) dims.push_back(e.fixed() ? nlohmann::json(e.size) : nlohmann::json(e.symbol));
  nlohmann::json j = {{"name", t.name.value},
                      {"dtype", dtype_name(t.dtype.value)},
                      {"dims", dims},
                      {"layout", layout_name(t.layout.value)},
                      {"align", t.align.value},
                      {"scaled", t.scaled.value}};
  if (t.padded.value) j["pad"] = true;  // only when set, so configs without padding keep their hashes
  if (t.from) j["from"] = dtype_name(t.from->value);  // likewise
  if (t.converts_in_mainloop.value) j["convert_in"] = "mainloop";  // likewise
  if (t.fold.value) j["fold"] = t.fold.value;        // likewise
  return j;
}

nlohmann::json stage_json(const EpiOp& op) {
  nlohmann::json j = {{"op", epi_info(op.kind).name}};
  EpiCategory c = epi_info(op.kind).category;
  if (!op.params.empty()) j["params"] = op.params;
  if (!op.param_operands.empty()) j["param_operands"] = op.param_operands;
  if (c == EpiCategory::vector) {
    j["axis"] = op.axis.value == Axis::row ? "row" : "col";
    j["dtype"] = dtype_name(op.dtype.value);
  }
  if (c == EpiCategory::cast) j["dtype"] = dtype_name(op.dtype.value);
  if (c == EpiCategory::scalar || c == EpiCategory::source) {
    j["scalar"] = op.scalar_name;
    j["default"] = op.scalar_default;
  }
  if (op.tensor) j["tensor"] = tensor_json(*op.tensor);
  if (op.expr) {
    j["expr"] = op.expr->text;
    j["program"] = expr_program_json(*op.expr);
  }
  return j;
}

nlohmann::json expr_program_json(const EpiExpr& e) {
  nlohmann::json program = nlohmann::json::array();
  for (const ExprOp& o : e.postfix) {
    std::string_view name = expr_program_name(o.code);
    program.push_back(o.code == ExprCode::constant ? nlohmann::json::array({name, o.value})
                      : o.code == ExprCode::load   ? nlohmann::json::array({name, static_cast<int>(o.value)})
                                                   : nlohmann::json::array({name}));
  }
  return program;
}

nlohmann::json canonical_config(const KernelConfig& cfg) {
  nlohmann::json stages = nlohmann::json::array();
  for (const EpiOp& op : cfg.epilogue) stages.push_back(stage_json(op));
  AbiSlots slots = abi_slots(cfg);
  nlohmann::json vec = nlohmann::json::array(), sca = nlohmann::json::array(), aux = nlohmann::json::array();
  for (const auto& v : slots.vectors) vec.push_back({{"stage", v.stage}});
  for (const auto& s : slots.scalars) sca.push_back({{"stage", s.stage}, {"name", s.name}, {"default", s.default_value}});
  for (const auto& a : slots.aux) aux.push_back({{"stage", a.stage}});
  nlohmann::json j = {{"ucut_config", 1},
          {"arch", arch_info(cfg.arch.value).name},
          {"op", op_name(cfg.op.value)},
          {"A", tensor_json(cfg.a)},
          {"B", tensor_json(cfg.b)},
          {"acc", dtype_name(cfg.acc.value)},
          {"compute", dtype_name(cfg.compute.value)},
          {"math", math_name(cfg.math.value)},
          {"tile", cfg.tile.value},
          {"cluster", cfg.cluster.value},
          {"kernel_schedule", kernel_schedule_name(cfg.kernel_schedule.value)},
          {"epilogue_schedule", epilogue_schedule_name(cfg.epilogue_schedule.value)},
          {"stages", cfg.stages.value},
          {"raster", raster_name(cfg.raster.value)},
          {"swizzle", cfg.swizzle.value},
          {"tile_scheduler", tile_scheduler_name(cfg.tile_scheduler.value)},
          {"splits", cfg.splits.value},
          {"fp8_fast_accum", cfg.fp8_fast_accum.value},
          {"epilogue", stages},
          {"slots", {{"vectors", vec}, {"scalars", sca}, {"aux", aux}}}};
  if (cfg.backend() == BackendKind::sm80) j["warp"] = cfg.warp.value;  // only the 2.x kernels have warp tiles
  return j;
}

std::string config_hash(const KernelConfig& cfg) { return sha256_hex(canonical_config(cfg).dump()); }

std::string kernel_namespace(const KernelConfig& cfg) { return "ucut_" + config_hash(cfg).substr(0, 16); }

std::string span_text(const SourceFile& src, Span s) {
  auto [l, c] = src.line_col(s.begin);
  return s.implied ? fmt::format("(default @{}:{})", l, c) : fmt::format("@{}:{}", l, c);
}

std::string tensor_text(const SourceFile& src, const TensorDecl& t) {
  std::string dims;
  for (const Extent& e : t.dims) dims += (dims.empty() ? "" : ",") + (e.fixed() ? std::to_string(e.size) : e.symbol);
  return fmt::format("{}: {}[{}] {} align({}){} {}", t.name.value, dtype_name(t.dtype.value), dims,
                     layout_name(t.layout.value), t.align.value,
                     std::string(t.scaled.value ? " scaled" : "") + (t.padded.value ? " pad" : "") +
                         (t.fold.value ? fmt::format(" fold({})", t.fold.value) : "") +
                         (t.from ? fmt::format(" from({}{})", dtype_name(t.from->value),
                                               t.converts_in_mainloop.value ? ", mainloop" : "")
                                 : ""),
                     span_text(src, t.span));
}

std::string dump_ir(const SourceFile& src, const KernelConfig& cfg) {
  std::string o;
  o += fmt::format("KernelConfig '{}' {}\n", cfg.name.value, span_text(src, cfg.header));
  o += fmt::format("  arch {} {}\n", arch_info(cfg.arch.value).name, span_text(src, cfg.arch.span));
  o += fmt::format("  op {} {}\n", op_name(cfg.op.value), span_text(src, cfg.op.span));
  o += fmt::format("  {}\n  {}\n", tensor_text(src, cfg.a), tensor_text(src, cfg.b));
  o += fmt::format("  acc {} {}\n", dtype_name(cfg.acc.value), span_text(src, cfg.acc.span));
  o += fmt::format("  compute {} {}\n", dtype_name(cfg.compute.value), span_text(src, cfg.compute.span));
  o += fmt::format("  math {} {}\n", math_name(cfg.math.value), span_text(src, cfg.math.span));
  o += fmt::format("  tile {}x{}x{} {}\n", cfg.tile.value[0], cfg.tile.value[1], cfg.tile.value[2],
                   span_text(src, cfg.tile.span));
  if (cfg.backend() == BackendKind::sm80)
    o += fmt::format("  warp {}x{}x{} {}\n", cfg.warp.value[0], cfg.warp.value[1], cfg.warp.value[2],
                     span_text(src, cfg.warp.span));
  o += fmt::format("  cluster {}x{}x{} {}\n", cfg.cluster.value[0], cfg.cluster.value[1],
                   cfg.cluster.value[2], span_text(src, cfg.cluster.span));
  o += fmt::format("  kernel_schedule {} {}\n", kernel_schedule_name(cfg.kernel_schedule.value),
                   span_text(src, cfg.kernel_schedule.span));
  o += fmt::format("  epilogue_schedule {} {}\n", epilogue_schedule_name(cfg.epilogue_schedule.value),
                   span_text(src, cfg.epilogue_schedule.span));
  o += fmt::format("  stages {} {}\n", cfg.stages.value == 0 ? "auto" : std::to_string(cfg.stages.value),
                   span_text(src, cfg.stages.span));
  o += fmt::format("  raster {} swizzle {} {}\n", raster_name(cfg.raster.value), cfg.swizzle.value,
                   span_text(src, cfg.raster.span));
  o += fmt::format("  tile_scheduler {} splits {} {}\n", tile_scheduler_name(cfg.tile_scheduler.value),
                   cfg.splits.value, span_text(src, cfg.tile_scheduler.span));
  o += fmt::format("  fp8_fast_accum {} {}\n", cfg.fp8_fast_accum.value,
                   span_text(src, cfg.fp8_fast_accum.span));
  for (const EpiOp& op : cfg.epilogue) {
    std::string extra = stage_json(op).dump();
    o += fmt::format("  stage {} {} {}\n", epi_info(op.kind).name, extra, span_text(src, op.span));
  }
  return o;
}

}  // namespace ucut
