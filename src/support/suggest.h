// support/suggest.h — "did you mean" over a list of known names (ninja's SpellcheckString).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ucut {

/// Levenshtein distance, capped: returns max_distance + 1 once it is exceeded.
int edit_distance(std::string_view a, std::string_view b, int max_distance);

/// The closest candidate within a distance that scales with the word's length, if any.
std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string_view>& candidates);

/// Joins names as "`a`, `b` or `c`" for messages.
std::string quoted_list(const std::vector<std::string_view>& names);

}  // namespace ucut
