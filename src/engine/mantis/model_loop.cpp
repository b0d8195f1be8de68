// engine/mantis/model_loop.cpp — the Loop's iteration planned by a model (loop.h, Options::agent): each
// phase's slots from the workspace as of the iteration's start, its answer stored with its stage, Implement's
// rounds of checker feedback, Summarize's lessons, and each attempt's share of the iteration's tokens.
#include <fmt/format.h>

#include <algorithm>

#include "engine/mantis/attempt_summary.h"
#include "engine/mantis/briefings.h"
#include "engine/mantis/loop.h"
#include "engine/mantis/model_phases.h"
#include "engine/mantis/profile_stage.h"
#include "engine/mantis/triage.h"
#include "support/error.h"

namespace ucut::mantis {

namespace {

using nlohmann::json;

constexpr size_t kLessonsShown = 20;  // as many as the built-in proposer reads

/// The i-th of n even shares of `total`: total / n, one more for each of the first total % n.
int64_t share(int64_t total, int64_t n, int64_t i) { return total / n + (i < total % n ? 1 : 0); }

/// Each attempt's tokens by the rule of loop.h ("Tokens"): `hypothesis_of` names each attempt's hypothesis,
/// in claim order.
std::vector<int64_t> attempt_tokens(const std::vector<int64_t>& hypothesis_of,
                                    const std::map<int64_t, int64_t>& implement, int64_t shared) {
  std::map<int64_t, int64_t> count;
  for (int64_t h : hypothesis_of) ++count[h];
  for (const auto& [h, tokens] : implement)
    if (!count.count(h)) shared += tokens;
  std::vector<int64_t> out;
  std::map<int64_t, int64_t> seen;
  const auto n = static_cast<int64_t>(hypothesis_of.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t h = hypothesis_of[static_cast<size_t>(i)];
    auto own = implement.find(h);
    out.push_back(share(own == implement.end() ? 0 : own->second, count[h], seen[h]++) + share(shared, n, i));
  }
  return out;
}

/// The problem's stages in every run, in the order they were stored.
std::vector<store::StageRow> all_stages(store::Workspace& ws, const std::string& problem_id) {
  std::vector<store::StageRow> out;
  for (const store::RunRow& run : ws.runs())
    for (store::StageRow& st : ws.stages(problem_id, run.id)) out.push_back(std::move(st));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

json stage_json(const store::StageRow& st) { return json::parse(st.json, nullptr, false); }

/// How a model's iteration began, as its first measure stage recorded it.
struct IterationStart {
  int64_t call_run = 0;      // the run its calls are keyed with
  int64_t lessons_upto = 0;  // the newest lesson it may see
};

std::optional<IterationStart> recorded_start(const std::vector<store::StageRow>& stages, int iteration) {
  for (const store::StageRow& st : stages) {
    if (st.iteration != iteration || st.stage != store::Stage::measure) continue;
    json j = stage_json(st);
    if (j.is_object() && j.contains("call_run"))
      return IterationStart{j["call_run"].get<int64_t>(), j.value("lessons_upto", int64_t{0})};
  }
  return std::nullopt;
}

std::string hypothesis_text(int index, const store::HypothesisRow& h) {
  json move = json::parse(h.move_json, nullptr, false);
  return fmt::format(
      "hypothesis {}: {} (causal link: {}); predicted speedup {:.2f}x, R_impl {:.2f}, R_perf {:.2f}", index,
      move.is_object() ? move.value("change", "") : "", h.rationale, h.predicted_speedup, h.risk_impl,
      h.risk_perf);
}

std::string attempt_verdict(const store::AttemptRow& a) {
  std::string v = fmt::format("#{} {}", a.id, enum_name(a.status));
  if (a.time_ms) v += fmt::format(" {:.4g} ms", *a.time_ms);
  if (a.status == store::AttemptStatus::measured && !a.correct) v += ", wrong result";
  if (a.flagged) v += ", flagged";
  if (!a.error.empty()) v += ": " + a.error.substr(0, a.error.find('\n'));
  return v;
}

}  // namespace

Loop::Plan Loop::make_model_plan(const Subject& s, int iteration) {
  UC_ASSERT(options_.model.ledger) << "a model's iteration needs Options::model.ledger";
  engine::ModelLedger& ledger = *options_.model.ledger;
  const int repairs = options_.model.repairs;
  Plan plan;
  plan.iteration = iteration;

  // The state as of the iteration's start: the attempts of earlier iterations, the lessons stored before it
  // began (a resumed iteration reads the bound its first measure stage recorded).
  std::vector<store::AttemptRow> before;
  for (store::AttemptRow& a : ws_.attempts(s.row.id))
    if (a.iteration < iteration) before.push_back(std::move(a));
  plan.best = best_of(before);
  std::vector<store::LessonRow> lessons;
  if (options_.summarize) lessons = ws_.lessons(s.row.family, s.row.shape_class, s.row.arch, SIZE_MAX);
  std::optional<IterationStart> start = recorded_start(all_stages(ws_, s.row.id), iteration);
  if (!start) {
    start = IterationStart{run_id_, 0};
    for (const store::LessonRow& l : lessons) start->lessons_upto = std::max(start->lessons_upto, l.id);
  }
  std::erase_if(lessons, [&](const store::LessonRow& l) { return l.id > start->lessons_upto; });
  if (lessons.size() > kLessonsShown) lessons.resize(kLessonsShown);
  plan.call_run = start->call_run;
  stage(s, iteration, store::Stage::measure,
        {{"best", plan.best ? attempt_brief(*plan.best) : json(nullptr)},
         {"attempts_so_far", before.size()},
         {"call_run", plan.call_run},
         {"lessons_upto", start->lessons_upto}});

  const std::string problem = problem_text(s);
  const std::string& start_spec = plan.best ? plan.best->spec : s.seed_spec;
  const std::string best = best_text(plan.best, start_spec, s.row.sol_tf32_ms);
  auto call = [&](const char* phase) {
    return PhaseCall{ledger, {plan.call_run, s.row.id, iteration, phase}, repairs};
  };
  auto fail = [&](store::Stage phase, json j, const std::string& error) {
    plan.failed =
        fmt::format("{} iteration {}: the {} phase failed: {}", s.row.id, iteration, enum_name(phase), error);
    j["error"] = plan.failed;
    stage(s, iteration, phase, j);
    return std::move(plan);
  };

  // Measure: the model decides whether the best attempt is profiled.
  PhaseAnswer<MeasureDecision> measure = ask_measure(
      call("measure"), {problem, history_text(before), best, options_.profile && plan.best.has_value()});
  plan.shared_tokens += measure.tokens;
  if (!measure.value) return fail(store::Stage::measure, json::object(), measure.error);
  std::optional<BestProfile> profiled;
  if (measure.value->profile && options_.profile && plan.best)
    profiled = profile_best(ws_, executor_, run_id_, s, *plan.best);
  json measured = {{"model", measure.json}};
  if (profiled) measured["profile"] = best_profile_json(*profiled);
  stage(s, iteration, store::Stage::measure, measured);

  // Analyze: the bottleneck, from the SOL briefing and the profile view.
  plan.gap = options_.sol && plan.best && s.row.sol_tf32_ms > 0 ? *plan.best->time_ms / s.row.sol_tf32_ms : 0;
  PhaseAnswer<Analysis> analysis =
      ask_analyze(call("analyze"), {problem, sol_briefing(s, options_.model.gpu, plan.best, options_.sol),
                                    profile_text(profiled, options_.model.profile_view), best});
  plan.shared_tokens += analysis.tokens;
  // The class the counters or the roofline give stands until the model's answer replaces it (and stays beside
  // it).
  json measured_class = analyzed_bottleneck(profiled, s.roofline_bottleneck);
  json analyzed = measured_class;
  analyzed["gap"] = plan.gap;
  analyzed["sol_tf32_ms"] = s.row.sol_tf32_ms;
  if (!analysis.value) return fail(store::Stage::analyze, analyzed, analysis.error);
  analyzed["measured"] = measured_class;
  analyzed["bottleneck"] = analysis.value->bottleneck;
  analyzed["bottleneck_source"] = sol::BottleneckSource::model;
  analyzed["model"] = analysis.json;
  stage(s, iteration, store::Stage::analyze, analyzed);

  // Nominate: a resumed plan updates the hypotheses its first try stored instead of adding them again.
  PhaseAnswer<std::vector<ModelHypothesis>> nominated = ask_nominate(
      call("nominate"), {problem, analysis.json.dump(2), best, lessons_text(lessons), options_.nominate});
  plan.shared_tokens += nominated.tokens;
  if (!nominated.value) return fail(store::Stage::nominate, json::object(), nominated.error);
  std::vector<store::HypothesisRow> earlier;
  for (store::HypothesisRow& h : ws_.hypotheses(s.row.id))
    if (h.iteration == iteration && h.run_id == plan.call_run) earlier.push_back(std::move(h));
  bool reuse = earlier.size() == nominated.value->size();
  std::vector<store::HypothesisRow> rows;
  json nominate_json = json::array();
  for (size_t i = 0; i < nominated.value->size(); ++i) {
    const ModelHypothesis& m = (*nominated.value)[i];
    store::HypothesisRow h;
    h.problem_id = s.row.id;
    h.run_id = plan.call_run;
    h.iteration = iteration;
    h.bottleneck = analysis.value->bottleneck;
    h.move_json = json{{"change", m.change}, {"causal_link", m.causal_link}}.dump();
    h.rationale = m.causal_link;
    h.predicted_speedup = m.predicted_speedup;
    h.risk_impl = m.risk_impl;
    h.risk_perf = m.risk_perf;
    if (reuse) {
      h.id = earlier[i].id;
      ws_.update_hypothesis(h);
    } else {
      h.id = ws_.add_hypothesis(h);
    }
    plan.index[h.id] = static_cast<int>(i);
    plan.proposals.push_back({h, {}, {}});
    rows.push_back(h);
    nominate_json.push_back({{"hypothesis", h.id},
                             {"index", i},
                             {"move", json::parse(h.move_json)},
                             {"rationale", h.rationale},
                             {"predicted_speedup", h.predicted_speedup},
                             {"risk_impl", h.risk_impl},
                             {"risk_perf", h.risk_perf}});
  }
  stage(s, iteration, store::Stage::nominate, nominate_json);

  // Triage: μCUTLASS's ROI ranking, then the model's choice (the first `hypotheses` it keeps).
  std::vector<store::HypothesisRow> ranked = triage(rows, plan.gap, options_.triage);
  json triage_json = {{"ranked", options_.triage}, {"exponent", roi_exponent(plan.gap)}};
  std::vector<int> keep;
  if (options_.triage) {
    std::string listed;
    for (const store::HypothesisRow& h : ranked)
      listed += fmt::format("- {}; ROI {:.3g}\n", hypothesis_text(plan.index[h.id], h), h.roi);
    PhaseAnswer<TriageChoice> choice =
        ask_triage(call("triage"), {problem, plan.gap > 0 ? fmt::format("{:.2f}", plan.gap) : "unknown",
                                    listed, options_.hypotheses, static_cast<int>(rows.size())});
    plan.shared_tokens += choice.tokens;
    if (!choice.value) return fail(store::Stage::triage, triage_json, choice.error);
    keep = choice.value->keep;
    triage_json["model"] = choice.json;
  } else {
    for (int i = 0; i < static_cast<int>(rows.size()); ++i)
      keep.push_back(i);  // the ablation: nomination order
  }
  if (static_cast<int>(keep.size()) > options_.hypotheses)
    keep.resize(static_cast<size_t>(options_.hypotheses));
  // The kept ones in the model's order, then the others in ROI order: the order Implement claims them in.
  for (int i : keep)
    plan.ranked.push_back(*std::find_if(
        ranked.begin(), ranked.end(), [&](const store::HypothesisRow& h) { return plan.index[h.id] == i; }));
  for (const store::HypothesisRow& h : ranked)
    if (std::find(keep.begin(), keep.end(), plan.index[h.id]) == keep.end()) plan.ranked.push_back(h);
  json order = json::array();
  for (store::HypothesisRow& h : plan.ranked) {
    bool kept = plan.chosen.size() < keep.size();
    h.status = kept ? store::HypothesisStatus::chosen : store::HypothesisStatus::dropped;
    if (kept) plan.chosen.insert(h.id);
    ws_.update_hypothesis(h);
    order.push_back(
        {{"hypothesis", h.id}, {"index", plan.index[h.id]}, {"roi", h.roi}, {"status", h.status}});
  }
  triage_json["keep"] = keep;
  triage_json["order"] = order;
  stage(s, iteration, store::Stage::triage, triage_json);

  // Implement: specs per kept hypothesis, checked; the candidates compile from now on.
  implement_with_model(s, plan, before);
  if (!plan.failed.empty()) return plan;
  std::vector<int64_t> hypothesis_of;
  std::vector<std::string> specs;
  for (const store::HypothesisRow& h : plan.ranked)
    for (const search::Proposal& p : plan.proposals)
      if (p.hypothesis.id == h.id && plan.chosen.count(h.id))
        for (const search::Candidate& c : p.candidates) {
          hypothesis_of.push_back(h.id);
          specs.push_back(c.spec);
        }
  if (specs.empty()) {
    plan.note = fmt::format("iteration {}: none of the model's specs is new and checks clean", iteration);
    for (store::HypothesisRow& h : plan.ranked)
      if (plan.chosen.count(h.id)) {
        h.status = store::HypothesisStatus::done;
        ws_.update_hypothesis(h);
      }
    stage(s, iteration, store::Stage::summarize, {{"outcomes", json::array()}, {"note", plan.note}});
    plan.proposals.clear();
    return plan;
  }
  plan.candidate_tokens = attempt_tokens(hypothesis_of, plan.implement_tokens, plan.shared_tokens);
  executor_.prebuild(specs);
  return plan;
}

void Loop::implement_with_model(const Subject& s, Plan& plan, const std::vector<store::AttemptRow>& before) {
  std::set<std::string> tried, taken;  // measured before the iteration; candidates of this iteration
  for (const store::AttemptRow& a : before) tried.insert(a.config_hash);
  const std::string system = dsl_system_prompt(s.row.arch);
  const std::string problem = problem_text(s);
  const std::string& best_spec = plan.best ? plan.best->spec : s.seed_spec;
  const int repairs = options_.model.repairs;
  int seq = 0;  // the Implement calls of all hypotheses share one call site
  for (const store::HypothesisRow& h : plan.ranked) {
    if (!plan.chosen.count(h.id)) continue;
    search::Proposal& p = *std::find_if(plan.proposals.begin(), plan.proposals.end(),
                                        [&](const search::Proposal& q) { return q.hypothesis.id == h.id; });
    const int index = plan.index.at(h.id);
    std::string feedback = "none yet";
    json rounds = json::array();
    for (int round = 0; round <= repairs; ++round) {
      PhaseAnswer<Implementation> answer = ask_implement(
          {*options_.model.ledger, {plan.call_run, s.row.id, plan.iteration, "implement"}, repairs, seq},
          {system, problem, hypothesis_text(index, h), best_spec, feedback,
           options_.attempts - static_cast<int>(p.candidates.size())});
      seq = answer.next_seq;
      plan.implement_tokens[h.id] += answer.tokens;
      if (!answer.value) {
        plan.failed = fmt::format("{} iteration {}: the implement phase failed for hypothesis {}: {}",
                                  s.row.id, plan.iteration, index, answer.error);
        plan.implement_log.push_back({{"hypothesis", h.id}, {"index", index}, {"rounds", rounds}});
        stage(s, plan.iteration, store::Stage::implement,
              {{"model", plan.implement_log}, {"error", plan.failed}});
        return;
      }
      std::string verdicts;
      json specs = json::array();
      for (size_t i = 0; i < answer.value->specs.size(); ++i) {
        const std::string& text = answer.value->specs[i];
        std::string diagnostics = check_diagnostics(text);
        std::string hash = diagnostics.empty() ? engine::spec_config_hash(text) : "";
        std::string verdict;  // empty: it becomes a candidate
        if (!diagnostics.empty())
          verdict = "does not check:\n" + diagnostics;
        else if (hash.empty())
          verdict = "checks but cannot be emitted";
        else if (tried.count(hash))
          verdict = fmt::format("config {} was measured already", hash.substr(0, 12));
        else if (taken.count(hash))
          verdict = fmt::format("config {} repeats another spec of this iteration", hash.substr(0, 12));
        else if (static_cast<int>(p.candidates.size()) >= options_.attempts)
          verdict = "more specs than asked for: not run";
        if (verdict.empty()) {
          taken.insert(hash);
          p.candidates.push_back({text, hash, h.move_json, "", false});
        } else {
          verdicts += fmt::format("spec {}: {}\n", i + 1, verdict);
        }
        specs.push_back({{"config_hash", hash}, {"verdict", verdict.empty() ? "candidate" : verdict}});
      }
      rounds.push_back({{"notes", answer.value->notes}, {"specs", specs}});
      if (verdicts.empty() || static_cast<int>(p.candidates.size()) >= options_.attempts) break;
      feedback =
          "Your previous specs for this hypothesis, as the checker and the workspace saw them (the others "
          "are being built and run):\n" +
          verdicts;
    }
    plan.implement_log.push_back(
        {{"hypothesis", h.id}, {"index", index}, {"rounds", rounds}, {"candidates", p.candidates.size()}});
  }
}

void Loop::summarize_with_model(const Subject& s, Plan& plan,
                                const std::map<int64_t, std::vector<store::AttemptRow>>& by_hypothesis,
                                IterationResult& out) {
  std::optional<double> start = plan.best ? plan.best->time_ms : std::nullopt;
  std::vector<int64_t> hypothesis_of;
  std::vector<store::AttemptRow> claimed;
  std::string outcomes_text;
  std::set<int> listed;
  json outcomes = json::array();
  for (store::HypothesisRow& h : plan.ranked) {
    if (!plan.chosen.count(h.id)) continue;
    auto found = by_hypothesis.find(h.id);
    const std::vector<store::AttemptRow> mine =
        found == by_hypothesis.end() ? std::vector<store::AttemptRow>{} : found->second;
    for (const store::AttemptRow& a : mine) {
      hypothesis_of.push_back(h.id);
      claimed.push_back(a);
    }
    std::optional<double> t = best_time(mine);
    if (start && t) h.measured_speedup = *start / *t;
    h.status = store::HypothesisStatus::done;
    ws_.update_hypothesis(h);
    const int index = plan.index.at(h.id);
    listed.insert(index);
    std::vector<std::string> verdicts;
    for (const store::AttemptRow& a : mine) verdicts.push_back(attempt_verdict(a));
    outcomes_text += fmt::format(
        "- {}\n  measured: {}; attempts: {}\n", hypothesis_text(index, h),
        h.measured_speedup
            ? fmt::format("{:.2f}x (its best {:.4g} ms against {:.4g} ms at the iteration's start)",
                          *h.measured_speedup, *t, *start)
            : "no speedup (no verified attempt, or none before the iteration to compare with)",
        verdicts.empty() ? "none measured" : fmt::format("{}", fmt::join(verdicts, "; ")));
    outcomes.push_back({{"hypothesis", h.id},
                        {"index", index},
                        {"expected", h.predicted_speedup},
                        {"measured", h.measured_speedup ? json(*h.measured_speedup) : json(nullptr)}});
  }
  json summary = {{"outcomes", outcomes}};
  int64_t summarize_tokens = 0;
  if (options_.summarize) {
    PhaseAnswer<std::vector<ModelLesson>> answer =
        ask_summarize({*options_.model.ledger,
                       {plan.call_run, s.row.id, plan.iteration, "summarize"},
                       options_.model.repairs},
                      {problem_text(s), outcomes_text, listed});
    summarize_tokens = answer.tokens;
    if (!answer.value) {
      out.exhausted = true;
      out.note = fmt::format("{} iteration {}: the summarize phase failed: {}", s.row.id, plan.iteration,
                             answer.error);
      summary["error"] = out.note;
    } else {
      summary["model"] = answer.json;
      std::vector<store::LessonRow> stored =
          ws_.lessons(s.row.family, s.row.shape_class, s.row.arch, SIZE_MAX);
      for (const ModelLesson& m : *answer.value) {
        const store::HypothesisRow& h = *std::find_if(
            plan.ranked.begin(), plan.ranked.end(),
            [&](const auto& r) { return plan.chosen.count(r.id) && plan.index.at(r.id) == m.hypothesis; });
        if (!h.measured_speedup) continue;  // a lesson's numbers come from a measurement
        bool known = std::any_of(stored.begin(), stored.end(), [&](const store::LessonRow& l) {
          return l.problem_id == s.row.id && l.run_id == plan.call_run && l.move_json == h.move_json;
        });
        if (known) continue;  // stored by the try a kill interrupted
        ws_.add_lesson(lesson(s, h, m.text, plan.call_run));
      }
    }
  }
  // Every attempt's final share, Summarize's call included (loop.h, "Tokens").
  std::vector<int64_t> tokens =
      attempt_tokens(hypothesis_of, plan.implement_tokens, plan.shared_tokens + summarize_tokens);
  for (size_t i = 0; i < claimed.size(); ++i)
    if (claimed[i].tokens != tokens[i]) ws_.set_attempt_tokens(claimed[i].id, tokens[i]);
  stage(s, out.iteration, store::Stage::summarize, summary);
}

int Loop::next_model_iteration(const std::string& problem_id, int last_attempted) {
  std::vector<store::StageRow> stages = all_stages(ws_, problem_id);
  int open = last_attempted;
  for (const store::StageRow& st : stages) open = std::max(open, st.iteration);
  if (open == 0) return 1;
  for (const store::StageRow& st : stages) {
    if (st.iteration != open || st.stage != store::Stage::summarize) continue;
    json j = stage_json(st);
    if (!(j.is_object() && j.contains("error"))) return open + 1;  // closed
  }
  return open;
}

}  // namespace ucut::mantis
