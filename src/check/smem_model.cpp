// check/smem_model.cpp — the arithmetic behind SmemBudget (see the header for the CUTLASS sources).
#include "check/smem_model.h"

#include <algorithm>
#include <numeric>

#include "check/mma_table.h"
#include "ir/sm80_mma.h"
#include "ir/transpose.h"

namespace ucut {
namespace {

int round_up(int v, int to) { return (v + to - 1) / to * to; }

constexpr int kBarrierPair = 16;       // a full and an empty mbarrier per pipeline stage
constexpr int kKernelBookkeeping = 128;  // load-order barrier, scheduler storage and struct padding

bool tma_epilogue(EpilogueSchedule e) { return e == EpilogueSchedule::tma || e == EpilogueSchedule::tma_cooperative; }

}  // namespace

SmemBudget sm90_smem_budget(const KernelConfig& cfg) {
  if (cfg.computes_transpose()) return sm90_smem_budget(gemm_transposed(cfg));  // the tile is the kernel's
  SmemBudget b;
  b.capacity = arch_info(cfg.arch.value).smem_bytes;
  auto [tm, tn, tk] = cfg.tile.value;
  int bits = dtype_bits(mma_input_type(cfg));
  // An operand converted in the mainloop is staged as its caller passes it (f32).
  int a_bits = cfg.a.converts_in_mainloop.value ? dtype_bits(cfg.a.caller_dtype()) : bits;
  b.stage_bytes = round_up(a_bits * tm * tk / 8 + bits * tn * tk / 8, 128) + kBarrierPair;

  // The transposed default epilogue (TF32, A and B row-major) stores from registers: no shared memory.
  if (tma_epilogue(cfg.epilogue_schedule.value) && !sm90_transposed_accumulators(cfg)) {
    const TensorDecl& d = cfg.output();
    int d_bits = dtype_bits(d.dtype.value);
    bool coop = cfg.epilogue_schedule.value == EpilogueSchedule::tma_cooperative;
    int n_perf = (d_bits == 8 && tn % 64 == 0) ? 64 : 32;
    b.epi_tile_m = std::min(coop ? 128 : 64, tm);
    b.epi_tile_n = std::gcd(std::min(coop ? 32 : n_perf, tn), tn);
    int epi_elems = b.epi_tile_m * b.epi_tile_n;
    int epi_tiles = (tm / b.epi_tile_m) * (tn / b.epi_tile_n);
    int c_bits = 0;
    for (const EpiOp& op : cfg.epilogue)
      if (op.kind == EpiKind::residual) c_bits = dtype_bits(op.tensor->dtype.value);
    bool reuse = c_bits == d_bits && d_bits > 8;
    int stages_d = std::min(epi_tiles, 2);
    int stages_c = reuse ? std::max(std::min(epi_tiles, 4), stages_d + 1) : std::min(epi_tiles, 4);
    int bytes = 0;
    if (c_bits > 0 && !reuse) bytes += round_up(stages_c * epi_elems * c_bits / 8, 128);
    bytes += round_up((reuse ? stages_c : stages_d) * epi_elems * d_bits / 8, 128);
    for (size_t i = 0; i < cfg.epilogue.size(); ++i) {
      const EpiOp& op = cfg.epilogue[i];
      // The visitor tree is a tree: an `expr` that uses x k times holds k copies of every node before it (W004).
      int copies = 1;
      for (size_t j = i + 1; j < cfg.epilogue.size(); ++j)
        if (cfg.epilogue[j].expr) copies *= std::max(1, cfg.epilogue[j].expr->x_uses);
      if (epi_info(op.kind).category == EpiCategory::vector && op.axis.value == Axis::col)
        bytes += copies * round_up(tn * dtype_bits(op.dtype.value) / 8, 16);  // Sm90RowBroadcast stages a tile row
      if (op.kind == EpiKind::aux_store)
        bytes += copies * round_up(stages_d * epi_elems * dtype_bits(op.tensor->dtype.value) / 8, 128);
    }
    bytes += stages_c * kBarrierPair;  // the epilogue's load pipeline
    b.epilogue_bytes = bytes;
  }
  int usable = b.capacity / 128 * 128 - round_up(b.epilogue_bytes, 128);
  b.auto_stages = usable / b.stage_bytes;
  b.stages = cfg.stages.value > 0 ? cfg.stages.value : b.auto_stages;
  // The kernel's SharedStorage is 1 KiB aligned (swizzled TMA tiles): measured totals (230400 B for f16
  // 128x128x64 cooperative, 214016 B for pingpong 64x128x64) are whole KiB, about 0.7 KiB above the sum.
  b.total_bytes = round_up(b.stages * b.stage_bytes + b.epilogue_bytes + kKernelBookkeeping, 1024);
  return b;
}

SmemBudget sm80_smem_budget(const KernelConfig& cfg) {
  SmemBudget b;
  b.capacity = arch_info(cfg.arch.value).smem_bytes;
  auto [tm, tn, tk] = cfg.tile.value;
  b.stage_bytes = (tm + tn) * tk * dtype_bits(cfg.a.dtype.value) / 8;
  int two_per_sm = b.capacity / 2 / b.stage_bytes;
  b.auto_stages = sm80_pipelined(cfg) ? 2  // Turing's pipelined mainloop double-buffers, always
                  : two_per_sm >= 3   ? std::min(two_per_sm, 6)
                                      : b.capacity / b.stage_bytes;
  b.stages = cfg.stages.value > 0 ? cfg.stages.value : b.auto_stages;
  b.total_bytes = b.stages * b.stage_bytes;
  return b;
}

}  // namespace ucut
