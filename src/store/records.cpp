// store/records.cpp — the attempt status names stored in the workspace (store/records.h).
#include "store/records.h"

#include <array>

namespace ucut::store {
namespace {

constexpr std::array<const char*, 7> kStatusNames = {"pending", "build_failed", "check_failed", "wrong",
                                                     "crashed", "timed_out",    "measured"};

}  // namespace

const char* attempt_status_name(AttemptStatus s) { return kStatusNames[static_cast<size_t>(s)]; }

std::optional<AttemptStatus> parse_attempt_status(const std::string& s) {
  for (size_t i = 0; i < kStatusNames.size(); ++i)
    if (s == kStatusNames[i]) return static_cast<AttemptStatus>(i);
  return std::nullopt;
}

}  // namespace ucut::store
