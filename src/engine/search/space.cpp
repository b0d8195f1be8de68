// engine/search/space.cpp — Move printing and parsing, and the per-backend knob domains of a kernel's space.
#include "engine/search/space.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "problem/conv_abi.h"
#include "problem/match.h"
#include "problem/tolerance.h"
#include "support/error.h"

namespace ucut::search {
namespace {

template <class T>
void add_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

std::string tile_scheduler_text(const TileSched& t) {
  if (t.kind == TileScheduler::split_k) return fmt::format("split_k({})", t.splits);
  return std::string(tile_scheduler_name(t.kind));
}

std::optional<TileSched> parse_tile_scheduler(const std::string& s) {
  int splits = 0;
  if (std::sscanf(s.c_str(), "split_k(%d)", &splits) == 1) return TileSched{TileScheduler::split_k, splits};
  for (TileScheduler t : {TileScheduler::default_, TileScheduler::persistent, TileScheduler::stream_k})
    if (s == tile_scheduler_name(t)) return TileSched{t, 1};
  return std::nullopt;
}

template <class E>
std::optional<E> parse_name(const std::string& s, std::initializer_list<E> all, std::string_view (*name)(E)) {
  for (E e : all)
    if (s == name(e)) return e;
  return std::nullopt;
}

std::optional<Triple> parse_triple(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) return std::nullopt;
  Triple t{};
  for (size_t i = 0; i < 3; ++i) {
    if (!j[i].is_number_integer()) return std::nullopt;
    t[i] = j[i].get<int>();
  }
  return t;
}

/// A dense forward convolution whose every shape is pointwise after X's `fold` copy: the persistent GEMM schedules
/// can run it (KernelConfig::conv_as_gemm) beside the implicit-GEMM kernel.
bool runs_as_gemm(const KernelConfig& cfg, const Problem& problem) {
  return cfg.conv() && op_conv_grouping(cfg.op.value) == ConvGrouping::dense &&
         pointwise_after_fold(problem.shapes, cfg.a.fold.value);  // false for all but forward convolutions
}

bool sm90_gemm(const KernelConfig& cfg) {
  return cfg.op.value == OpKind::gemm || cfg.op.value == OpKind::batched_gemm;
}

/// sm90a: CollectiveBuilder tiles around 128 bytes of K per stage, clusters, TMA schedules and tile schedulers.
void sm90_domains(const KernelConfig& cfg, Space& s) {
  int k0 = 1024 / dtype_bits(cfg.a.dtype.value);
  // A convolution's kernel has one consumer warpgroup and is not persistent: tile M 256 only with N up to 64 (its
  // accumulators, 128 per thread, fit the registers), which halves the CTAs (each pays its own prologue) of a
  // convolution with few channels per pixel. Its N may be as narrow as few output channels.
  std::vector<int> ms = {64, 128, 256};
  std::vector<int> ns = cfg.conv() ? std::vector<int>{32, 64, 128} : ms;
  for (int m : ms)
    for (int n : ns)
      for (int k : {k0, 2 * k0, k0 / 2})
        if (!cfg.conv() || m < 256 || n <= 64) s.tiles.push_back({m, n, k});
  s.clusters = {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {2, 2, 1}};
  if (!cfg.conv()) {
    s.schedules = is_cp_async(cfg.kernel_schedule.value)
                      ? std::vector<KernelSchedule>{KernelSchedule::cp_async_cooperative,
                                                    KernelSchedule::cp_async_warpspecialized}
                      : std::vector<KernelSchedule>{KernelSchedule::tma_cooperative, KernelSchedule::tma_pingpong};
  }
  if (sm90_gemm(cfg)) {
    if (cfg.reductions().empty())
      s.tile_schedulers = {{TileScheduler::default_, 1}, {TileScheduler::stream_k, 1}, {TileScheduler::split_k, 2},
                           {TileScheduler::split_k, 4}, {TileScheduler::split_k, 8}};
    for (Raster r : {Raster::heuristic, Raster::along_m, Raster::along_n})
      for (int sw : {1, 2, 4}) s.rasters.push_back({r, sw});
  }
  s.stages = {0, 2, 3, 4, 5};
}

/// The 2.x backend: the tile table's CTA tiles (warp tile follows), stages, swizzle and, for GEMMs, stream-K.
void sm2x_domains(const KernelConfig& cfg, Space& s) {
  if (op_conv_grouping(cfg.op.value) == ConvGrouping::depthwise) {
    for (int m : {16, 64})
      for (int n : {16, 32, 64}) s.tiles.push_back({m, n, cfg.tile.value[2]});
    s.stages = {0, 2, 3, 4};
    return;
  }
  if (s.mma_2x)
    if (auto mma = sm80_mma(cfg))
      for (const Sm80Tile& t : sm80_tiles(*s.mma_2x))
        for (int k : mma->tile_k) s.tiles.push_back({t.tile_m, t.tile_n, k});
  if (!cfg.conv() && !cfg.grouped() && cfg.reductions().empty())
    s.tile_schedulers = {{TileScheduler::default_, 1}, {TileScheduler::stream_k, 1}};
  for (int sw : {1, 2, 4, 8}) s.rasters.push_back({Raster::heuristic, sw});
  if (!sm80_pipelined(cfg)) s.stages = {0, 3, 4, 5};
  if (cfg.a.dtype.value == DType::f32 && cfg.math.value != MathMode::native) s.maths = {MathMode::tf32x3};
}

}  // namespace

