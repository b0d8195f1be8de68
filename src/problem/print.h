// problem/print.h — a problem written as a problem file (docs/problems.md), the inverse of problem/read.h: used
// only where a file is written (`ucutlass suite lower`, the lowered problems of `bench kernelbench`).
#pragma once

#include <string>

#include "problem/problem.h"

namespace ucut {

/// The file of a kernel problem, which reads back to the same problem: its provenance as comments, then name, op,
/// a, b, d, math, epilogue, reference (when not auto), tolerance (when given), framework_inputs (when any role is
/// not signed) and one line per shape. A pipeline problem built from a suite problem prints the problem file it was
/// read back from; one read from a file has only that file (UC_ASSERT).
std::string print_problem(const Problem& p);

/// Writes print_problem(p) to `path` and, for a built pipeline problem, its spec beside it (the name its
/// `semantics` gives); false when a file cannot be written.
bool write_problem_files(const Problem& p, const std::string& path);

}  // namespace ucut
