// problem/grouped_layout.h — a grouped GEMM's problems as the harness lays them out: each operand is one buffer holding
// every problem's matrix back to back (problem i's A starts where problem i-1's ends), each matrix dense in its
// layout (leading dimension = its contiguous extent). Used to check alignments (check/shape_rules.h), to allocate and
// address the operands in the worker, and to name a grouped shape in reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "problem/shape.h"
#include "ir/types.h"

namespace ucut {

/// The leading dimension of a dense rows x cols matrix stored `layout`: cols for row-major (and channels-last),
/// rows for column-major.
int64_t packed_ld(Layout layout, int64_t rows, int64_t cols);

/// One problem in the packed buffers: element offsets of its A (m x k), B (k x n) and of its m x n output-shaped
/// tensors (C and D share the offset), and their leading dimensions in elements.
struct PackedProblem {
  int64_t m = 0, n = 0, k = 0;
  int64_t a_offset = 0, b_offset = 0, d_offset = 0;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
};

struct PackedGroup {
  std::vector<PackedProblem> problems;
  int64_t a_elements = 0, b_elements = 0, d_elements = 0;  // each packed buffer's length
  int64_t macs = 0;                                         // Σ m·n·k
};

/// Lays out `problems` for operands stored a, b (A is m x k, B is k x n), c and d (m x n).
PackedGroup pack_group(const std::vector<GroupProblem>& problems, Layout a, Layout b, Layout c, Layout d);

/// Σ m·n·k over the problems.
int64_t group_macs(const std::vector<GroupProblem>& problems);

/// "grouped 16x(128x4096x2048, 77x4096x2048, 512x4096x2048, ...)": the count and the first `shown` problems as
/// MxNxK.
std::string grouped_shape_text(const std::vector<GroupProblem>& problems, size_t shown = 3);

}  // namespace ucut
