// engine/search/proposer.cpp — move families, their causal links and predicted speedups, lessons, and the
// assignment of distinct candidates to hypotheses.
#include "engine/search/proposer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "compiler/pipeline.h"
#include "engine/search/model.h"
#include "engine/search/pipeline_proposer.h"

namespace ucut::search {
namespace {

/// A family of moves: the knobs it turns, the bottleneck classes it addresses (empty: any) and its risk.
struct Family {
  std::string id;
  std::vector<std::string> knobs;
  std::vector<sol::Bottleneck> addresses;
  double risk_perf;
};

const std::vector<Family>& families() {
  using B = sol::Bottleneck;
  static const std::vector<Family> table = {
      {"stream_k", {"tile_scheduler", "schedule"}, {}, 1.2},
      {"smaller_tiles", {"tile", "schedule", "warp"}, {}, 1.2},
      {"larger_tiles", {"tile", "schedule", "warp"}, {B::compute, B::unknown}, 1.3},
      {"cluster", {"cluster"}, {B::compute, B::memory_bandwidth, B::unknown}, 1.1},
      {"schedule", {"schedule"}, {B::compute, B::unknown}, 1.2},
      {"stages", {"stages", "tile", "warp"}, {B::memory_latency, B::memory_bandwidth, B::unknown}, 1.1},
      {"occupancy", {"stages", "tile", "warp"}, {B::memory_latency, B::memory_bandwidth, B::unknown}, 1.2},
      {"raster", {"raster"}, {B::memory_bandwidth, B::unknown}, 1.2},
      // 16-bit operands halve the bytes the mainloop loads too: measured faster on memory-bound convolutions
      // (bench/results/optimize_1e-2_bf16/), not only on compute-bound kernels.
      {"precision",
       {"operands", "math", "tile", "conversion", "schedule"},
       {B::compute, B::memory_bandwidth, B::memory_latency, B::unknown},
       1.05},
  };
  return table;
}

/// A tile move, with the warp tile the 2.x table pairs with it and a pingpong schedule where the cooperative one
/// cannot split tile M.
Move tile_move(const Space& space, const KernelConfig& seed, const Triple& tile) {
  Move m;
  m.tile = tile;
  if (space.moves_warp && space.mma_2x)
    if (auto row = sm80_tile(*space.mma_2x, tile[0], tile[1])) m.warp = Triple{row->warp_m, row->warp_n, tile[2]};
  KernelSchedule s = seed.kernel_schedule.value;
  if (tile[0] % 128 != 0 && is_cooperative(s) && !seed.kernel_schedule.span.implied)
    m.schedule = is_cp_async(s) ? KernelSchedule::cp_async_warpspecialized : KernelSchedule::tma_pingpong;
  return m;
}

template <auto Field, class T>
Move with(const T& value) {
  Move m;
  m.*Field = value;
  return m;
}

bool contains(const std::vector<KernelSchedule>& v, KernelSchedule s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::vector<Move> variants(const std::string& family, const Space& space, const KernelConfig& seed) {
  std::vector<Move> out;
  int area = seed.tile.value[0] * seed.tile.value[1];
  if (family == "stream_k") {
    for (const TileSched& t : space.tile_schedulers) {
      if (t.kind != TileScheduler::stream_k && t.kind != TileScheduler::split_k) continue;
      Move m;
      m.tile_scheduler = t;
      if (!is_cooperative(seed.kernel_schedule.value)) {
        for (KernelSchedule s : {KernelSchedule::tma_cooperative, KernelSchedule::cp_async_cooperative})
          if (contains(space.schedules, s) && !m.schedule) m.schedule = s;
        if (seed.tile.value[0] % 128 != 0) m.tile = Triple{128, seed.tile.value[1], seed.tile.value[2]};
      }
      out.push_back(m);
    }
  } else if (family == "smaller_tiles" || family == "larger_tiles") {
    bool smaller = family == "smaller_tiles";
    for (const Triple& t : space.tiles)
      if (smaller ? t[0] * t[1] < area : t[0] * t[1] > area) out.push_back(tile_move(space, seed, t));
  } else if (family == "cluster") {
    for (const Triple& c : space.clusters)
      if (c != seed.cluster.value) out.push_back(with<&Move::cluster>(c));
  } else if (family == "schedule") {
    for (KernelSchedule s : space.schedules)
      if (s != seed.kernel_schedule.value) out.push_back(with<&Move::schedule>(s));
  } else if (family == "stages") {
    // Only deeper pipelines: `auto` (as many as fit) or more stages than the seed runs.
    int running = effective_stages(seed);
    for (int s : space.stages)
      if (s != seed.stages.value && (s == 0 || s > running)) out.push_back(with<&Move::stages>(s));
    for (const Triple& t : space.tiles)
      if (t[0] == seed.tile.value[0] && t[1] == seed.tile.value[1] && t[2] != seed.tile.value[2]) {
        Move m = tile_move(space, seed, t);
        m.stages = 0;
        out.push_back(m);
      }
  } else if (family == "occupancy") {
    // Fewer stages, or a half-height tile at the fewest, so that a second CTA fits beside the first.
    int running = effective_stages(seed), fewest = 0;
    for (int s : space.stages)
      if (s > 0 && s < running) {
        out.push_back(with<&Move::stages>(s));
        if (!fewest || s < fewest) fewest = s;
      }
    for (const Triple& t : space.tiles)
      if (fewest && 2 * t[0] == seed.tile.value[0] && t[1] == seed.tile.value[1] && t[2] == seed.tile.value[2]) {
        Move m = tile_move(space, seed, t);
        m.stages = fewest;
        out.push_back(m);
      }
  } else if (family == "raster") {
    for (const RasterSwizzle& r : space.rasters)
      if (r != RasterSwizzle{seed.raster.value, seed.swizzle.value}) out.push_back(with<&Move::raster>(r));
  } else if (family == "precision") {
    // Only toward cheaper products: tf32x3 → tf32, and f32 operands converted to 16 bits, alone or with the tile K
    // that keeps 128 bytes of K per stage (each is in the space only when the tolerance allows it); converted
    // operands: one of them converted in the mainloop instead of copied, alone or on the pingpong kernel.
    if (seed.math.value == MathMode::tf32x3)
      for (MathMode m : space.maths)
        if (m == MathMode::tf32) out.push_back(with<&Move::math>(m));
    if (dtype_bits(seed.a.dtype.value) == 32)
      for (DType t : space.operand_types) {
        if (dtype_bits(t) != 16) continue;
        Triple wider_k = {seed.tile.value[0], seed.tile.value[1], 2 * seed.tile.value[2]};
        if (std::find(space.tiles.begin(), space.tiles.end(), wider_k) != space.tiles.end()) {
          Move m = tile_move(space, seed, wider_k);
          m.operands = t;
          out.push_back(m);
        }
        out.push_back(with<&Move::operands>(t));
      }
    if (seed.a.narrowed()) {
      bool pingpong = std::find(space.schedules.begin(), space.schedules.end(), KernelSchedule::tma_pingpong) !=
                      space.schedules.end();
      for (Conversion c : space.conversions) {
        if (c == conversion_of(seed)) continue;
        out.push_back(with<&Move::conversion>(c));
        if (c == Conversion::workspace || !pingpong) continue;
        // On the pingpong kernel; and with a tile 64 high and 256 wide: the converted operand's 64 rows (the
        // transposed problem's, for B) convert once per K step for 256 columns of products.
        Move m = with<&Move::conversion>(c);
        m.schedule = KernelSchedule::tma_pingpong;
        if (seed.kernel_schedule.value != KernelSchedule::tma_pingpong) out.push_back(m);
        Triple wide = {64, 256, seed.tile.value[2]};
        if (wide != seed.tile.value && std::find(space.tiles.begin(), space.tiles.end(), wide) != space.tiles.end()) {
          m.tile = wide;
          out.push_back(m);
        }
      }
    }
  }
  return out;
}

bool addresses(const Family& f, sol::Bottleneck bottleneck) {
  return f.addresses.empty() || bottleneck == sol::Bottleneck::unknown ||
         std::find(f.addresses.begin(), f.addresses.end(), bottleneck) != f.addresses.end();
}

/// A lesson is about this family when it names it, or when the move it records turns the family's first knob and
/// no knob outside the family.
bool lesson_matches(const Family& f, const store::LessonRow& lesson) {
  nlohmann::json j = nlohmann::json::parse(lesson.move_json, nullptr, false);
  if (j.is_object() && j.contains("family")) return j["family"] == f.id;
  std::optional<Move> m = parse_move_json(lesson.move_json);
  if (!m || m->empty()) return false;
  std::vector<std::string> knobs = m->knobs();
  if (std::find(knobs.begin(), knobs.end(), f.knobs.front()) == knobs.end()) return false;
  for (const std::string& k : knobs)
    if (std::find(f.knobs.begin(), f.knobs.end(), k) == f.knobs.end()) return false;
  return true;
}

/// The geometric mean of the measured speedups of the lessons about `f` (only those of `*problem` when given), and
/// how many there are.
struct LessonEvidence {
  int n = 0;
  double mean = 1;
};
LessonEvidence lesson_evidence(const Family& f, const std::vector<store::LessonRow>& lessons,
                               const std::string* problem = nullptr) {
  double log_sum = 0;
  LessonEvidence e;
  for (const store::LessonRow& l : lessons)
    if (l.measured_speedup > 0 && (!problem || l.problem_id == *problem) && lesson_matches(f, l)) {
      log_sum += std::log(l.measured_speedup);
      ++e.n;
    }
  if (e.n > 0) e.mean = std::exp(log_sum / e.n);
  return e;
}

/// Lessons are evidence: Ŝ moves toward the geometric mean m of their measured speedups, Ŝ' = Ŝ^(1/(n+1)) ·
/// m^(n/(n+1)) for n matching lessons, so a move measured faster rises and one measured slower falls.
double apply_lessons(const Family& f, const std::vector<store::LessonRow>& lessons, double s, std::string* note) {
  LessonEvidence e = lesson_evidence(f, lessons);
  if (e.n == 0) return s;
  *note = fmt::format(" {} lesson{} measured this family at {:.2f}x.", e.n, e.n == 1 ? "" : "s", e.mean);
  return std::pow(s, 1.0 / (e.n + 1)) * std::pow(e.mean, double(e.n) / (e.n + 1));
}

/// Whether this problem's own lessons measured the family slower than where it started (geometric mean below 1):
/// its causal claim is refuted here, so it is no longer aimed at the bottleneck and competes as exploration.
bool refuted_here(const Family& f, const std::vector<store::LessonRow>& lessons, const std::string& problem) {
  LessonEvidence e = lesson_evidence(f, lessons, &problem);
  return e.n > 0 && e.mean < 1;
}

std::string rationale(const Family& f, const KernelConfig& seed, const KernelConfig& best,
                      const std::vector<GemmExtent>& work, const Context& ctx) {
  auto pct = [](double x) { return int(std::lround(100 * x)); };
  double w0 = wave_efficiency(seed, work, ctx.sm_count), w1 = wave_efficiency(best, work, ctx.sm_count);
  int64_t tiles = output_tiles(seed, work);
  if (f.id == "stream_k")
    return fmt::format("wave quantization: {} output tiles on {} SMs keep {}% of the SMs busy; stream-K / split-K "
                       "divide the K loop so every SM works (modelled wave efficiency {}% -> {}%).",
                       tiles, ctx.sm_count, pct(w0), pct(w0), pct(w1));
  if (f.id == "smaller_tiles" && register_efficiency(best) > register_efficiency(seed))
    return fmt::format("register pressure: the {}x{} warp tile keeps {} accumulators per thread, more than the {} "
                       "math leaves room for (3xTF32 also holds big and small halves of every operand fragment), so the "
                       "kernel spills or runs fewer warps; a {}x{} warp tile keeps {} (modelled mainloop efficiency "
                       "{}% -> {}%).",
                       seed.warp.value[0], seed.warp.value[1], seed.warp.value[0] * seed.warp.value[1] / 32,
                       math_name(seed.math.value), best.warp.value[0], best.warp.value[1],
                       best.warp.value[0] * best.warp.value[1] / 32, pct(register_efficiency(seed)),
                       pct(register_efficiency(best)));
  if (f.id == "smaller_tiles") {
    double p0 = padding_efficiency(seed, work), p1 = padding_efficiency(best, work);
    auto tile = [](const KernelConfig& c) {
      return fmt::format("{}x{}x{}", c.tile.value[0], c.tile.value[1], c.tile.value[2]);
    };
    if (p1 > p0 * 1.1)
      return fmt::format("tile padding: rounding M, N and K (a convolution's K per filter tap) up to whole {} tiles "
                         "leaves {}% of the executed multiply-adds useful; {} tiles fit the problem closer ({}%).",
                         tile(seed), pct(p0), tile(best), pct(p1));
    return fmt::format("wave quantization: {} output tiles on {} SMs keep {}% of the SMs busy; smaller tiles make more "
                       "of them (modelled wave efficiency {}% -> {}%), at some cost in operand reuse.",
                       tiles, ctx.sm_count, pct(w0), pct(w0), pct(w1));
  }
  if (f.id == "larger_tiles")
    return "compute-bound: a larger CTA tile does more MMA per byte loaded into shared memory (tile M·N/(M+N)), "
           "so the tensor cores wait less on operand loads.";
  if (f.id == "cluster")
    return "a thread-block cluster multicasts each operand tile over TMA to the CTAs that share it, cutting L2 "
           "traffic per MMA (2x1 clusters moved a 128x128 GEMM from 0.73 to 0.94 of cuBLAS on our H200).";
  if (f.id == "schedule")
    return "the kernel schedule decides how warpgroups overlap: cooperative splits one tile over two warpgroups, "
           "pingpong alternates two tiles so one's epilogue hides under the other's mainloop.";
  if (f.id == "stages")
    return "memory latency: more mainloop stages (or a deeper K tile) keep more bytes in flight, hiding DRAM "
           "latency behind the MMAs.";
  if (f.id == "occupancy") {
    auto [tm, tn, tk] = seed.tile.value;
    return fmt::format("exposed epilogue: a {}x{}x{} tile runs {} K iterations, then stores {} outputs (about {:.1f} "
                       "iterations' worth); with {} CTA per SM nothing runs beside that epilogue, which adds about "
                       "{}% to every tile. Fewer stages (or a half-height tile) fit a second CTA, whose mainloop runs "
                       "under the first one's epilogue.",
                       tm, tn, tk, k_iterations(seed, work), tm * tn, epilogue_iterations(seed),
                       resident_ctas(seed), pct(1 / overlap_efficiency(seed, work) - 1));
  }
  if (f.id == "raster")
    return fmt::format("memory bandwidth: a raster order with swizzle walks the {} output tiles in blocks that reuse "
                       "A and B rows from L2 instead of re-reading DRAM.",
                       tiles);
  if (seed.a.narrowed() && conversion_of(best) != conversion_of(seed)) {
    Conversion c = conversion_of(best);
    std::string share = ctx.conversion_share > 0 ? fmt::format(" (about {}% of the current kernel's time at DRAM "
                                                               "bandwidth)", pct(ctx.conversion_share))
                                                 : "";
    if (c == Conversion::workspace)
      return fmt::format("mixed-input mainloop: converting an operand in registers slows every K step; copying both "
                         "operands to 16 bits before the run{} lets the mainloop multiply 16-bit tiles only. A "
                         "PRECISION CHANGE, as before.", share);
    return fmt::format("conversion pass: the kernel copies its f32 operands into 16-bit ones before every run{}; "
                       "converting {} in the mainloop instead (each tile in registers after its TMA load) saves writing "
                       "and re-reading its copy, at the cost of a mixed-input mainloop. A PRECISION CHANGE, as before.",
                       share, c == Conversion::mainloop_a ? "A" : "B");
  }
  if (best.a.narrowed())
    return fmt::format("compute-bound f32: {} operands run the tensor cores at twice TF32's rate; the kernel converts A "
                       "and B from f32 before every run (timed with it{}). A PRECISION CHANGE: the problem's tolerance "
                       "admits 16-bit operands, and results are labelled as such.",
                       dtype_name(best.a.dtype.value),
                       ctx.conversion_share > 0
                           ? fmt::format(": about {}% of the current kernel's time at DRAM bandwidth", pct(ctx.conversion_share))
                           : "");
  return "compute-bound f32: tf32 multiplies once per product instead of three times (tf32x3). A PRECISION CHANGE: "
         "the problem's tolerance allows TF32, and results are labelled as such.";
}

struct Scored {
  Candidate candidate;
  double speedup;
  KernelConfig config;
};

}  // namespace

std::vector<Proposal> propose(const std::string& spec, const Context& ctx, int max_hypotheses,
                              int attempts_per_hypothesis) {
  if (compile_spec(SourceFile("candidate.ucut", spec), StopAfter::lower).pipeline)
    return propose_pipeline(spec, ctx, max_hypotheses, attempts_per_hypothesis);
  CandidateBuilder probe(spec, ctx);
  if (!probe.unsupported().empty() || max_hypotheses <= 0) return {};
  const KernelConfig& seed = probe.seed();
  std::vector<GemmExtent> work = workload(ctx.problem, &seed);
  double t_seed = model_time(seed, work, ctx.bottleneck, ctx.sm_count, ctx.conversion_share);
  bool quantized = !work.empty() && wave_efficiency(seed, work, ctx.sm_count) < 0.9;
  bool register_bound = register_efficiency(seed) < 0.9;
  bool padded = padding_efficiency(seed, work) < 0.9;
  bool exposed_epilogue = overlap_efficiency(seed, work) < 0.95;

  struct Ranked {
    Proposal proposal;
    std::vector<Scored> scored;
    bool on_target = true;
  };
  std::vector<Ranked> ranked;
  for (const Family& f : families()) {
    // Families aimed elsewhere than the bottleneck still come, after the aimed ones and at twice the performance
    // risk, so that a search whose aimed moves are spent keeps exploring instead of stopping.
    bool refuted = ctx.problem && refuted_here(f, ctx.lessons, ctx.problem->name);
    bool relieves = f.id == "smaller_tiles" ? quantized || register_bound || padded
                    : f.id == "stream_k"    ? quantized
                    : f.id == "occupancy"   ? exposed_epilogue
                                            : true;
    bool on_target = addresses(f, ctx.bottleneck) && relieves && !(f.id == "larger_tiles" && ctx.gap > 0 && ctx.gap < 1.5) &&
                     !refuted;
    CandidateBuilder builder(spec, ctx);
    Ranked r;
    for (const Move& m : variants(f.id, probe.space(), seed)) {
      KernelConfig cfg;
      if (auto c = builder.build(m, &cfg))
        r.scored.push_back({*c, t_seed / model_time(cfg, work, ctx.bottleneck, ctx.sm_count, ctx.conversion_share), cfg});
    }
    r.proposal.rejected = builder.rejected();
    if (r.scored.empty()) continue;
    std::stable_sort(r.scored.begin(), r.scored.end(),
                     [](const Scored& a, const Scored& b) { return a.speedup > b.speedup; });
    store::HypothesisRow& h = r.proposal.hypothesis;
    h.problem_id = ctx.problem ? ctx.problem->name : "";
    h.bottleneck = ctx.bottleneck;
    std::string lesson_note;
    double s = apply_lessons(f, ctx.lessons, r.scored.front().speedup, &lesson_note);
    // Nothing beats the speed of light: TF32's, or FP16's for operands converted to 16 bits.
    double gap = r.scored.front().config.a.narrowed() ? ctx.gap_fp16 : ctx.gap;
    if (gap >= 1) s = std::min(s, gap);
    h.predicted_speedup = s;
    h.risk_impl = 1.0 + 0.1 * double(f.knobs.size() - 1);
    // A family aimed at the bottleneck whose best variant the model predicts no faster is exploration too.
    bool aimed = on_target && s > 1;
    h.risk_perf = aimed ? f.risk_perf : 2 * f.risk_perf;
    h.rationale = (aimed       ? ""
                   : refuted   ? "Exploration (this problem's lessons measured this family slower): "
                   : on_target ? "Exploration (the model predicts no gain): "
                               : fmt::format("Exploration, not aimed at the {} bottleneck: ",
                                             enum_name(ctx.bottleneck))) +
                  rationale(f, seed, r.scored.front().config, work, ctx) +
                  fmt::format(" Predicted {:.2f}x.", s) + lesson_note;
    r.on_target = aimed;
    ranked.push_back(std::move(r));
    ranked.back().proposal.hypothesis.move_json = nlohmann::json{{"family", f.id}, {"knobs", f.knobs}}.dump();
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.on_target != b.on_target) return a.on_target;
    return a.proposal.hypothesis.predicted_speedup > b.proposal.hypothesis.predicted_speedup;
  });