std::string_view conversion_name(Conversion c) {
  switch (c) {
    case Conversion::workspace: return "workspace";
    case Conversion::mainloop_a: return "mainloop_a";
    case Conversion::mainloop_b: return "mainloop_b";
  }
  UC_UNREACHABLE() << "Conversion " << static_cast<int>(c);
}

Conversion conversion_of(const KernelConfig& cfg) {
  return cfg.a.converts_in_mainloop.value   ? Conversion::mainloop_a
         : cfg.b.converts_in_mainloop.value ? Conversion::mainloop_b
                                            : Conversion::workspace;
}

bool Move::empty() const { return knobs().empty(); }

std::vector<std::string> Move::knobs() const {
  std::vector<std::string> k;
  if (tile) k.push_back("tile");
  if (warp) k.push_back("warp");
  if (cluster) k.push_back("cluster");
  if (schedule) k.push_back("schedule");
  if (tile_scheduler) k.push_back("tile_scheduler");
  if (raster) k.push_back("raster");
  if (stages) k.push_back("stages");
  if (math) k.push_back("math");
  if (operands) k.push_back("operands");
  if (conversion) k.push_back("conversion");
  if (vector) k.push_back("vector");
  if (block) k.push_back("block");
  if (items) k.push_back("items");
  if (grid) k.push_back("grid");
  return k;
}

std::string move_json(const Move& m) {
  nlohmann::json j = nlohmann::json::object();
  if (m.tile) j["tile"] = *m.tile;
  if (m.warp) j["warp"] = *m.warp;
  if (m.cluster) j["cluster"] = *m.cluster;
  if (m.schedule) j["schedule"] = kernel_schedule_name(*m.schedule);
  if (m.tile_scheduler) j["tile_scheduler"] = tile_scheduler_text(*m.tile_scheduler);
  if (m.raster) {
    j["raster"] = raster_name(m.raster->order);
    j["swizzle"] = m.raster->swizzle;
  }
  if (m.stages) j["stages"] = *m.stages == 0 ? nlohmann::json("auto") : nlohmann::json(*m.stages);
  if (m.math) j["math"] = math_name(*m.math);
  if (m.operands) j["operands"] = dtype_name(*m.operands);
  if (m.conversion) j["conversion"] = conversion_name(*m.conversion);
  if (m.vector) j["vector"] = *m.vector;
  if (m.block) j["block"] = *m.block;
  if (m.items) j["items"] = *m.items;
  if (m.grid) j["grid"] = grid_policy_name(*m.grid);
  return j.dump();
}

