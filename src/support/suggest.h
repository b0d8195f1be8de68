// support/suggest.h — "did you mean" over a list of known names (ninja's SpellcheckString).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ucut {

/// Optimal-string-alignment distance (Levenshtein with an adjacent swap as one edit: `bais` is one from `bias`),
/// capped: returns max_distance + 1 once it is exceeded.
int edit_distance(std::string_view a, std::string_view b, int max_distance);

/// The candidates nearest to `word`, case ignored, within a distance that scales with the word's length (a third
/// of it, at least 1): every one at the smallest distance, in the candidates' order, at most `max_count`. Empty
/// when none is near.
std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string_view>& candidates,
                                       size_t max_count = 3);
/// The first of closest_names, if any.
std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string_view>& candidates);

/// "did you mean `bias`?" (or "`a` or `b`?") for the nearest candidates; nullopt when none is near.
std::optional<std::string> did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

/// Joins names as "`a`, `b` or `c`" for messages.
std::string quoted_list(const std::vector<std::string_view>& names);

}  // namespace ucut
