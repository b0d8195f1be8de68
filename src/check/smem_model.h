// check/smem_model.h — shared-memory budget of an SM90 GEMM as the CUTLASS 4.2 builders lay it out:
// mainloop stages (gemm/collective/builders/sm90_common.inl compute_stage_count_or_override) and the
// TMA epilogue's C/D staging plus EVT node storage (epilogue/collective/builders/sm90_builder.inl).
// The emitted code static_asserts the real size, so a wrong model fails a compile test, never a launch.
#pragma once

#include "ir/kernel_config.h"

namespace ucut {

struct SmemBudget {
  int capacity = 0;        // bytes one CTA may use
  int stage_bytes = 0;     // A tile + B tile + pipeline barrier, per stage
  int epilogue_bytes = 0;  // the epilogue collective's SharedStorage (what StageCountAutoCarveout subtracts)
  int auto_stages = 0;     // what `with_stages(auto)` gets
  int stages = 0;          // the count the kernel will use
  int total_bytes = 0;     // stages * stage_bytes + epilogue_bytes + kernel bookkeeping
  int epi_tile_m = 0, epi_tile_n = 0;
};

SmemBudget sm90_smem_budget(const KernelConfig& cfg);

/// The 2.x mainloop: `stages` copies of the A and B tiles, unioned with the epilogue's storage (smaller than three
/// stages for every tile of ir/sm80_tiles.def). `with_stages(auto)` is 2 on Turing (the pipelined loop); from SM80 it
/// keeps two CTAs per SM when they fit three stages each (up to 6 stages), and otherwise gives one CTA what fits.
SmemBudget sm80_smem_budget(const KernelConfig& cfg);

}  // namespace ucut
