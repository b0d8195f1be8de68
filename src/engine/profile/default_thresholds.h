// engine/profile/default_thresholds.h — which thresholds the classifier uses: a file the caller names, else
// data/profile_thresholds.json where data files are found (sol::data_dir_candidates, as for data/gpus.toml),
// else the 30% prior. Thresholds::source says which.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/profile/thresholds.h"

namespace ucut::profile {

inline constexpr std::string_view kThresholdsFileName = "profile_thresholds.json";

/// The first <dir>/profile_thresholds.json that exists among `data_dirs` (default: where data files are
/// found);
/// "" when there is none.
std::string default_thresholds_path(const std::vector<std::string>& data_dirs);
std::string default_thresholds_path();

/// `path` when given (nullopt with `error` when it does not load: a file asked for must be right); else the
/// default file of `data_dirs` (default: where data files are found); else the prior. A default file that
/// does not load gives the prior, whose source says why.
std::optional<Thresholds> resolve_thresholds(const std::string& path, std::string* error,
                                             const std::vector<std::string>& data_dirs);
std::optional<Thresholds> resolve_thresholds(const std::string& path, std::string* error);

}  // namespace ucut::profile
