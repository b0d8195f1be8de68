// problem/print.h — a problem written as a problem file (docs/problems.md), the inverse of problem/read.h: used
// only where a file is written (`ucutlass suite lower`, the lowered problems of `bench kernelbench`).
#pragma once

#include <string>

#include "problem/problem.h"

namespace ucut {

/// The file of a kernel problem, which reads back to the same problem: its provenance as comments, then name, op,
/// a, b, d, math, epilogue, reference (when not auto), tolerance (when given), framework_inputs (when any role is
/// not signed) and one line per shape. A pipeline problem names its spec and its shapes' symbols, which only its
/// own file holds: callers print kernel problems only (UC_ASSERT).
std::string print_problem(const Problem& p);

}  // namespace ucut
