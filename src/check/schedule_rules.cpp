// check/schedule_rules.cpp — kernel/epilogue schedule pairs, clusters and tile schedulers (C301–C309, W002).
// Pairs follow cutlass_library/sm90_utils.py get_valid_schedules plus what we measured on the H200
// (facts/cutlass.md §3 rules 5–8, 19): one pairing compiles but computes wrong results (C304).
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {
namespace {

void check_cluster(const KernelConfig& cfg, DiagEngine& diags) {
  auto [cm, cn, ck] = cfg.cluster.value;
  auto ok = [](int v) { return v == 1 || v == 2 || v == 4; };
  if (!ok(cm) || !ok(cn) || ck != 1) {
    diags.report(RuleId::C301, cfg.cluster.span,
                 fmt::format("cluster {}x{}x{} is not supported: M and N must each be 1, 2 or 4 and K must be 1 "
                             "(TMA multicast shares A along N and B along M)",
                             cm, cn, ck),
                 "use `with_cluster(2, 1, 1)` or `with_cluster(1, 1, 1)`");
    return;
  }
  if (cm * cn > 8)
    diags.report(RuleId::W002, cfg.cluster.span,
                 fmt::format("a cluster of {} CTAs is non-portable: it launches only where the driver allows "
                             "more than 8 CTAs per cluster",
                             cm * cn),
                 "prefer at most 8 CTAs, e.g. `with_cluster(4, 2, 1)`");
}

void check_pairing(const KernelConfig& cfg, DiagEngine& diags) {
  KernelSchedule k = cfg.kernel_schedule.value;
  EpilogueSchedule e = cfg.epilogue_schedule.value;
  Span at = cfg.epilogue_schedule.span.implied ? cfg.kernel_schedule.span : cfg.epilogue_schedule.span;
  std::string_view kn = kernel_schedule_name(k), en = epilogue_schedule_name(e);
  // KernelScheduleAuto picks the cooperative kernel for every tile M except 64.
  bool cooperative = is_cooperative(k) || (k == KernelSchedule::auto_ && cfg.tile.value[0] != 64);
  if (cooperative && cfg.tile.value[0] % 128 != 0) {
    diags.report(RuleId::C302, cfg.tile.span.implied ? cfg.kernel_schedule.span : cfg.tile.span,
                 fmt::format("`{}` runs the cooperative kernel, which splits tile M over two warpgroups; tile M `{}` "
                             "is not a multiple of 128",
                             kn, cfg.tile.value[0]),
                 "use tile M 128 or 256, or `with_scheduler(tma_pingpong)` for tile M 64");
  }
  if (k == KernelSchedule::tma_pingpong && e == EpilogueSchedule::tma_cooperative) {
    Diagnostic& d =
        diags.report(RuleId::C304, at,
                     "`tma_pingpong` with the `tma_cooperative` epilogue compiles and runs but computes wrong results "
                     "(max relative error 49 measured on an H200; CUTLASS does not reject it)",
                     "use `with_scheduler(tma_pingpong, epilogue = tma)`");
    if (!cfg.epilogue_schedule.span.implied) {
      d.hint->edit = Edit{cfg.epilogue_schedule.span, "epilogue = tma"};
      d.hint->applicability = Applicability::machine_applicable;
    }
    return;
  }
  bool ok = true;
  switch (k) {
    case KernelSchedule::tma_cooperative:
      ok = e == EpilogueSchedule::tma_cooperative || e == EpilogueSchedule::nosmem || e == EpilogueSchedule::auto_;
      break;
    case KernelSchedule::tma_pingpong:
    case KernelSchedule::tma_warpspecialized:
      ok = e == EpilogueSchedule::tma || e == EpilogueSchedule::nosmem || e == EpilogueSchedule::auto_;
      break;
    case KernelSchedule::tma:
    case KernelSchedule::auto_:
      ok = e == EpilogueSchedule::nosmem || e == EpilogueSchedule::auto_;
      break;
    case KernelSchedule::cp_async_warpspecialized:
    case KernelSchedule::cp_async_cooperative:
      // CUTLASS's generator pairs cp.async mainloops only with the no-smem epilogue (sm90_utils.py).
      ok = e == EpilogueSchedule::nosmem;
      break;
    case KernelSchedule::multistage: break;  // the 2.x backend; sm80_rules.cpp
  }
  if (ok) return;
  bool no_epilogue_warps = k == KernelSchedule::tma || k == KernelSchedule::auto_ || is_cp_async(k);
  std::string fix = k == KernelSchedule::tma_cooperative ? "tma_cooperative" : no_epilogue_warps ? "nosmem" : "tma";
  Diagnostic& d = diags.report(
      RuleId::C303, at,
      fmt::format("kernel schedule `{}` cannot pair with epilogue `{}`{}", kn, en,
                  k == KernelSchedule::tma_cooperative ? ": the cooperative tile needs the cooperative epilogue tile"
                  : is_cp_async(k) ? ": cp.async mainloops pair with the no-smem epilogue only"
                  : no_epilogue_warps ? ": this kernel has no epilogue warps for a TMA epilogue"
                      : ": the epilogue tile must match one warpgroup's tile"),
      fmt::format("use `epilogue = {}`", fix));
  if (!cfg.epilogue_schedule.span.implied) {
    d.hint->edit = Edit{cfg.epilogue_schedule.span, fmt::format("epilogue = {}", fix)};
    d.hint->applicability = Applicability::machine_applicable;
  }
}

void check_tile_scheduler(const KernelConfig& cfg, DiagEngine& diags) {
  TileScheduler ts = cfg.tile_scheduler.value;
  if ((ts == TileScheduler::stream_k || ts == TileScheduler::split_k) && !is_cooperative(cfg.kernel_schedule.value)) {
    diags.report(RuleId::C306, cfg.tile_scheduler.span,
                 fmt::format("`{}` needs the cooperative kernel; `{}` has no stream-K reduction",
                             tile_scheduler_name(ts), kernel_schedule_name(cfg.kernel_schedule.value)),
                 "use `with_scheduler(tma_cooperative)` with tile M 128 or 256");
  }
  if (ts == TileScheduler::persistent &&
      (cfg.kernel_schedule.value == KernelSchedule::auto_)) {
    diags.report(RuleId::C306, cfg.tile_scheduler.span, "`persistent` needs an explicit kernel schedule",
                 "use `with_scheduler(tma_cooperative)` or `with_scheduler(tma_pingpong)`");
  }
  if (ts == TileScheduler::split_k && (cfg.splits.value < 2 || cfg.splits.value > 64))
    diags.report(RuleId::C308, cfg.splits.span,
                 cfg.splits.value < 2
                     ? std::string("split-K with `1` split does not split K; use 2 to 64 splits")
                     : fmt::format("split-K with `{}` splits is above the 64 supported", cfg.splits.value),
                 "use `split_k(2)` .. `split_k(16)`, or drop the tile scheduler for one split");
}

}  // namespace

void check_swizzle(const KernelConfig& cfg, DiagEngine& diags) {
  int s = cfg.swizzle.value;
  if (s != 1 && s != 2 && s != 4 && s != 8)
    diags.report(RuleId::C309, cfg.swizzle.span,
                 fmt::format("swizzle `{}` is not one of 1, 2, 4, 8", s), "use `swizzle = 2` or `swizzle = 4`");
}

void check_schedule(const KernelConfig& cfg, DiagEngine& diags) {
  check_cluster(cfg, diags);
  check_pairing(cfg, diags);
  check_tile_scheduler(cfg, diags);
  check_swizzle(cfg, diags);
  if (cfg.fp8_fast_accum.value && !(is_fp8(cfg.a.dtype.value) && is_fp8(cfg.b.dtype.value)))
    diags.report(RuleId::C307, cfg.fp8_fast_accum.span,
                 fmt::format("`with_fp8_fast_accum` promotes FP8 partial sums; operands are `{}`",
                             dtype_name(cfg.a.dtype.value)),
                 "remove `.with_fp8_fast_accum()`");
  if (cfg.fp8_fast_accum.value && cfg.kernel_schedule.value != KernelSchedule::tma_cooperative &&
      cfg.kernel_schedule.value != KernelSchedule::tma_pingpong &&
      cfg.kernel_schedule.value != KernelSchedule::tma_warpspecialized)
    diags.report(RuleId::C307, cfg.fp8_fast_accum.span,
                 "FP8 fast accumulation exists only for warp-specialized kernel schedules",
                 "use `with_scheduler(tma_cooperative)`");
}

}  // namespace ucut::rules
