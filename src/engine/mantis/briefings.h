// engine/mantis/briefings.h — the workspace's state as the text the model phases' slots hold
// (engine/mantis/model_phases.h): the problem, the attempts so far, the best spec, the lessons, and the
// shared packs' briefings (the DSL system prompt, the speed-of-light briefing, the profile view). Each is a
// function of what it is given only (no clock, no ids that a resumed run would number differently), so a
// resumed iteration renders the same words and its calls are replayed from the ledger.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/mantis/loop.h"
#include "engine/mantis/model_context.h"
#include "engine/mantis/profile_stage.h"
#include "llm/prompt_pack.h"
#include "store/records.h"

namespace ucut::mantis {

/// The embedded pack `name` (prompts/<name>/), read once per process.
const llm::PromptPack& prompt_pack(std::string_view name);

/// The problem as every phase names it: id, family, shape class, arch, shapes and tolerance.
std::string problem_text(const Subject& s);

/// One line per attempt: its number, iteration, config hash, verdict, time and flags; "none yet" when empty.
std::string history_text(const std::vector<store::AttemptRow>& attempts);

/// The best verified attempt (its time and gap to the TF32 bound when known) and its spec; the starting spec
/// when nothing verified yet.
std::string best_text(const std::optional<store::AttemptRow>& best, const std::string& spec,
                      double sol_tf32_ms);

/// Lessons, one line each (expected vs measured speedup, then the sentence); "none" when empty.
std::string lessons_text(const std::vector<store::LessonRow>& lessons);

/// The dsl pack's system prompt for `arch`, with every rule of the checker's table.
std::string dsl_system_prompt(const std::string& arch);

/// The sol pack's briefing for `s` on `gpu`, with the best time so far; a line saying the bounds are switched
/// off when `sol_on` is false (the ablation).
std::string sol_briefing(const Subject& s, const sol::GpuSpec& gpu,
                         const std::optional<store::AttemptRow>& best, bool sol_on);

/// The profile pack's `view` of `p`; when there is no profile with counters, why ("not profiled: ...").
std::string profile_text(const std::optional<BestProfile>& p, ProfileView view);

}  // namespace ucut::mantis
