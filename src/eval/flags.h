// eval/flags.h — the integrity flags of eval/flags.def as an enum: their wire names, meanings and which
// disqualify. The harness (eval/integrity.h), the raw-code scan (eval/library_calls.h), the MSKB bench and
// the reports name flags through it; the names appear only in JSON, SQLite and printed text.
#pragma once

#include <string_view>
#include <vector>

#include "support/enum_json.h"

namespace ucut {

enum class FlagId {
#define FLAG(id, disqualifies, meaning) id,
#include "eval/flags.def"
#undef FLAG
};

constexpr auto enum_names(FlagId) {
  return name_table<FlagId>("integrity flag", {
#define FLAG(id, disqualifies, meaning) {FlagId::id, #id},
#include "eval/flags.def"
#undef FLAG
  });
}
UCUT_ENUM_JSON(FlagId)

/// False for a label (precision_change): reported, and the result still counts.
bool disqualifies(FlagId f);

/// What the flag means, in one line.
std::string_view flag_meaning(FlagId f);

/// True when no flag of `flags` disqualifies.
bool none_disqualifies(const std::vector<FlagId>& flags);

}  // namespace ucut
