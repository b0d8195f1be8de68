// engine/cudamaster/roles.h — CUDAMaster's four roles as model calls through the workspace's ledger
// (engine/model_ledger.h): the Planner writes a scheme (no code), the Coder the whole .cu, the Compiler its
// nvcc options (JSON, validated: compiler_flags.h), Debug a diagnosis of a failed try. Each prompt is a
// template of the `cudamaster` pack rendered from values the caller derives from stored state only, so a
// resumed run asks the same words and the ledger answers from the workspace. One Roles object serves one
// round: it numbers each role's calls from 0 under CallSite{run, problem, round, role}.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/cudamaster/compiler_flags.h"
#include "engine/model_ledger.h"
#include "llm/prompt_pack.h"

namespace ucut::engine::cudamaster {

/// The roles' names in the ledger (store::LlmCallRow::role) and in an attempt's proposer
/// ("cudamaster:<role>").
inline constexpr const char* kPlanner = "planner";
inline constexpr const char* kCoder = "coder";
inline constexpr const char* kCompiler = "compiler";
inline constexpr const char* kDebug = "debug";

struct PlannerSlots {
  std::string task, code, profile, former_plans, gpu;
};
struct CoderSlots {
  std::string task, signature, code, scheme, fix;
};
struct CompilerSlots {
  std::string arch, code, default_flags;
};
struct DebugSlots {
  std::string task, code, stage, error, attempt;
};

/// What one role answered.
struct RoleAnswer {
  std::string text;    // the scheme, the .cu file, or the diagnosis
  FlagChoice flags;    // the Compiler's options, sorted
  std::string reason;  // the Compiler's one sentence
  /// Set when the model answered nothing usable (a refusal, no file, an answer still invalid after the
  /// repairs): asking the same words again would not help, so the caller fails the try or the round with it.
  std::string failure;
  /// Set when a call failed (the endpoint, not the model): the caller stops; a resumed run asks again.
  std::string call_error;
  int64_t tokens = 0;  // of every call it took, replayed ones included (they were charged once)
  int calls = 0;
};

/// The body of the first fenced block tagged cuda, cu, cpp, c++ or c (else the first fenced block); nullopt
/// when the text has none.
std::optional<std::string> fenced_code(const std::string& text);

class Roles {
 public:
  /// `site`'s role is set per call; `json_repairs` bounds the Compiler's repairs, `code_repairs` the Coder's
  /// (an answer without a fenced file is sent back with what is missing).
  Roles(ModelLedger& ledger, const llm::PromptPack& pack, CallSite site, int json_repairs = 2,
        int code_repairs = 1);

  RoleAnswer plan(const PlannerSlots& s);
  RoleAnswer code(const CoderSlots& s);
  /// `defaults`: the harness's own options (redundant ones are dropped, the rest checked against the set).
  RoleAnswer compile(const CompilerSlots& s, const std::vector<std::string>& defaults);
  RoleAnswer debug(const DebugSlots& s);

 private:
  /// One call of `role` with `messages`, at the role's next seq.
  LedgerReply call(const char* role, const std::vector<llm::Message>& messages);
  /// A call whose answer is prose (Planner, Debug).
  RoleAnswer ask_text(const char* role, const std::string& prompt);

  ModelLedger& ledger_;
  const llm::PromptPack& pack_;
  CallSite site_;
  int json_repairs_, code_repairs_;
  std::map<std::string, int> next_seq_;
};

}  // namespace ucut::engine::cudamaster
