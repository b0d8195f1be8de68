// check/smem_rules.cpp — mainloop stages against shared memory (C207, C208, W003).
#include <fmt/format.h>

#include "check/check.h"
#include "check/smem_model.h"

namespace ucut::rules {

void check_smem(const KernelConfig& cfg, DiagEngine& diags) {
  SmemBudget b = sm90_smem_budget(cfg);
  auto [tm, tn, tk] = cfg.tile.value;
  if (cfg.stages.value == 0 && b.auto_stages < 2) {
    diags.report(RuleId::C208, cfg.tile.span.implied ? cfg.header : cfg.tile.span,
                 fmt::format("a {}x{}x{} tile needs {} bytes per stage; with {} bytes of epilogue storage only {} "
                             "{} in {} bytes, and the mainloop needs 2",
                             tm, tn, tk, b.stage_bytes, b.epilogue_bytes, b.auto_stages,
                             b.auto_stages == 1 ? "stage fits" : "stages fit",
                             b.capacity),
                 fmt::format("halve tile K (`with_threadblockshape({}, {}, {})`) or tile N", tm, tn, tk / 2));
    return;
  }
  if (cfg.stages.value == 1) {
    diags.report(RuleId::C208, cfg.stages.span, "one stage leaves no overlap between loads and MMAs",
                 "use `with_stages(auto)` or at least 2");
    return;
  }
  // The non-warp-specialized `tma` kernel keeps one stage for its MMAs in flight and static_asserts more than
  // one more beside it (sm90_mma_tma_gmma_ss.hpp: K_PIPE_MMAS < K_PIPE_MAX - 1), so it needs 3.
  if (cfg.kernel_schedule.value == KernelSchedule::tma && b.stages == 2) {
    bool implied = cfg.stages.span.implied;
    Diagnostic& d = diags.report(
        RuleId::C208, !implied ? cfg.stages.span : cfg.tile.span.implied ? cfg.header : cfg.tile.span,
        "the `tma` kernel (not warp-specialized) needs 3 stages, one for the MMAs in flight and two for loads; this "
        "config has 2",
        b.auto_stages >= 3 ? "use `with_stages(3)` or `with_stages(auto)`"
                           : fmt::format("use a warp-specialized schedule (`with_scheduler(tma_cooperative)`), or "
                                         "halve tile K (`with_threadblockshape({}, {}, {})`) so 3 stages fit",
                                         tm, tn, tk / 2));
    if (implied) d.notes.push_back(Label{cfg.stages.span, "stage count chosen here by default"});
    return;
  }
  if (b.total_bytes > b.capacity) {
    // The automatic count can overflow too: CUTLASS's StageCountAutoCarveout reserves the epilogue storage but not
    // the kernel's own barriers. Then the error points at the tile, and the hint gives the count that fits.
    int fixed_bytes = b.total_bytes - b.stages * b.stage_bytes;  // epilogue storage + kernel bookkeeping
    int fit = (b.capacity - fixed_bytes) / b.stage_bytes;
    bool implied = cfg.stages.span.implied;
    Diagnostic& d = diags.report(
        RuleId::C207, !implied ? cfg.stages.span : cfg.tile.span.implied ? cfg.header : cfg.tile.span,
        fmt::format("{} stages x {} bytes + {} bytes of epilogue storage = {} bytes, over the {} bytes a CTA may use",
                    b.stages, b.stage_bytes, b.epilogue_bytes, b.total_bytes, b.capacity),
        fit >= 2 ? fmt::format("use `with_stages({})`, the most that fit", fit)
                 : fmt::format("halve tile K (`with_threadblockshape({}, {}, {})`) or tile N", tm, tn, tk / 2));
    if (implied) d.notes.push_back(Label{cfg.stages.span, "stage count chosen here by default"});
    return;
  }
  if (cfg.stages.value > 0 && cfg.stages.value < b.auto_stages && cfg.stages.value < 4)
    diags.report(RuleId::W003, cfg.stages.span,
                 fmt::format("{} stages leave {} bytes of shared memory unused; {} fit", cfg.stages.value,
                             b.capacity - b.total_bytes, b.auto_stages),
                 "use `with_stages(auto)` unless you need the occupancy");
}

}  // namespace ucut::rules