  std::vector<Proposal> out;
  std::set<std::string> taken;
  for (Ranked& r : ranked) {
    if (int(out.size()) >= max_hypotheses) break;
    nlohmann::json family = nlohmann::json::parse(r.proposal.hypothesis.move_json);
    family["variants"] = nlohmann::json::array();
    for (const Scored& s : r.scored) {
      if (int(r.proposal.candidates.size()) >= attempts_per_hypothesis) break;
      if (!taken.insert(s.candidate.config_hash).second) continue;
      r.proposal.candidates.push_back(s.candidate);
      family["variants"].push_back(nlohmann::json::parse(s.candidate.move_json));
    }
    if (r.proposal.candidates.empty()) continue;
    r.proposal.hypothesis.move_json = family.dump();
    out.push_back(std::move(r.proposal));
  }
  return out;
}

std::string shape_class(const Problem& problem, int sm_count) {
  if (problem.shapes.empty()) return "unknown";
  const GemmShape& s = problem.shapes.front();
  if (s.is_grouped()) return "grouped";
  if (s.is_conv()) return "conv";
  if (s.is_pipeline()) return "pipeline";
  int64_t tiles = ((s.m + 127) / 128) * ((s.n + 127) / 128) * std::max<int64_t>(1, s.batch);
  if (tiles < sm_count) return "small-grid";
  if (s.k >= 4 * std::max(s.m, s.n)) return "large-k";
  int64_t lo = std::min(s.m, s.n), hi = std::max(s.m, s.n);
  if (lo <= 256 && hi >= 8 * lo) return "skinny";
  return s.m * s.n >= int64_t(4096) * 4096 ? "square-large" : "square-small";
}

}  // namespace ucut::search
