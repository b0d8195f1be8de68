// suite/find_problem.h — a suite problem by its name (the file stem, e.g. L1_001_square_matmul): where the
// suites are and which file under them holds it. For callers that name problems rather than paths (the agent
// tools).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ucut::suite {

/// Where the suites folder is looked for, first hit wins: $UCUT_SUITES_DIR, ./suites, then <data
/// dir>/../suites for each data folder (sol/gpu_table.h data_dir_candidates: installed, beside the binary,
/// the source tree).
std::vector<std::string> suite_dir_candidates();

/// The first candidate that is a folder; "" when none is.
std::string default_suite_dir();

/// The path of `<name>.toml` anywhere under `dir` (the first in sorted order); nullopt when there is none.
std::optional<std::string> find_suite_problem(const std::string& dir, const std::string& name);

}  // namespace ucut::suite
