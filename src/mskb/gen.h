// mskb/gen.h — small tools the task definitions share: seeded input arrays as MSKB draws them, and (support/parallel_for.h)
// a CPU parallel loop for the FP64 references of the larger cases.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mskb/task.h"
#include "support/parallel_for.h"  // parallel_for, which the task references share

namespace ucut::mskb {

/// n values uniform in [lo, hi).
std::vector<double> uniform(int64_t n, double lo, double hi, std::mt19937_64& rng);

/// n integers uniform in [lo, hi] (as doubles).
std::vector<double> uniform_int(int64_t n, int64_t lo, int64_t hi, std::mt19937_64& rng);

/// MSKB's two-vector reductions (dot product, losses): X then Y, each from `draw()`, and the scalar FP32 output `loss`
/// zeroed; the length is the scalar `size_name`.
Instance two_vectors_to_loss(const std::string& size_name, int64_t n, const std::function<std::vector<double>()>& draw);

}  // namespace ucut::mskb
