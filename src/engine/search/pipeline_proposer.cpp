// engine/search/pipeline_proposer.cpp — see pipeline_proposer.h.
#include "engine/search/pipeline_proposer.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "compiler/pipeline.h"
#include "engine/search/launch_search.h"
#include "engine/search/model.h"
#include "engine/search/rewrite.h"
#include "engine/search/space.h"

namespace ucut::search {
namespace {

/// The knobs a GEMM or convolution stage moves here: its tile (with the warp tile and schedule that follow it) and
/// its mainloop stages. Precision, operand types, conversions, clusters and tile schedulers stay as the spec has them.
bool stage_move(const Move& m) {
  if (m.empty()) return false;
  for (const std::string& k : m.knobs())
    if (k != "tile" && k != "warp" && k != "schedule" && k != "stages") return false;
  return true;
}

/// `cfg` with `m`'s knobs set, for the cost model's ranking (check judges the real candidate).
KernelConfig moved(KernelConfig cfg, const Move& m) {
  if (m.tile) cfg.tile.value = *m.tile;
  if (m.warp) cfg.warp.value = *m.warp;
  if (m.schedule) cfg.kernel_schedule.value = *m.schedule;
  if (m.stages) cfg.stages.value = *m.stages;
  return cfg;
}

/// The problem seen from stage `s`: its shapes are every problem shape's stage `s` (the model's workload).
Problem stage_problem(const Problem& problem, size_t s) {
  Problem p = problem;
  p.pipeline.reset();
  p.shapes.clear();
  for (const GemmShape& shape : problem.shapes)
    if (s < shape.stages.size()) p.shapes.push_back(shape.stages[s]);
  return p;
}

/// One stage's hypothesis and the moves it tries, best first.
struct StageMoves {
  std::string name, op;
  bool family = false;
  std::vector<std::pair<Move, double>> moves;  // with the model's speedup of the stage (1: no model)
};

StageMoves gemm_stage_moves(const PipelineStage& st, size_t s, const Context& ctx) {
  StageMoves out{st.config.name.value, std::string(op_name(st.config.op.value)), false, {}};
  const KernelConfig& cfg = st.config;
  Space space = space_for(cfg, ctx.problem);
  if (!ctx.knobs.empty()) restrict_space(space, cfg, ctx.knobs);
  std::vector<GemmExtent> work;
  if (ctx.problem) {
    Problem p = stage_problem(*ctx.problem, s);
    work = workload(&p, &cfg);
  }
  const double t_seed = work.empty() ? 0 : model_time(cfg, work, ctx.bottleneck, ctx.sm_count);
  std::set<std::string> seen;
  for (size_t i = 0; i < space.size(); ++i) {
    Move m = relative_move(space, cfg, space.point(i));
    if (!stage_move(m) || !seen.insert(move_json(m)).second) continue;
    const double t = work.empty() ? 0 : model_time(moved(cfg, m), work, ctx.bottleneck, ctx.sm_count);
    out.moves.push_back({m, t > 0 && t_seed > 0 ? t_seed / t : 1.0});
  }
  std::stable_sort(out.moves.begin(), out.moves.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

StageMoves family_stage_moves(const PipelineStage& st) {
  const MemOpConfig& m = *st.family;
  StageMoves out{m.name.value, std::string(op_name(m.op.value)), true, {}};
  LaunchSpace space = launch_space(m);
  const LaunchPoint start = launch_point(m.tune);
  for (const LaunchPoint& p : seed_points(start, space))
    if (p != start) out.moves.push_back({launch_move(p, space), 1.0});
  return out;
}

/// Up to `attempts` valid candidates of `sm`, each the pipeline with that stage moved.
Proposal build(const std::string& spec, const StageMoves& sm, const Context& ctx, const std::string& own_hash,
               std::set<std::string>& taken, int attempts) {
  Proposal p;
  nlohmann::json variants = nlohmann::json::array();
  double best = 1.0;
  for (const auto& [move, speedup] : sm.moves) {
    if (int(p.candidates.size()) >= attempts) break;
    std::string error;
    std::optional<std::string> text = apply_move(spec, move, &error, sm.name);
    if (!text) continue;
    Verdict v = validate(*text, ctx.problem);
    if (!v.ok) {
      p.rejected.add(v.rule);
      continue;
    }
    if (v.config_hash == own_hash || ctx.tried.count(v.config_hash) || !taken.insert(v.config_hash).second) continue;
    nlohmann::json mj = nlohmann::json::parse(move_json(move));
    mj["stage"] = sm.name;
    Candidate c{*text, v.config_hash, mj.dump(),
                fmt::format("stage `{}` ({}): {}", sm.name, sm.op, move_json(move)), v.precision_change};
    p.candidates.push_back(std::move(c));
    variants.push_back(mj);
    best = std::max(best, speedup);
  }
  store::HypothesisRow& h = p.hypothesis;
  h.bottleneck = ctx.bottleneck;
  h.move_json = nlohmann::json{{"family", sm.family ? "stage_launch" : "stage_tile"},
                               {"stage", sm.name},
                               {"knobs", sm.family ? nlohmann::json{"vector", "block", "items", "grid", "rows"}
                                                   : nlohmann::json{"tile", "stages"}},
                               {"variants", variants}}
                    .dump();
  h.predicted_speedup = best;
  h.risk_perf = sm.family ? 2 : 1;
  h.rationale =
      sm.family ? fmt::format("Stage `{}` ({}) is a memory-bound kernel of the pipeline: its launch (vector width, "
                              "block, items per thread, grid, rows per CTA) sets the bytes in flight; no cost model "
                              "predicts it, so the first round of launches is measured.",
                              sm.name, sm.op)
                : fmt::format("Stage `{}` ({}) is a GEMM of the pipeline: its tile and mainloop stages set its "
                              "waves, intensity and latency hiding; the model predicts {:.2f}x for the stage itself "
                              "(the pipeline gains its share of that).",
                              sm.name, sm.op, best);
  return p;
}

}  // namespace

std::vector<Proposal> propose_pipeline(const std::string& spec, const Context& ctx, int max_hypotheses,
                                       int attempts_per_hypothesis) {
  if (max_hypotheses <= 0) return {};
  Compilation c = compile_spec(SourceFile("candidate.ucut", spec), StopAfter::check);
  if (!c.ok() || !c.pipeline) return {};
  const std::string own_hash = pipeline_hash(*c.pipeline);  // validate's config_hash of the spec itself
  std::vector<StageMoves> stages;
  for (size_t s = 0; s < c.pipeline->stages.size(); ++s) {
    const PipelineStage& st = c.pipeline->stages[s];
    stages.push_back(st.is_family() ? family_stage_moves(st) : gemm_stage_moves(st, s, ctx));
  }
  // GEMM and convolution stages first, by their best modelled speedup; then family stages in order.
  std::stable_sort(stages.begin(), stages.end(), [](const StageMoves& a, const StageMoves& b) {
    if (a.family != b.family) return !a.family;
    double sa = a.moves.empty() ? 0 : a.moves.front().second, sb = b.moves.empty() ? 0 : b.moves.front().second;
    return !a.family && sa > sb;
  });
  std::vector<Proposal> out;
  std::set<std::string> taken;
  for (const StageMoves& sm : stages) {
    if (int(out.size()) >= max_hypotheses) break;
    Proposal p = build(spec, sm, ctx, own_hash, taken, attempts_per_hypothesis);
    if (!p.candidates.empty()) out.push_back(std::move(p));
  }
  return out;
}

}  // namespace ucut::search