std::optional<Move> parse_move_json(const std::string& json) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  Move m;
  auto str = [&](const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; };
  if (j.contains("tile")) m.tile = parse_triple(j["tile"]);
  if (j.contains("warp")) m.warp = parse_triple(j["warp"]);
  if (j.contains("cluster")) m.cluster = parse_triple(j["cluster"]);
  if (j.contains("schedule"))
    m.schedule = parse_name(str("schedule"),
                            {KernelSchedule::auto_, KernelSchedule::tma, KernelSchedule::tma_warpspecialized,
                             KernelSchedule::tma_cooperative, KernelSchedule::tma_pingpong,
                             KernelSchedule::cp_async_warpspecialized, KernelSchedule::cp_async_cooperative,
                             KernelSchedule::multistage},
                            kernel_schedule_name);
  if (j.contains("tile_scheduler")) m.tile_scheduler = parse_tile_scheduler(str("tile_scheduler"));
  if (j.contains("raster"))
    if (auto r = parse_name(str("raster"), {Raster::heuristic, Raster::along_m, Raster::along_n}, raster_name))
      m.raster = RasterSwizzle{*r, j.value("swizzle", 1)};
  if (j.contains("stages")) m.stages = j["stages"].is_number_integer() ? j["stages"].get<int>() : 0;
  if (j.contains("math"))
    m.math = parse_name(str("math"), {MathMode::native, MathMode::tf32, MathMode::tf32x3}, math_name);
  if (j.contains("operands")) m.operands = find_dtype(str("operands"));
  if (j.contains("conversion"))
    m.conversion = parse_name(str("conversion"), {Conversion::workspace, Conversion::mainloop_a, Conversion::mainloop_b},
                              conversion_name);
  auto count = [&](const char* key) {
    return j.contains(key) && j[key].is_number_integer() ? std::optional<int>(j[key].get<int>()) : std::nullopt;
  };
  m.vector = count("vector");
  m.block = count("block");
  m.items = count("items");
  for (GridPolicy g : {GridPolicy::persistent, GridPolicy::cover})
    if (str("grid") == grid_policy_name(g)) m.grid = g;
  return m;
}

std::string move_phrase(const Move& m) {
  std::vector<std::string> parts;
  auto dims = [](const Triple& t) { return fmt::format("{}x{}x{}", t[0], t[1], t[2]); };
  if (m.tile) parts.push_back("tile " + dims(*m.tile));
  if (m.warp) parts.push_back("warp tile " + dims(*m.warp));
  if (m.cluster) parts.push_back("cluster " + dims(*m.cluster));
  if (m.schedule) parts.emplace_back(kernel_schedule_name(*m.schedule));
  if (m.tile_scheduler) {
    const TileSched& t = *m.tile_scheduler;
    parts.push_back(t.kind == TileScheduler::split_k    ? fmt::format("split-K {}", t.splits)
                    : t.kind == TileScheduler::stream_k ? std::string("stream-K")
                                                        : fmt::format("{} tile scheduler", tile_scheduler_name(t.kind)));
  }
  if (m.raster) parts.push_back(fmt::format("raster {} swizzle {}", raster_name(m.raster->order), m.raster->swizzle));
  if (m.stages) parts.push_back(*m.stages == 0 ? std::string("auto stages") : fmt::format("{} stages", *m.stages));
  if (m.math) parts.push_back(fmt::format("math {}", math_name(*m.math)));
  if (m.operands) parts.push_back(fmt::format("{} operands", dtype_name(*m.operands)));
  if (m.conversion)
    parts.push_back(*m.conversion == Conversion::workspace    ? std::string("operands converted in the workspace")
                    : *m.conversion == Conversion::mainloop_a ? std::string("A converted in the mainloop")
                                                              : std::string("B converted in the mainloop"));
  if (m.vector) parts.push_back(fmt::format("vector {}", *m.vector));
  if (m.block) parts.push_back(fmt::format("block {}", *m.block));
  if (m.items) parts.push_back(fmt::format("{} item{}", *m.items, *m.items == 1 ? "" : "s"));
  if (m.grid) parts.push_back(fmt::format("grid {}", grid_policy_name(*m.grid)));
  return parts.empty() ? std::string("no change") : fmt::format("{}", fmt::join(parts, ", "));
}

