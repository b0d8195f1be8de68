// check/tile_rules.cpp — CTA tile shape against wgmma and the register file (C201–C203, C206). Each hint names its
// own dimension; tile_fix.cpp turns them into one edit of the whole tile that passes every rule.
#include <fmt/format.h>

#include <algorithm>

#include "check/check.h"
#include "check/mma_table.h"

namespace ucut::rules {

/// Threads of the MMA warpgroups that share one CTA tile's accumulators. KernelScheduleAuto picks the cooperative
/// kernel for every tile M except 64 (as check_pairing in schedule_rules.cpp assumes).
int mma_threads(KernelSchedule s, int tile_m) {
  bool cooperative = is_cooperative(s) || (s == KernelSchedule::auto_ && tile_m != 64);
  return cooperative ? 256 : 128;
}

void check_tile(const KernelConfig& cfg, DiagEngine& diags) {
  auto [tm, tn, tk] = cfg.tile.value;
  Span at = cfg.tile.span;
  if (tm % 64 != 0 || tm < 64 || tm > 256)
    diags.report(RuleId::C201, at,
                 fmt::format("tile M `{}` must be 64, 128, 192 or 256: a wgmma covers 64 rows per warpgroup", tm),
                 fmt::format("use tile M {}", tm < 96 ? 64 : tm < 160 ? 128 : tm < 224 ? 192 : 256));
  if (tn % 8 != 0 || tn < 16 || tn > 256)
    diags.report(RuleId::C202, at,
                 fmt::format("tile N `{}` must be a multiple of 8 between 16 and 256 (wgmma N steps by 8)", tn),
                 fmt::format("use tile N {}, the nearest multiple of 8 in [16, 256]",
                             std::clamp((tn + 4) / 8 * 8, 16, 256)));
  auto mma = sm90_mma(mma_input_type(cfg));
  int mk = mma->k_elems;
  if (tk % mk != 0 || tk < 2 * mk || tk > 256) {
    int suggest = 1024 / dtype_bits(cfg.a.dtype.value);  // 128 bytes of K
    std::string_view t = dtype_name(mma_input_type(cfg));
    std::string why =
        tk % mk != 0 ? fmt::format("tile K `{}` is not a multiple of the MMA K `{}` for `{}`", tk, mk, t)
        : tk < 2 * mk
            ? fmt::format("tile K `{}` holds fewer than two MMA K steps of `{}` for `{}`; the least is {}", tk, mk,
                          t, 2 * mk)
            : fmt::format("tile K `{}` is above 256, the largest tile K the SM90 builders emit", tk);
    diags.report(RuleId::C203, at, why,
                 fmt::format("use tile K {} (128 bytes of K)", suggest));
  }
  int acc_bits = dtype_bits(cfg.acc.value);
  int threads = mma_threads(cfg.kernel_schedule.value, tm);
  long regs = static_cast<long>(tm) * tn * acc_bits / 32 / threads;
  if (regs > 128)
    diags.report(RuleId::C206, at,
                 fmt::format("a {}x{} `{}` accumulator needs {} registers per MMA thread under `{}`; at most 128 leave "
                             "room for addresses and the epilogue without spilling",
                             tm, tn, dtype_name(cfg.acc.value), regs, kernel_schedule_name(cfg.kernel_schedule.value)),
                 threads == 256 ? "halve tile M or N"
                     : "use `with_scheduler(tma_cooperative)` (two warpgroups share the tile) or halve tile M or N");
}

}  // namespace ucut::rules
