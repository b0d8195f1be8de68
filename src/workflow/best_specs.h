// workflow/best_specs.h — an optimization workspace's best kernels as a folder of specs, so every tool that takes
// `--impl DIR` (`bench kernelbench --best WORKSPACE`, export) can use what `optimize` found.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ucut {

struct BestSpecs {
  std::map<std::string, int64_t> attempt;  // problem id → the attempt whose spec was written
  std::vector<std::string> none;           // problems with no counting attempt yet
  /// The conditions the written specs were verified under, shared by every problem written (nullopt: none written).
  std::optional<double> tolerance;
  std::optional<std::string> inputs;  // "signed", or "framework" (each problem's framework_inputs)
};

/// Writes `dir`/<problem>.ucut for each problem of `workspace` with a counting attempt (measured, verified, not
/// flagged): the fastest one's spec, byte for byte (so it hits the build cache entry of the run that measured it),
/// and `dir`/provenance.json: the workspace and, per problem, the attempt and the time it was measured at. Throws store::WorkspaceError for an unreadable workspace, std::runtime_error when a
/// file cannot be written or when the problems written were verified at different tolerances or on different inputs
/// (one bench run measures under one set of conditions).
BestSpecs write_best_specs(const std::string& workspace, const std::string& dir);

}  // namespace ucut
