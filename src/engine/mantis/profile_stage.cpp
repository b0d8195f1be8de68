// engine/mantis/profile_stage.cpp — see profile_stage.h.
#include "engine/mantis/profile_stage.h"

namespace ucut::mantis {
namespace {

using nlohmann::json;

std::optional<BestProfile> from_json(const json& j) {
  if (!j.is_object() || !j.contains("config_hash") || !j.contains("outcome")) return std::nullopt;
  const json& o = j["outcome"];
  BestProfile p;
  p.attempt = j.value("attempt", int64_t{0});
  p.config_hash = j.value("config_hash", "");
  p.run_id = j.value("run", int64_t{0});
  p.outcome.counters = o.value("counters", false);
  p.outcome.bottleneck = o.value("bottleneck", sol::Bottleneck::unknown);
  p.outcome.reason = o.value("reason", "");
  p.outcome.seconds = o.value("seconds", 0.0);
  p.outcome.report = o.value("report", json(nullptr));
  return p;
}

/// The latest profile of `config_hash` stored in a measure stage of the problem, in any run.
std::optional<BestProfile> stored_profile(store::Workspace& ws, const std::string& problem_id,
                                          const std::string& config_hash) {
  std::optional<BestProfile> latest;
  for (const store::RunRow& run : ws.runs())
    for (const store::StageRow& st : ws.stages(problem_id, run.id)) {
      if (st.stage != store::Stage::measure) continue;
      json j = json::parse(st.json, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("profile")) continue;
      if (auto p = from_json(j["profile"]); p && p->config_hash == config_hash) latest = p;
    }
  return latest;
}

}  // namespace

json best_profile_json(const BestProfile& p) {
  const engine::ProfileOutcome& o = p.outcome;
  return {{"attempt", p.attempt},
          {"config_hash", p.config_hash},
          {"run", p.run_id},
          {"reused", p.reused},
          {"outcome",
           {{"counters", o.counters},
            {"bottleneck", o.bottleneck},
            {"reason", o.reason},
            {"seconds", o.seconds},
            {"report", o.report}}}};
}

BestProfile profile_best(store::Workspace& ws, engine::Executor& executor, int64_t run_id, const Subject& s,
                         store::AttemptRow& best) {
  if (auto earlier = stored_profile(ws, s.row.id, best.config_hash);
      earlier && (earlier->outcome.counters || earlier->run_id == run_id)) {
    earlier->reused = true;
    return *earlier;
  }
  BestProfile p;
  p.attempt = best.id;
  p.config_hash = best.config_hash;
  p.run_id = run_id;
  p.outcome = executor.profile(best.spec, s.harness, best.time_ms);
  best.profile_seconds += p.outcome.seconds;
  best.gpu_seconds += p.outcome.seconds;
  ws.finish_attempt(best);
  return p;
}

json analyzed_bottleneck(const std::optional<BestProfile>& p, sol::Bottleneck roofline_bottleneck) {
  if (p && p->outcome.counters)
    return {{"bottleneck", p->outcome.bottleneck}, {"bottleneck_source", sol::BottleneckSource::ncu}};
  json j = {{"bottleneck", roofline_bottleneck}, {"bottleneck_source", sol::BottleneckSource::roofline}};
  if (p) j["profile_degraded"] = p->outcome.reason;
  return j;
}

}  // namespace ucut::mantis
