// problem/family_call.h — what one memory-bound family stage of a pipeline (ir/pipeline.h) is called with at a
// shape: its extents in the order of its ucut_memop_api extent names, its run-time scalars in theirs, and the
// extents of each tensor the caller passes. Derived from the shape's symbols and scalars (problem/shape.h) by the
// problem reader (which refuses a shape that leaves one out, H007) and again by the worker (which draws the
// caller's inputs and runs the reference with them), so both agree by construction.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/memop.h"

namespace ucut {

struct FamilyCall {
  std::vector<int64_t> extents;               // MemOpConfig::extent_symbols order
  std::vector<double> scalars;                // MemOpConfig::scalars order
  std::vector<std::vector<int64_t>> inputs;   // MemOpConfig::caller_inputs order: each tensor's declared extents
  std::string error;                          // why the shape cannot call the stage ("" when it can)
  bool ok() const { return error.empty(); }
  /// Elements of caller input i (the product of its extents).
  int64_t input_elements(size_t i) const;
};

/// Stage `m` at a pipeline shape's `symbols` and `scalars`; `error` names the first symbol or scalar that has no
/// value ("gives no value for `G`"), and `missing` (when given) is set to that name.
FamilyCall family_call(const MemOpConfig& m, const std::map<std::string, int64_t>& symbols,
                       const std::map<std::string, double>& scalars, std::string* missing = nullptr);

}  // namespace ucut
