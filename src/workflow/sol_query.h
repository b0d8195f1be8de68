// workflow/sol_query.h — the speed-of-light bounds of one problem (a problem file or a suite problem) on a
// GPU of the datasheet table, with the options of `ucutlass sol`: what that command and the agent's `sol`
// tool answer.
#pragma once

#include <optional>
#include <string>

#include "sol/roofline.h"

namespace ucut {

/// The question: `problem` is a path (problem file or suite problem); the rest as `ucutlass sol`'s options.
struct SolQuery {
  std::string problem;
  std::string gpu = "h200";  // a data/gpus.toml key or a CUDA device name
  double clock_mhz = 0;      // 0: the datasheet's boost clock
  std::string precision;     // "": the problem's
  std::string calibration;   // a calibration JSON file; "": the calibration store (unless no_calibration)
  bool no_calibration = false;
};

/// The bounds, or why there are none: `usage` when the question is wrong (unknown GPU or precision, a problem
/// file with errors), else a file could not be read. `warning` says what was skipped on the way.
struct SolAnswer {
  std::optional<sol::SolReport> report;
  std::string error;
  bool usage = false;
  std::string warning;
};

SolAnswer sol_of_problem(const SolQuery& q);

}  // namespace ucut