size_t Space::size() const {
  return tiles.size() * clusters.size() * schedules.size() * tile_schedulers.size() * rasters.size() * stages.size() *
         maths.size() * operand_types.size() * conversions.size();
}

Move Space::point(size_t index) const {
  auto take = [&](const auto& v) {
    const auto& x = v[index % v.size()];
    index /= v.size();
    return x;
  };
  Move m;
  m.conversion = take(conversions);
  m.operands = take(operand_types);
  m.math = take(maths);
  m.stages = take(stages);
  m.raster = take(rasters);
  m.tile_scheduler = take(tile_schedulers);
  m.schedule = take(schedules);
  m.cluster = take(clusters);
  m.tile = take(tiles);
  if (moves_warp && mma_2x)
    if (auto row = sm80_tile(*mma_2x, (*m.tile)[0], (*m.tile)[1]))
      m.warp = Triple{row->warp_m, row->warp_n, (*m.tile)[2]};
  return m;
}

bool Space::contains(const Move& m) const {
  auto in = [](const auto& domain, const auto& value) {
    return !value || std::find(domain.begin(), domain.end(), *value) != domain.end();
  };
  return in(tiles, m.tile) && in(clusters, m.cluster) && in(schedules, m.schedule) &&
         in(tile_schedulers, m.tile_scheduler) && in(rasters, m.raster) && in(stages, m.stages) && in(maths, m.math) &&
         in(operand_types, m.operands) && in(conversions, m.conversion);
}

const std::vector<std::string>& knob_names() {
  static const std::vector<std::string> names = {"tile",  "cluster", "schedule", "tile_scheduler", "raster",
                                                 "stages", "math",   "operands", "conversion"};
  return names;
}

void restrict_space(Space& s, const KernelConfig& cfg, const std::vector<std::string>& knobs) {
  auto moves = [&](const char* knob) { return std::find(knobs.begin(), knobs.end(), knob) != knobs.end(); };
  if (!moves("tile")) s.tiles = {cfg.tile.value};
  if (!moves("cluster")) s.clusters = {cfg.cluster.value};
  if (!moves("schedule")) s.schedules = {cfg.kernel_schedule.value};
  if (!moves("tile_scheduler"))
    s.tile_schedulers = {{cfg.tile_scheduler.value, cfg.tile_scheduler.value == TileScheduler::split_k ? cfg.splits.value : 1}};
  if (!moves("raster")) s.rasters = {{cfg.raster.value, cfg.swizzle.value}};
  if (!moves("stages")) s.stages = {cfg.stages.value};
  if (!moves("math")) s.maths = {cfg.math.value};
  if (!moves("operands")) s.operand_types = {cfg.a.dtype.value};
  if (!moves("conversion")) s.conversions = {conversion_of(cfg)};
}

bool tf32_allowed(const Problem& problem) {
  const KernelConfig& s = problem.semantics;
  if (s.a.dtype.value != DType::f32) return false;
  if (s.math.value == MathMode::tf32) return true;
  Tolerance tf32 = default_tolerance(DType::f32, MathMode::tf32, s.output().dtype.value);
  return problem.tolerance.atol >= tf32.atol && problem.tolerance.rtol >= tf32.rtol;
}

bool half_operands_allowed(const Problem& problem) {
  const KernelConfig& s = problem.semantics;
  if (s.a.dtype.value != DType::f32 || s.b.dtype.value != DType::f32) return false;
  Tolerance half = default_tolerance(DType::bf16, MathMode::native, s.output().dtype.value);
  return problem.tolerance.atol >= half.atol && problem.tolerance.rtol >= half.rtol;
}

bool precision_admitted(const Problem& problem, const KernelConfig& cfg) {
  if (!precision_change(problem, cfg)) return true;
  return narrows_operands(cfg) ? half_operands_allowed(problem) : tf32_allowed(problem);
}

