// engine/profile/otsu.h — Otsu's threshold over a sample: the cut that maximizes the between-class variance,
// searched exactly over the sorted distinct values (no histogram).
#pragma once

#include <optional>
#include <vector>

namespace ucut::profile {

/// The threshold halfway between the two distinct values the best cut separates, so the upper class is
/// exactly the values >= it. Non-finite values are ignored; nullopt with fewer than 2 distinct values.
/// Ties between cuts go to the lowest one.
std::optional<double> otsu_threshold(std::vector<double> values);

/// How many distinct finite values `values` holds.
int distinct_count(std::vector<double> values);

}  // namespace ucut::profile
