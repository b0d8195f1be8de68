// engine/mantis/model_phases.cpp — see model_phases.h.
#include "engine/mantis/model_phases.h"

#include <fmt/format.h>

#include <functional>
#include <map>

#include "compiler/pipeline.h"
#include "engine/mantis/briefings.h"
#include "support/diag_render.h"

namespace ucut::mantis {

namespace {

using nlohmann::json;

/// Renders `phase`.md with `slots`, asks for its schema's object (and `check`), and reads the answer with
/// `read`.
template <typename T>
PhaseAnswer<T> ask(const PhaseCall& call, const std::map<std::string, std::string>& slots,
                   const std::string& system, const engine::AnswerCheck& check,
                   const std::function<T(const json&)>& read) {
  const llm::PromptPack& pack = prompt_pack("mantis");
  const std::string& phase = call.site.role;
  std::vector<llm::Message> messages;
  if (!system.empty()) messages.push_back(llm::Message::system(system));
  messages.push_back(llm::Message::user(pack.render(phase + ".md", slots)));
  engine::JsonReply r = engine::ask_json(call.ledger, call.site, std::move(messages),
                                         pack.schemas.at("schemas/" + phase + ".schema.json"), call.repairs,
                                         call.first_seq, check);
  PhaseAnswer<T> out;
  out.calls = r.calls;
  out.tokens = r.tokens;
  out.next_seq = r.next_seq;
  if (!r.value) {
    out.error = r.error;
    return out;
  }
  out.json = *r.value;
  out.value = read(*r.value);
  return out;
}

}  // namespace

PhaseAnswer<MeasureDecision> ask_measure(const PhaseCall& call, const MeasureSlots& slots) {
  std::string profiler = slots.profiler ? "available in this run" : "switched off in this run: answer false";
  return ask<MeasureDecision>(
      call,
      {{"problem", slots.problem},
       {"history", slots.history},
       {"best", slots.best},
       {"profile_available", profiler}},
      "", {}, [](const json& j) {
        return MeasureDecision{j["profile"].get<bool>(), j["reason"].get<std::string>()};
      });
}

PhaseAnswer<Analysis> ask_analyze(const PhaseCall& call, const AnalyzeSlots& slots) {
  return ask<Analysis>(
      call,
      {{"problem", slots.problem}, {"sol", slots.sol}, {"profile", slots.profile}, {"best", slots.best}}, "",
      {}, [](const json& j) {
        return Analysis{j["bottleneck"].get<sol::Bottleneck>(), j["evidence"].get<std::vector<std::string>>(),
                        j["headroom"].get<std::string>()};
      });
}

PhaseAnswer<std::vector<ModelHypothesis>> ask_nominate(const PhaseCall& call, const NominateSlots& slots) {
  return ask<std::vector<ModelHypothesis>>(
      call,
      {{"problem", slots.problem},
       {"analysis", slots.analysis},
       {"best", slots.best},
       {"lessons", slots.lessons},
       {"count", std::to_string(slots.count)}},
      "", {}, [&](const json& j) {
        std::vector<ModelHypothesis> out;
        for (const json& h : j["hypotheses"]) {
          if (static_cast<int>(out.size()) == slots.count) break;
          out.push_back({h["change"].get<std::string>(), h["causal_link"].get<std::string>(),
                         h["predicted_speedup"].get<double>(), h["risk_impl"].get<double>(),
                         h["risk_perf"].get<double>()});
        }
        return out;
      });
}

PhaseAnswer<TriageChoice> ask_triage(const PhaseCall& call, const TriageSlots& slots) {
  engine::AnswerCheck indices = [&](const json& j) -> std::optional<std::string> {
    std::set<int> seen;
    for (const json& k : j["keep"]) {
      int i = k.get<int>();
      if (i >= slots.nominated)
        return fmt::format("`keep` names hypothesis {}, but the hypotheses are numbered 0 to {}", i,
                           slots.nominated - 1);
      if (!seen.insert(i).second) return fmt::format("`keep` names hypothesis {} twice", i);
    }
    return std::nullopt;
  };
  return ask<TriageChoice>(
      call,
      {{"problem", slots.problem},
       {"gap", slots.gap},
       {"hypotheses", slots.hypotheses},
       {"keep", std::to_string(slots.keep)}},
      "", indices, [](const json& j) {
        return TriageChoice{j["keep"].get<std::vector<int>>(), j["override_reason"].get<std::string>()};
      });
}

PhaseAnswer<Implementation> ask_implement(const PhaseCall& call, const ImplementSlots& slots) {
  return ask<Implementation>(
      call,
      {{"problem", slots.problem},
       {"hypothesis", slots.hypothesis},
       {"best", slots.best},
       {"attempts", std::to_string(slots.attempts)},
       {"feedback", slots.feedback}},
      slots.system, {}, [](const json& j) {
        return Implementation{j["specs"].get<std::vector<std::string>>(), j["notes"].get<std::string>()};
      });
}

PhaseAnswer<std::vector<ModelLesson>> ask_summarize(const PhaseCall& call, const SummarizeSlots& slots) {
  engine::AnswerCheck listed = [&](const json& j) -> std::optional<std::string> {
    std::set<int> seen;
    for (const json& l : j["lessons"]) {
      int i = l["hypothesis"].get<int>();
      if (!slots.hypotheses.count(i))
        return fmt::format("a lesson names hypothesis {}, which is not among the outcomes listed ({})", i,
                           fmt::join(slots.hypotheses, ", "));
      if (!seen.insert(i).second) return fmt::format("two lessons name hypothesis {}: write one each", i);
    }
    return std::nullopt;
  };
  return ask<std::vector<ModelLesson>>(
      call, {{"problem", slots.problem}, {"outcomes", slots.outcomes}}, "", listed, [](const json& j) {
        std::vector<ModelLesson> out;
        for (const json& l : j["lessons"])
          out.push_back({l["hypothesis"].get<int>(), l["text"].get<std::string>()});
        return out;
      });
}

std::string check_diagnostics(const std::string& spec) {
  SourceFile src("spec.ucut", spec);
  Compilation c = compile_spec(src, StopAfter::check);
  std::string out;
  for (const Diagnostic& d : c.diags.diagnostics()) {
    if (d.severity != Severity::error) continue;
    auto [line, col] = src.line_col(d.primary.begin);
    out += fmt::format("{}:{} {} ({}): {}", line, col, rule_info(d.rule).code, rule_info(d.rule).slug,
                       d.message);
    if (d.hint) out += "; hint: " + d.hint->text;
    out += "\n";
  }
  if (c.diags.dropped() > 0) out += fmt::format("... and {} more errors\n", c.diags.dropped());
  if (out.empty() && !c.ok()) out = "the spec does not check\n";
  return out;
}

}  // namespace ucut::mantis