Space space_for(const KernelConfig& cfg, const Problem* problem) {
  Space s;
  s.backend = cfg.backend();
  if (s.backend == BackendKind::sm90) {
    sm90_domains(cfg, s);
    if (problem && runs_as_gemm(cfg, *problem))
      s.schedules = {KernelSchedule::tma_warpspecialized, KernelSchedule::tma_cooperative, KernelSchedule::tma_pingpong};
  } else {
    if (auto mma = sm80_mma(cfg)) s.mma_2x = mma->cls;
    s.moves_warp = !cfg.warp.span.implied && (cfg.warp.span.begin != 0 || cfg.warp.span.end != 0);
    sm2x_domains(cfg, s);
    if (problem && s.maths.size() == 1 && tf32_allowed(*problem)) s.maths.push_back(MathMode::tf32);
  }
  // Every domain holds the spec's own value, so a point may move any subset of the knobs.
  add_unique(s.tiles, cfg.tile.value);
  add_unique(s.clusters, cfg.cluster.value);
  add_unique(s.schedules, cfg.kernel_schedule.value);
  add_unique(s.tile_schedulers, TileSched{cfg.tile_scheduler.value,
                                          cfg.tile_scheduler.value == TileScheduler::split_k ? cfg.splits.value : 1});
  add_unique(s.rasters, RasterSwizzle{cfg.raster.value, cfg.swizzle.value});
  add_unique(s.stages, cfg.stages.value);
  add_unique(s.maths, cfg.math.value);
  // Operand types: f32 operands convert to 16 bits where the tolerance admits it, for GEMMs and the convolutions
  // whose operands the kernel can convert (check's C424); a spec converted already may switch between bf16 and f16.
  bool same_types = cfg.a.dtype.value == cfg.b.dtype.value && cfg.a.caller_dtype() == cfg.b.caller_dtype();
  if (problem && same_types && op_is_pipeline_stage(cfg.op.value) && !cfg.grouped() &&
      cfg.a.caller_dtype() == DType::f32 && half_operands_allowed(*problem))
    s.operand_types = {DType::bf16, DType::f16};
  add_unique(s.operand_types, cfg.a.dtype.value);
  // Conversions: an sm90a GEMM whose f32 operands are (or may become) 16-bit, both K-major, may convert one of them
  // in the mainloop instead of copying it (check's C426 decides which tiles and schedules can).
  bool converts = std::any_of(s.operand_types.begin(), s.operand_types.end(),
                              [](DType t) { return dtype_bits(t) == 16; }) &&
                  cfg.a.caller_dtype() == DType::f32;
  bool k_major = cfg.a.layout.value == Layout::row && cfg.b.layout.value == Layout::col;
  if (s.backend == BackendKind::sm90 && sm90_gemm(cfg) && converts && k_major)
    s.conversions = {Conversion::workspace, Conversion::mainloop_b, Conversion::mainloop_a};
  add_unique(s.conversions, conversion_of(cfg));
  return s;
}

Move relative_move(const Space& space, const KernelConfig& cfg, const Move& point) {
  Move m;
  if (point.tile && *point.tile != cfg.tile.value) {
    m.tile = point.tile;
    if (space.moves_warp) m.warp = point.warp;
    if (cfg.kernel_schedule.span.implied && space.schedules.size() > 1) m.schedule = point.schedule;
  }
  if (point.cluster && *point.cluster != cfg.cluster.value) m.cluster = point.cluster;
  if (point.schedule && *point.schedule != cfg.kernel_schedule.value) m.schedule = point.schedule;
  if (point.tile_scheduler) {
    TileSched cur{cfg.tile_scheduler.value, cfg.tile_scheduler.value == TileScheduler::split_k ? cfg.splits.value : 1};
    if (*point.tile_scheduler != cur) m.tile_scheduler = point.tile_scheduler;
  }
  if (point.raster && *point.raster != RasterSwizzle{cfg.raster.value, cfg.swizzle.value}) m.raster = point.raster;
  if (point.stages && *point.stages != cfg.stages.value) m.stages = point.stages;
  if (point.math && *point.math != cfg.math.value) m.math = point.math;
  if (point.operands && *point.operands != cfg.a.dtype.value) m.operands = point.operands;
  if (point.conversion && *point.conversion != conversion_of(cfg)) m.conversion = point.conversion;
  return m;
}

}  // namespace ucut::search
