// driver/best_specs.h — an optimization workspace's best kernels as a folder of specs, so every tool that takes
// `--impl DIR` (`bench kernelbench --best WORKSPACE`, export) can use what `optimize` found.
#pragma once

#include <map>
#include <cstdint>
#include <string>
#include <vector>

namespace ucut {

struct BestSpecs {
  std::map<std::string, int64_t> attempt;  // problem id → the attempt whose spec was written
  std::vector<std::string> none;           // problems with no counting attempt yet
};

/// Writes `dir`/<problem>.ucut for each problem of `workspace` with a counting attempt (measured, verified, not
/// flagged): the fastest one. Throws store::WorkspaceError for an unreadable workspace, std::runtime_error when a
/// file cannot be written.
BestSpecs write_best_specs(const std::string& workspace, const std::string& dir);

}  // namespace ucut
