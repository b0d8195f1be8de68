// workflow/best_specs.h — the best kernels of one or several optimization workspaces as a folder of specs, so
// every tool that takes `--impl DIR` (`bench kernelbench --best WORKSPACE`, `workspace best`, kb_eval.py) can
// use what `optimize` found.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ucut {

/// Attempts verified under different conditions (tolerance, input draws): bad input, not a failure to read.
struct MixedConditionsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Where one written spec came from.
struct BestSource {
  std::string workspace;  // the workspace file it was read from
  int64_t attempt = 0;
  double time_ms = 0;
};

struct BestSpecs {
  std::map<std::string, BestSource> best;  // problem id → the attempt whose spec was written
  std::vector<std::string> none;           // problems with no counting attempt in any workspace
  /// The conditions the written specs were verified under, shared by every problem written (nullopt: none
  /// written).
  std::optional<double> tolerance;
  std::optional<std::string> inputs;  // "signed", or "framework" (each problem's framework_inputs)
};

/// Writes `dir`/<problem>.ucut for each problem of `workspaces` with a counting attempt (measured, verified,
/// not flagged): the fastest one's spec over all of them, byte for byte (so it hits the build cache entry of
/// the run that measured it), and `dir`/provenance.json: the workspaces and, per problem, the workspace,
/// attempt, measured time, GPU, date and precision change of the spec written. Throws store::WorkspaceError
/// for an unreadable workspace, MixedConditionsError when the attempts compared were verified at different
/// tolerances or on different inputs (their times would not measure the same thing), std::runtime_error when
/// a file cannot be written.
BestSpecs write_best_specs(const std::vector<std::string>& workspaces, const std::string& dir);

}  // namespace ucut
