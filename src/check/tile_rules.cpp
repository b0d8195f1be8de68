// check/tile_rules.cpp — CTA tile shape against wgmma and the register file (C201–C203, C206).
#include <fmt/format.h>

#include "check/check.h"
#include "check/mma_table.h"

namespace ucut::rules {

/// Threads of the MMA warpgroups that share one CTA tile's accumulators.
int mma_threads(KernelSchedule s) { return s == KernelSchedule::tma_cooperative ? 256 : 128; }

void check_tile(const KernelConfig& cfg, DiagEngine& diags) {
  auto [tm, tn, tk] = cfg.tile.value;
  Span at = cfg.tile.span;
  if (tm % 64 != 0 || tm < 64 || tm > 256)
    diags.report(RuleId::C201, at,
                 fmt::format("tile M `{}` must be 64, 128, 192 or 256: a wgmma covers 64 rows per warpgroup", tm),
                 fmt::format("use `with_threadblockshape({}, {}, {})`", tm < 96 ? 64 : 128, tn, tk));
  if (tn % 8 != 0 || tn < 16 || tn > 256)
    diags.report(RuleId::C202, at,
                 fmt::format("tile N `{}` must be a multiple of 8 between 16 and 256 (wgmma N steps by 8)", tn),
                 fmt::format("use tile N 128 or 256: `with_threadblockshape({}, 128, {})`", tm, tk));
  auto mma = sm90_mma(mma_input_type(cfg));
  int mk = mma->k_elems;
  if (tk % mk != 0 || tk < 2 * mk || tk > 256) {
    int suggest = 1024 / dtype_bits(cfg.a.dtype.value);  // 128 bytes of K
    diags.report(RuleId::C203, at,
                 fmt::format("tile K `{}` is not a multiple of the MMA K `{}` for `{}` with at least two steps "
                             "(between {} and 256)",
                             tk, mk, dtype_name(mma_input_type(cfg)), 2 * mk),
                 fmt::format("use tile K {} (128 bytes of K): `with_threadblockshape({}, {}, {})`", suggest, tm, tn,
                             suggest));
  }
  int acc_bits = dtype_bits(cfg.acc.value);
  long regs = static_cast<long>(tm) * tn * acc_bits / 32 / mma_threads(cfg.kernel_schedule.value);
  if (regs > 128)
    diags.report(RuleId::C206, at,
                 fmt::format("a {}x{} `{}` accumulator needs {} registers per MMA thread under `{}`; at most 128 leave "
                             "room for addresses and the epilogue without spilling",
                             tm, tn, dtype_name(cfg.acc.value), regs, kernel_schedule_name(cfg.kernel_schedule.value)),
                 cfg.kernel_schedule.value == KernelSchedule::tma_cooperative
                     ? "halve tile M or N"
                     : "use `with_scheduler(tma_cooperative)` (two warpgroups share the tile) or halve tile M or N");
}

}  // namespace ucut::rules
