// eval/worker/grouped_operands.h — a grouped GEMM's problems on the device, as the kernel ABI (ucut_group_args) and
// cuBLAS's grouped API take them: the {m, n, k} list (on the device, and its host copy), per-problem leading
// dimensions, and per input set the device arrays of per-problem pointers into the packed operand buffers
// (problem/grouped_layout.h: problem i's matrices start where problem i-1's end).
#pragma once

#include <vector>

#include "abi/kernel_abi.h"
#include "problem/grouped_layout.h"
#include "eval/worker/device_buffer.h"
#include "eval/worker/problem_desc.h"

namespace ucut::worker {

/// The element at `offset` of a packed buffer of `t` elements.
const void* packed_at(const void* base, DType t, int64_t offset);
void* packed_at(void* base, DType t, int64_t offset);

/// Device arrays of per-problem pointers into one set of packed buffers: a, b, c (empty without a residual) and d.
struct GroupPointers {
  DeviceBuffer a, b, c, d;
};

/// Builds the pointer arrays of buffers a, b, c (may be null) and d, laid out as `g` (element types from `p`).
GroupPointers group_pointers(const PackedGroup& g, const ProblemDesc& p, const void* a, const void* b, const void* c,
                             void* d, cudaStream_t s);

class GroupedOperands {
 public:
  /// Uploads the problem list and leading dimensions of `g` (which must outlive this).
  GroupedOperands(const PackedGroup& g, const ProblemDesc& p, cudaStream_t s);

  /// Adds an input set's packed buffers (c null without a residual); sets are numbered from 0 as added.
  void add_set(const void* a, const void* b, const void* c, void* d);

  /// The kernel ABI's view of input set `set`.
  ucut_group_args args(size_t set) const;

 private:
  const PackedGroup& g_;
  const ProblemDesc& p_;
  cudaStream_t s_;
  std::vector<int32_t> problems_host_;  // {m, n, k} per problem: the ABI's problems_host
  DeviceBuffer problems_;               // the same on the device
  DeviceBuffer lds_;                    // lda, ldb, ldc, ldd: `count` int64 each
  std::vector<GroupPointers> sets_;
};

}  // namespace ucut::worker
