// check/mma_table.h — what Hopper's wgmma offers per operand type (cute/arch/mma_sm90.hpp's ss_op_selector).
#pragma once

#include <optional>
#include <vector>

#include "ir/kernel_config.h"

namespace ucut {

struct MmaFacts {
  int k_elems;                    // K of one wgmma instruction
  std::vector<DType> accumulators;  // legal accumulator types
  bool needs_k_major;             // both operands K-major ("TN") on the SS path
};

/// The wgmma row for operand type `a` (after f32 → tf32 mapping), or nullopt if wgmma has none.
std::optional<MmaFacts> sm90_mma(DType a);

/// The type the tensor cores see: f32 operands run as tf32.
DType mma_input_type(const KernelConfig& cfg);

/// A TF32 GEMM with A and B both row-major on the SM90 backend: CUTLASS's register-sourced mainloop swaps A and B
/// (sm90_gmma_builder.inl is_swapAB), so the accumulators come out transposed and only the transposed default
/// epilogue (`cutlass::gemm::EpilogueTransposed`: a plain store, no fusion) writes D.
bool sm90_transposed_accumulators(const KernelConfig& cfg);

}  // namespace ucut
