// emit/memory/reduce_body.h — what the two `reduce` emitters share (reduce.cpp: full reductions;
// reduce_axes.cpp: per-axis, `over`): the combining functor, the Body struct (each element's value `of` the
// inputs, the chain on a combined value) and the run function's filling of it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "emit/cpp_writer.h"
#include "emit/memory/memop_code.h"
#include "ir/memop.h"

namespace ucut::memory {

/// The accumulator both reduce kernels combine by `op` with: memop_reduce.inc's ucut_reduce_value over a value
/// functor (a mean sums), its ucut_reduce_logsumexp, memop_reduce_axes.inc's argmax and argmin.
std::string reduce_accumulator(ReduceOp op);
/// The Body: the inputs' readers, the scalars and extents, the value of one element and of a vector, and the
/// finish (a mean's division by `count`, the chain) on a combined value; `more` writes members of its own
/// before the closing `misaligned()`.
void write_reduce_body(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads,
                       const std::function<void(CppWriter&)>& more = {});
/// The run function's `Body body;` and its fields from the parameters, but `count`: the readers over the first
/// input's extents (memory order), the scalars, the extents the body reads.
void write_body_fill(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads);

}  // namespace ucut::memory
