// engine/mantis/loop.cpp
#include "engine/mantis/loop.h"

#include <fmt/format.h>

#include <cstdint>
#include <set>

#include "engine/mantis/attempt_summary.h"
#include "engine/mantis/profile_stage.h"
#include "engine/mantis/triage.h"
#include "engine/search/proposer.h"
#include "engine/search/random_search.h"
#include "support/error.h"
#include "support/files.h"

namespace ucut::mantis {

namespace {

/// Nominate for the random and exhaustive baselines: one hypothesis holding their candidates, drawn from the
/// seed spec's space (the same space the proposer moves in), none already tried.
search::Proposal baseline_proposal(Search mode, const std::string& seed_spec, const search::Context& ctx, int n) {
  search::Proposal p;
  search::SearchResult r = mode == Search::random ? search::random_candidates(seed_spec, ctx, n, ctx.seed)
                                                  : search::enumerate_space(seed_spec, ctx, SIZE_MAX);
  for (search::Candidate& c : r.candidates)
    if (!ctx.tried.count(c.config_hash)) p.candidates.push_back(std::move(c));
  p.rejected = r.rejected;
  p.hypothesis.bottleneck = ctx.bottleneck;
  p.hypothesis.move_json = nlohmann::json{{"family", search_name(mode)}, {"knobs", ctx.knobs}}.dump();
  p.hypothesis.rationale =
      mode == Search::random
          ? fmt::format("Random search: {} valid configs drawn uniformly from the space (baseline)", p.candidates.size())
          : fmt::format("Exhaustive search: the {} valid configs of the space not measured yet (baseline)", p.candidates.size());
  return p;
}

}  // namespace

std::string_view search_name(Search s) {
  switch (s) {
    case Search::proposer: return "proposer";
    case Search::random: return "random";
    case Search::exhaustive: return "exhaustive";
  }
  UC_UNREACHABLE() << "Search " << static_cast<int>(s);
}

std::optional<Search> parse_search(std::string_view name) {
  for (Search s : {Search::proposer, Search::random, Search::exhaustive})
    if (name == search_name(s)) return s;
  return std::nullopt;
}

std::string Loop::proposer_name() const {
  if (options_.agent != Agent::none) return "model:" + options_.model.model;
  return options_.search == Search::proposer ? "builtin" : std::string(search_name(options_.search));
}

Loop::Loop(store::Workspace& ws, engine::Executor& executor, int64_t run_id, Options options)
    : ws_(ws), executor_(executor), run_id_(run_id), options_(options) {}

void Loop::stage(const Subject& s, int iteration, store::Stage name, const nlohmann::json& j) {
  store::StageRow row;
  row.run_id = run_id_;
  row.problem_id = s.row.id;
  row.iteration = iteration;
  row.stage = name;
  row.json = j.dump();
  row.created = utc_now();
  ws_.add_stage(row);
}

int Loop::next_iteration(const std::string& problem_id) {
  std::vector<store::AttemptRow> attempts = ws_.attempts(problem_id);
  if (attempts.empty()) return 0;
  int last = 0;
  for (const store::AttemptRow& a : attempts) last = std::max(last, a.iteration);
  // An iteration whose attempts are all final is done; one with a pending attempt is resumed, not repeated.
  for (const store::AttemptRow& a : attempts)
    if (a.iteration == last && a.status == store::AttemptStatus::pending) return last;
  if (options_.agent != Agent::none) return next_model_iteration(problem_id, last);
  return last + 1;
}

/// Measures the claimed attempt `a`, stores the outcome and tells the caller. False: stop the iteration.
bool Loop::measure_into(store::AttemptRow& a, const Subject& s, IterationResult& out, const AttemptCallback& cb) {
  engine::CandidateOutcome o = executor_.measure(a.spec, s.harness);
  if (o.needs_gpu) {
    out.needs_gpu = true;
    out.waiting_build_seconds = o.build_seconds;
    out.note = o.error;
    return false;
  }
  a.run_id = run_id_;
  engine::store_outcome(o, a);
  a.code_hash = engine::spec_code_hash(a.spec);
  ws_.finish_attempt(a);
  ++out.attempts;
  if (cb && !cb(a)) {
    out.stopped = true;
    return false;
  }
  return true;
}

void Loop::requeue_stale(const std::string& problem_id) {
  for (store::AttemptRow& a : ws_.attempts(problem_id)) {
    if (a.status == store::AttemptStatus::pending || a.code_hash.empty()) continue;  // "": recorded before v3
    std::string now = engine::spec_code_hash(a.spec);
    if (now.empty() || now == a.code_hash) continue;
    a.error = fmt::format("measured with emitted code {}, which the spec no longer emits ({} now): measured again",
                          a.code_hash.substr(0, 12), now.substr(0, 12));
    a.status = store::AttemptStatus::pending;
    ws_.finish_attempt(a);
  }
}

bool Loop::has_pending(const std::string& problem_id) {
  for (const store::AttemptRow& a : ws_.attempts(problem_id))
    if (a.status == store::AttemptStatus::pending) return true;
  return false;
}

void Loop::plan_ahead(const Subject& s) {
  if (options_.agent != Agent::none) return;
  int iteration = next_iteration(s.row.id);
  if (iteration == 0 || has_pending(s.row.id)) return;
  if (auto it = plans_.find(s.row.id); it != plans_.end() && it->second.iteration == iteration) return;
  plans_[s.row.id] = make_plan(s, iteration);
}

Loop::Plan Loop::make_plan(const Subject& s, int iteration) {
  if (options_.agent != Agent::none) return make_model_plan(s, iteration);
  // Measure: where the problem stands, and the best attempt's profile (once per attempt).
  Plan plan;
  plan.iteration = iteration;
  std::optional<store::AttemptRow>& best = plan.best;
  best = ws_.best_attempt(s.row.id);
  std::vector<store::AttemptRow> all = ws_.attempts(s.row.id);
  const std::string& start_spec = best ? best->spec : s.seed_spec;
  std::optional<BestProfile> profiled;
  if (options_.profile && best) profiled = profile_best(ws_, executor_, run_id_, s, *best);
  nlohmann::json measured = {{"best", best ? attempt_brief(*best) : nlohmann::json(nullptr)}, {"attempts_so_far", all.size()}};
  if (profiled) measured["profile"] = best_profile_json(*profiled);
  stage(s, iteration, store::Stage::measure, measured);

  // Analyze: the gap to the TF32 bound (steering) and the bottleneck class (the profile's, else the roofline's).
  double& gap = plan.gap;
  gap = options_.sol && best && s.row.sol_tf32_ms > 0 ? *best->time_ms / s.row.sol_tf32_ms : 0;
  nlohmann::json analysis = analyzed_bottleneck(profiled, s.roofline_bottleneck);
  sol::Bottleneck bottleneck = analysis["bottleneck"].get<sol::Bottleneck>();
  analysis["gap"] = gap;
  analysis["sol_tf32_ms"] = s.row.sol_tf32_ms;
  stage(s, iteration, store::Stage::analyze, analysis);

  // Nominate.
  search::Context ctx;
  ctx.problem = &s.harness;
  ctx.bottleneck = bottleneck;
  ctx.gap = gap;
  ctx.gap_fp16 = options_.sol && best && s.row.sol_fp16_ms > 0 ? *best->time_ms / s.row.sol_fp16_ms : 0;
  ctx.conversion_share = best && *best->time_ms > 0 ? s.conversion_ms / *best->time_ms : 0;
  ctx.seed = options_.seed + static_cast<uint64_t>(iteration);
  if (options_.summarize) ctx.lessons = ws_.lessons(s.row.family, s.row.shape_class, s.row.arch, 20);
  ctx.knobs = options_.knobs;
  for (const store::AttemptRow& a : all) ctx.tried.insert(a.config_hash);
  std::vector<search::Proposal>& proposals = plan.proposals;
  if (options_.search == Search::proposer) {
    proposals = search::propose(start_spec, ctx, options_.nominate, options_.attempts);
  } else if (search::Proposal p = baseline_proposal(options_.search, s.seed_spec, ctx, options_.hypotheses * options_.attempts);
             !p.candidates.empty()) {
    proposals.push_back(std::move(p));
  }
  std::vector<store::HypothesisRow> nominated;
  for (search::Proposal& p : proposals) {
    p.hypothesis.problem_id = s.row.id;
    p.hypothesis.run_id = run_id_;
    p.hypothesis.iteration = iteration;
    p.hypothesis.id = ws_.add_hypothesis(p.hypothesis);
    nominated.push_back(p.hypothesis);
  }
  nlohmann::json nominate_json = nlohmann::json::array();
  for (const search::Proposal& p : proposals)
    nominate_json.push_back({{"hypothesis", p.hypothesis.id}, {"move", nlohmann::json::parse(p.hypothesis.move_json, nullptr, false)},
                             {"rationale", p.hypothesis.rationale}, {"predicted_speedup", p.hypothesis.predicted_speedup},
                             {"candidates", p.candidates.size()}});
  stage(s, iteration, store::Stage::nominate, nominate_json);
  if (proposals.empty()) return plan;

  // Triage.
  std::vector<store::HypothesisRow>& ranked = plan.ranked;
  ranked = triage(nominated, gap, options_.triage);
  std::set<int64_t>& chosen = plan.chosen;
  nlohmann::json triage_json = nlohmann::json::array();
  for (store::HypothesisRow& h : ranked) {
    h.status = static_cast<int>(chosen.size()) < options_.hypotheses ? store::HypothesisStatus::chosen
                                                                     : store::HypothesisStatus::dropped;
    if (h.status == store::HypothesisStatus::chosen) chosen.insert(h.id);
    ws_.update_hypothesis(h);
    triage_json.push_back({{"hypothesis", h.id}, {"roi", h.roi}, {"status", h.status}});
  }
  stage(s, iteration, store::Stage::triage,
        {{"ranked", options_.triage}, {"exponent", roi_exponent(gap)}, {"order", triage_json}});

  // Every chosen candidate starts compiling now; Implement measures them in ROI order as their builds finish.
  std::vector<std::string> specs;
  for (const search::Proposal& p : proposals)
    if (chosen.count(p.hypothesis.id))
      for (const search::Candidate& c : p.candidates) specs.push_back(c.spec);
  executor_.prebuild(specs);
  return plan;
}

void Loop::drop_plans() {
  for (auto& [problem, plan] : plans_)
    for (store::HypothesisRow& h : plan.ranked)
      if (plan.chosen.count(h.id)) {
        h.status = store::HypothesisStatus::dropped;
        ws_.update_hypothesis(h);
      }
  plans_.clear();
}

store::LessonRow Loop::lesson(const Subject& s, const store::HypothesisRow& h, std::string text,
                              int64_t run_id) {
  store::LessonRow l;
  l.family = s.row.family;
  l.shape_class = s.row.shape_class;
  l.arch = s.row.arch;
  l.move_json = h.move_json;
  l.expected_speedup = h.predicted_speedup;
  l.measured_speedup = h.measured_speedup.value_or(0);
  l.text = std::move(text);
  l.problem_id = s.row.id;
  l.run_id = run_id;
  return l;
}

IterationResult Loop::resume(const Subject& s, const AttemptCallback& on_attempt) {
  IterationResult out;
  out.iteration = next_iteration(s.row.id);
  // What a kill left pending is measured first, under the iteration it belongs to; so is, once per run, an
  // attempt whose spec emits other code than it was measured with (the emitter changed since).
  if (stale_checked_.insert(s.row.id).second) requeue_stale(s.row.id);
  for (store::AttemptRow& a : ws_.attempts(s.row.id))
    if (a.status == store::AttemptStatus::pending && !measure_into(a, s, out, on_attempt)) return out;
  if (out.iteration == 0) {
    store::AttemptRow seed;
    seed.problem_id = s.row.id;
    seed.run_id = run_id_;
    seed.proposer = "seed";
    seed.spec = s.seed_spec;
    seed.config_hash = engine::spec_config_hash(s.seed_spec);
    seed.created = utc_now();
    seed = ws_.claim_attempt(seed);
    if (seed.status == store::AttemptStatus::pending) measure_into(seed, s, out, on_attempt);
    stage(s, 0, store::Stage::measure, {{"seed", attempt_brief(seed)}});
  }
  return out;
}

IterationResult Loop::step(const Subject& s, const AttemptCallback& on_attempt) {
  IterationResult out = resume(s, on_attempt);
  if (out.iteration == 0 || out.needs_gpu || out.stopped) return out;

  Plan plan;
  if (auto ahead = plans_.find(s.row.id); ahead != plans_.end() && ahead->second.iteration == out.iteration)
    plan = std::move(ahead->second);
  else
    plan = make_plan(s, out.iteration);
  plans_.erase(s.row.id);
  if (!plan.failed.empty()) {
    out.exhausted = true;
    out.note = plan.failed;
    return out;
  }
  if (plan.proposals.empty()) {
    out.exhausted = true;
    out.note = !plan.note.empty()                    ? plan.note
               : options_.search == Search::proposer ? "the proposer has nothing new to try"
                                                     : "the space has nothing new to try";
    return out;
  }
  const std::optional<store::AttemptRow>& best = plan.best;
  const std::vector<search::Proposal>& proposals = plan.proposals;
  std::vector<store::HypothesisRow>& ranked = plan.ranked;
  const std::set<int64_t>& chosen = plan.chosen;

  // Implement: the chosen candidates (compiling since the plan) are measured in ROI order as their builds finish.
  std::map<int64_t, std::vector<store::AttemptRow>> by_hypothesis;
  bool go_on = true;
  size_t claimed = 0;  // candidates claimed so far, in order: the index of their share of the model's tokens
  for (const store::HypothesisRow& h : ranked) {
    if (!chosen.count(h.id) || !go_on) continue;
    const search::Proposal& p = *std::find_if(proposals.begin(), proposals.end(),
                                              [&](const search::Proposal& q) { return q.hypothesis.id == h.id; });
    for (const search::Candidate& c : p.candidates) {
      store::AttemptRow a;
      a.problem_id = s.row.id;
      a.run_id = run_id_;
      a.iteration = out.iteration;
      a.hypothesis_id = h.id;
      a.proposer = proposer_name();
      a.spec = c.spec;
      a.config_hash = c.config_hash;
      a.created = utc_now();
      a = ws_.claim_attempt(a);
      if (claimed < plan.candidate_tokens.size() && a.status == store::AttemptStatus::pending)
        a.tokens = plan.candidate_tokens[claimed];
      ++claimed;
      if (a.status == store::AttemptStatus::pending && !measure_into(a, s, out, on_attempt)) go_on = false;
      by_hypothesis[h.id].push_back(a);
      if (!go_on) break;
    }
  }
  nlohmann::json implement_json = nlohmann::json::array();
  for (const auto& [id, attempts] : by_hypothesis)
    for (const store::AttemptRow& a : attempts) {
      nlohmann::json j = attempt_brief(a);
      j["hypothesis"] = id;
      implement_json.push_back(j);
    }
  stage(s, out.iteration, store::Stage::implement,
        options_.agent == Agent::none
            ? implement_json
            : nlohmann::json{{"attempts", implement_json}, {"model", plan.implement_log}});
  if (out.needs_gpu) return out;
  if (options_.agent != Agent::none) {
    summarize_with_model(s, plan, by_hypothesis, out);
    return out;
  }

  // Summarize: expectation vs outcome, per hypothesis.
  std::optional<double> start = best ? best->time_ms : std::nullopt;
  nlohmann::json summary = nlohmann::json::array();
  for (store::HypothesisRow& h : ranked) {
    if (!chosen.count(h.id)) continue;
    std::optional<double> t = best_time(by_hypothesis[h.id]);
    if (start && t) h.measured_speedup = *start / *t;
    h.status = store::HypothesisStatus::done;
    ws_.update_hypothesis(h);
    summary.push_back({{"hypothesis", h.id}, {"expected", h.predicted_speedup},
                       {"measured", h.measured_speedup ? nlohmann::json(*h.measured_speedup) : nlohmann::json(nullptr)}});
    if (!options_.summarize || !h.measured_speedup) continue;
    ws_.add_lesson(lesson(s, h,
                          fmt::format("{}: expected {:.2f}x, measured {:.2f}x on {} ({})", h.rationale,
                                      h.predicted_speedup, *h.measured_speedup, s.row.id, s.row.shape_class),
                          run_id_));
  }
  stage(s, out.iteration, store::Stage::summarize, summary);
  return out;
}

}  // namespace ucut::mantis
