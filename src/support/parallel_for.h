// support/parallel_for.h — a CPU parallel loop over [0, n) for the host references (MSKB's FP64 task references,
// the family kernels' reference in eval/memop_reference.h).
#pragma once

#include <cstdint>
#include <functional>

namespace ucut {

/// Runs body(begin, end) over [0, n) split into contiguous chunks on the machine's hardware threads.
void parallel_for(int64_t n, const std::function<void(int64_t begin, int64_t end)>& body);

}  // namespace ucut
