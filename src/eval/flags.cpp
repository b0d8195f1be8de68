// eval/flags.cpp — what each integrity flag of eval/flags.def decides and means.
#include "eval/flags.h"

#include <algorithm>

namespace ucut {

bool disqualifies(FlagId f) {
  switch (f) {
#define FLAG(id, disqualifies, meaning) \
  case FlagId::id:                      \
    return disqualifies;
#include "eval/flags.def"
#undef FLAG
  }
  return true;
}

std::string_view flag_meaning(FlagId f) {
  switch (f) {
#define FLAG(id, disqualifies, meaning) \
  case FlagId::id:                      \
    return meaning;
#include "eval/flags.def"
#undef FLAG
  }
  return {};
}

bool none_disqualifies(const std::vector<FlagId>& flags) {
  return std::none_of(flags.begin(), flags.end(), [](FlagId f) { return disqualifies(f); });
}

}  // namespace ucut
