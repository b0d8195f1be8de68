// engine/cudamaster/rounds.cpp — see rounds.h.
#include "engine/cudamaster/rounds.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <utility>

#include "engine/cudamaster/attempts.h"
#include "engine/cudamaster/brief.h"
#include "engine/cudamaster/roles.h"
#include "engine/review.h"
#include "llm/prompt_pack.h"
#include "mskb/signature.h"

namespace ucut::engine::cudamaster {
namespace {

/// At most this much of a failure's report goes into a round's `why` (the Planner sees every earlier
/// round's).
constexpr size_t kWhyChars = 600;

struct Best {
  int64_t attempt_id = 0;
  Candidate candidate;
  std::optional<double> score;
};

std::string shortened(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n) + " …"; }

std::string joined(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

/// One pair's run: the state the rounds share, and the workspace they keep it in.
class PairRun {
 public:
  PairRun(store::Workspace& ws, ModelLedger& ledger, CandidateEvaluator& evaluator, const Pair& pair,
          const Options& o)
      : ws_(ws),
        ledger_(ledger),
        eval_(evaluator),
        pair_(pair),
        o_(o),
        roles_pack_(llm::load_prompt_pack("cudamaster")),
        profile_pack_(llm::load_prompt_pack("profile")),
        task_(task_text(*pair.task, pair.precision)) {
    r_.problem_id = pair.problem_id;
  }

  PairResult run() {
    for (const llm::PromptPack* p : {&roles_pack_, &profile_pack_})
      ws_.add_prompt_pack({pair_.run_id, p->name, std::to_string(p->version), p->hash});
    if (!seed()) return r_;
    for (int round = 1; round <= o_.rounds; ++round) {
      std::optional<RoundRecord> rec = stored_round(round);
      if (!rec) rec = run_round(round);
      if (!rec) break;  // stopped: r_.needs_gpu or r_.error says why
      apply(*rec);
    }
    r_.best_attempt = best_.attempt_id;
    r_.best_score = best_.score;
    r_.best_code = best_.candidate.code;
    return r_;
  }

 private:
  /// The attempt's outcome: stored when it is finished, else measured now and stored (unless it needs a GPU
  /// this machine lacks: then it stays pending for a run that has one).
  Evaluation evaluate(const store::AttemptRow& a, const Candidate& c, int round) {
    if (a.status != store::AttemptStatus::pending) return stored_evaluation(a);
    Evaluation e = eval_.evaluate(c);
    if (e.verdict == Verdict::needs_gpu) return e;
    store::AttemptRow row = a;
    if (o_.detector && !c.naive && e.verdict == Verdict::ok) row.tokens += review(round, c, e);
    finish_candidate(ws_, row, c, e);
    return e;
  }

  /// The LLM game detector on `c`, which the harness verified: its verdict's flags join `e`'s, a shortcut
  /// makes `e` an integrity failure whose findings Debug reads. Returns the review's tokens.
  int64_t review(int round, const Candidate& c, Evaluation& e) {
    std::string measured = fmt::format(
        "verified on every size case against the FP64 reference; P (the complexity-weighted mean speedup "
        "over "
        "the naive launcher) {:.3g}; the largest case {:.4g} ms of GPU busy time on {}; integrity flags: {}",
        e.score.value_or(0), e.time_ms.value_or(0), e.gpu,
        e.flags.empty() ? "none" : nlohmann::json(e.flags).dump());
    Review r = review_candidate(ledger_, {r_.owner_run, pair_.problem_id, round, "detector"},
                                {task_, c.code, measured}, o_.json_repairs);
    for (FlagId f : r.flags())
      if (std::find(e.flags.begin(), e.flags.end(), f) == e.flags.end()) e.flags.push_back(f);
    if (!none_disqualifies(e.flags)) {
      std::string findings;
      for (const ReviewFinding& f : r.findings) findings += fmt::format("\n- {}: {}", f.kind, f.evidence);
      e.verdict = Verdict::integrity;
      e.error = "the model reviewer (--detector) names a shortcut:" + findings;
    }
    e.model_review_json = r.to_json().dump();
    return r.tokens;
  }

  /// The naive launcher, measured: the best so far. False when the pair cannot go on.
  bool seed() {
    Candidate naive{eval_.naive_code(), {}, true};
    store::AttemptRow a = claim_candidate(ws_, pair_.problem_id, pair_.run_id, 0, "seed", naive, 0);
    r_.owner_run = a.run_id;
    Evaluation e = evaluate(a, naive, 0);
    best_ = {a.id, naive, std::nullopt};
    if (e.verdict == Verdict::needs_gpu) {
      untimed_ = e.error;
      return true;
    }
    if (e.verdict != Verdict::ok) {
      r_.error = fmt::format("the naive launcher of {} fails at the {} stage, so there is no baseline: {}",
                             pair_.problem_id, enum_name(e.verdict), shortened(e.error, kWhyChars));
      return false;
    }
    best_.score = e.score;
    gpu_ = e.gpu;
    if (std::optional<store::ProblemRow> p = ws_.problem(pair_.problem_id); p && e.time_ms) {
      p->baseline_ms = e.time_ms;
      p->baseline_kind = "naive";
      ws_.upsert_problem(*p);
    }
    return true;
  }

  // ---- stages, keyed under the run that began the pair ----

  std::optional<nlohmann::json> find_stage(store::Stage stage, int iteration,
                                           const std::function<bool(const nlohmann::json&)>& match) {
    for (const store::StageRow& s : ws_.stages(pair_.problem_id, r_.owner_run))
      if (s.stage == stage && s.iteration == iteration) {
        nlohmann::json j = nlohmann::json::parse(s.json, nullptr, false);
        if (!j.is_discarded() && match(j)) return j;
      }
    return std::nullopt;
  }

  /// Adds the stage unless one matching `match` is there: a resumed round writes what it redoes once, and a
  /// round redone differently (planned without a GPU, then with one) adds its own rows.
  void add_stage_once(store::Stage stage, int iteration, const nlohmann::json& j,
                      const std::function<bool(const nlohmann::json&)>& match) {
    if (find_stage(stage, iteration, match)) return;
    store::StageRow row;
    row.run_id = r_.owner_run;
    row.problem_id = pair_.problem_id;
    row.iteration = iteration;
    row.stage = stage;
    row.json = j.dump();
    ws_.add_stage(row);
  }

  static bool any(const nlohmann::json&) { return true; }

  std::optional<RoundRecord> stored_round(int round) {
    std::optional<nlohmann::json> j = find_stage(store::Stage::summarize, round, any);
    if (!j) return std::nullopt;
    return round_from_json(*j);
  }

  void apply(const RoundRecord& rec) {
    if (rec.outcome == Outcome::faster && rec.attempt_id) {
      std::vector<store::AttemptRow> all = ws_.attempts(pair_.problem_id);
      auto a = std::find_if(all.begin(), all.end(),
                            [&](const store::AttemptRow& x) { return x.id == *rec.attempt_id; });
      if (a != all.end()) {
        best_ = {a->id, stored_candidate(*a), rec.score};
        r_.improved = true;
      }
    }
    r_.rounds.push_back(rec);
  }

  // ---- one round ----

  /// The Planner's `profile` slot for the best launcher: its stored profile, or a new one (stored first, so a
  /// resumed run shows the same numbers), or why there is none.
  std::string profile_slot(int round) {
    std::string symbol = best_.candidate.naive ? mskb::launcher_name(*pair_.task, pair_.precision)
                                               : candidate_symbol(*pair_.task, pair_.precision);
    const char* view = o_.profile_view == ProfileView::full ? "full" : "filtered";
    if (!best_.score)
      return no_profile_text(symbol, "the best launcher has not been timed: " + untimed_, profile_pack_,
                             o_.profile_view);
    auto same_launcher = [&](const nlohmann::json& j) {
      return j.value("attempt_id", int64_t{0}) == best_.attempt_id;
    };
    for (int i = round; i >= 1; --i)
      if (std::optional<nlohmann::json> j = find_stage(store::Stage::analyze, i, same_launcher))
        return (*j)[view].get<std::string>();
    ProfileResult p = eval_.profile(best_.candidate);
    ProfileViews v = render_profile_views(p, profile_pack_);
    add_stage_once(store::Stage::analyze, round,
                   {{"attempt_id", best_.attempt_id},
                    {"bottleneck", p.filtered.classification.bottleneck},
                    {"bottleneck_source", p.counters ? "ncu" : "roofline"},
                    {"counters", p.counters.has_value()},
                    {"profile", profile::render_json(p.filtered)},
                    {"filtered", v.filtered},
                    {"full", v.full},
                    {"seconds", p.seconds}},
                   same_launcher);
    return o_.profile_view == ProfileView::full ? v.full : v.filtered;
  }

  std::string gpu_text() const {
    return gpu_.empty() ? fmt::format("an NVIDIA GPU ({}; none answered on the machine that planned this)",
                                      eval_.arch())
                        : gpu_;
  }

  /// Stops the pair on a failed model call: nothing of this round is recorded as its outcome.
  std::nullopt_t stop(const std::string& call_error) {
    r_.error = call_error;
    return std::nullopt;
  }

  std::optional<RoundRecord> run_round(int round) {
    Roles roles(ledger_, roles_pack_, {r_.owner_run, pair_.problem_id, round, ""}, o_.json_repairs);
    RoundRecord rec;
    rec.round = round;
    rec.best_before = best_.score;
    RoleAnswer plan = roles.plan(
        {task_, best_.candidate.code, profile_slot(round), former_plans_text(r_.rounds), gpu_text()});
    if (!plan.call_error.empty()) return stop(plan.call_error);
    if (!plan.failure.empty()) {
      rec.why = plan.failure;
      return finish_round(rec);
    }
    rec.scheme = plan.text;
    add_stage_once(store::Stage::nominate, round,
                   {{"scheme", rec.scheme},
                    {"profile_view", o_.profile_view},
                    {"profiled_attempt", best_.attempt_id},
                    {"planner_tokens", plan.tokens}},
                   [&](const nlohmann::json& j) { return j.value("scheme", "") == rec.scheme; });
    std::vector<std::string> defaults = eval_.default_flags();
    int64_t carried = plan.tokens;  // the Planner's tokens go to the round's first candidate
    Candidate failing;
    Evaluation failed;
    std::string fix = "none";
    for (int t = 0; t <= o_.debug_tries; ++t) {
      int64_t tokens = std::exchange(carried, 0);
      std::string base = best_.candidate.code;
      if (t > 0) {
        RoleAnswer d = roles.debug({task_, failing.code, std::string(enum_name(failed.verdict)), failed.error,
                                    fmt::format("{} of {}", t, o_.debug_tries)});
        if (!d.call_error.empty()) return stop(d.call_error);
        rec.debug_tries = t;
        tokens += d.tokens;
        if (!d.failure.empty()) {
          rec.why = d.failure;
          break;
        }
        fix = d.text;
        base = failing.code;
      }
      RoleAnswer c =
          roles.code({task_, candidate_signature(*pair_.task, pair_.precision), base, rec.scheme, fix});
      if (!c.call_error.empty()) return stop(c.call_error);
      tokens += c.tokens;
      if (!c.failure.empty()) {
        rec.why = c.failure;
        break;
      }
      RoleAnswer k = roles.compile({eval_.arch(), c.text, joined(defaults, " ")}, defaults);
      if (!k.call_error.empty()) return stop(k.call_error);
      tokens += k.tokens;
      Candidate cand{c.text, k.flags.accepted, false};
      store::AttemptRow a = claim_candidate(ws_, pair_.problem_id, pair_.run_id, round,
                                            std::string("cudamaster:") + (t ? kDebug : kCoder), cand, tokens);
      rec.attempts.push_back(a.id);
      rec.attempt_id = a.id;
      Evaluation e = evaluate(a, cand, round);
      if (e.verdict == Verdict::needs_gpu) {
        r_.needs_gpu = e.error;
        return std::nullopt;
      }
      add_stage_once(store::Stage::implement, round,
                     {{"try", t},
                      {"role", t ? kDebug : kCoder},
                      {"diagnosis", t ? fix : ""},
                      {"attempt_id", a.id},
                      {"nvcc_flags", cand.flags},
                      {"refused_flags", k.flags.refused},
                      {"redundant_flags", k.flags.redundant},
                      {"compiler_reason", k.reason},
                      {"compiler_failure", k.failure},
                      {"verdict", e.verdict},
                      {"error", e.error},
                      {"score", e.score ? nlohmann::json(*e.score) : nlohmann::json()}},
                     [&](const nlohmann::json& j) {
                       return j.value("try", -1) == t && j.value("attempt_id", int64_t{0}) == a.id;
                     });
      if (e.verdict == Verdict::ok) {
        rec.score = e.score;
        bool faster = !best_.score || (e.score && *e.score > *best_.score);
        rec.outcome = faster ? Outcome::faster : Outcome::not_faster;
        rec.why.clear();
        return finish_round(rec);
      }
      failing = cand;
      failed = e;
      rec.why = fmt::format("the last try failed at the {} stage: {}", enum_name(e.verdict),
                            shortened(e.error, kWhyChars));
    }
    rec.outcome = Outcome::failed;
    return finish_round(rec);
  }

  RoundRecord finish_round(const RoundRecord& rec) {
    add_stage_once(store::Stage::summarize, rec.round, to_json(rec), any);
    return rec;
  }

  store::Workspace& ws_;
  ModelLedger& ledger_;
  CandidateEvaluator& eval_;
  const Pair& pair_;
  const Options& o_;
  llm::PromptPack roles_pack_, profile_pack_;
  std::string task_;
  PairResult r_;
  Best best_;
  std::string gpu_;      // the GPU that measured the naive launcher
  std::string untimed_;  // why the naive launcher was not timed ("" when it was)
};

}  // namespace

PairResult optimize_pair(store::Workspace& ws, ModelLedger& ledger, CandidateEvaluator& evaluator,
                         const Pair& pair, const Options& options) {
  return PairRun(ws, ledger, evaluator, pair, options).run();
}

}  // namespace ucut::engine::cudamaster
