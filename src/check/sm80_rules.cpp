// check/sm80_rules.cpp — the CUTLASS 2.x backend (sm80, sm86, sm89, and `multistage` on sm90a): options it lacks,
// operand types per mma.sync, CTA/warp tiles, output layouts and the multistage shared-memory budget
// (C103, C105, C106, C207-C209, C211-C215, C412).
#include <fmt/format.h>

#include "check/check.h"
#include "check/smem_model.h"
#include "ir/sm80_mma.h"
#include "support/suggest.h"

namespace ucut::rules {
namespace {

void option_missing(Span at, std::string what, std::string fix, DiagEngine& diags) {
  diags.report(RuleId::C106, at, fmt::format("{}; the CUTLASS 2.x multistage kernel has no such option", what),
               std::move(fix));
}

void check_options(const KernelConfig& cfg, DiagEngine& diags) {
  const ArchInfo& arch = arch_info(cfg.arch.value);
  if (cfg.kernel_schedule.value != KernelSchedule::multistage) {
    Diagnostic& d = diags.report(
        RuleId::C106, cfg.kernel_schedule.span,
        fmt::format("`{}` is a Hopper (sm90a) schedule; `{}` runs CUTLASS 2.x kernels",
                    kernel_schedule_name(cfg.kernel_schedule.value), arch.name),
        "use `with_scheduler(multistage)` or drop `with_scheduler`");
    d.hint->edit = Edit{cfg.kernel_schedule.span, "multistage"};
    d.hint->applicability = Applicability::machine_applicable;
    return;
  }
  if (!cfg.epilogue_schedule.span.implied && cfg.epilogue_schedule.value != EpilogueSchedule::auto_)
    option_missing(cfg.epilogue_schedule.span,
                   fmt::format("epilogue schedule `{}` is a Hopper epilogue",
                               epilogue_schedule_name(cfg.epilogue_schedule.value)),
                   "drop `epilogue = ...`: the 2.x kernel fuses the chain in its visitor epilogue", diags);
  auto [cm, cn, ck] = cfg.cluster.value;
  if (cm * cn * ck != 1)
    option_missing(cfg.cluster.span, fmt::format("cluster {}x{}x{} needs Hopper thread-block clusters", cm, cn, ck),
                   "drop `with_cluster` (or use sm90a with a TMA schedule)", diags);
  TileScheduler ts = cfg.tile_scheduler.value;
  if (ts == TileScheduler::persistent || ts == TileScheduler::split_k)
    option_missing(cfg.tile_scheduler.span,
                   fmt::format("tile scheduler `{}` exists only for SM90 kernels (the 2.x visitor epilogue cannot "
                               "reduce split-K partials)",
                               tile_scheduler_name(ts)),
                   "use `with_tile_scheduler(stream_k)` or the default", diags);
  if (cfg.raster.value != Raster::heuristic)
    option_missing(cfg.raster.span, "a raster order is an SM90 tile-scheduler setting",
                   "keep `with_raster(auto, swizzle = N)`: the 2.x swizzle rasterizes by N tiles", diags);
  if (cfg.fp8_fast_accum.value)
    option_missing(cfg.fp8_fast_accum.span, "FP8 fast accumulation is an SM90 wgmma mode",
                   "remove `.with_fp8_fast_accum()`", diags);
}

void check_types(const KernelConfig& cfg, const std::optional<Sm80Mma>& mma, DiagEngine& diags) {
  const ArchInfo& arch = arch_info(cfg.arch.value);
  DType ta = cfg.a.dtype.value, tb = cfg.b.dtype.value;
  if (!mma || mma->min_sm > arch.sm) {
    diags.report(RuleId::C103, cfg.a.dtype.span,
                 mma ? fmt::format("`{}` needs sm{} or newer ({}); the target is `{}`", dtype_name(ta), mma->min_sm,
                                   mma->name, arch.name)
                     : fmt::format("`{}` has no mma.sync instruction on `{}`", dtype_name(ta), arch.name),
                 mma ? fmt::format("target `sm{}` or newer, or use {} operands", mma->min_sm,
                                   arch.sm < 80 ? "f16 or i8" : "bf16/f16")
                     : std::string("use f16, bf16, f32 (tf32, 3xtf32 or SIMT), f64 or i8 operands"));
    return;
  }
  if (ta != tb && !(is_fp8(ta) && is_fp8(tb))) {
    diags.report(RuleId::C212, cfg.b.dtype.span,
                 fmt::format("A is `{}` but B is `{}`; mma.sync multiplies equal types (FP8 may mix e4m3 and e5m2)",
                             dtype_name(ta), dtype_name(tb)),
                 fmt::format("declare B as `{}` too", dtype_name(ta)));
    return;
  }
  if (cfg.math.value != MathMode::native && ta != DType::f32) {
    diags.report(RuleId::C105, cfg.math.span,
                 fmt::format("`math = {}` applies to f32 operands, not `{}`", math_name(cfg.math.value), dtype_name(ta)),
                 "remove `math = ...`");
    return;
  }
  const auto& accs = mma->accumulators;
  if (std::find(accs.begin(), accs.end(), cfg.acc.value) == accs.end()) {
    std::vector<std::string_view> legal;
    for (DType t : accs) legal.push_back(dtype_name(t));
    diags.report(RuleId::C211, cfg.acc.span,
                 fmt::format("`{}` operands cannot accumulate in `{}` with the {}", dtype_name(ta),
                             dtype_name(cfg.acc.value), mma->name),
                 fmt::format("accumulate in {}", quoted_list(legal)));
    return;
  }
  bool f64 = cfg.acc.value == DType::f64;
  if (f64 ? cfg.compute.value != DType::f64 : cfg.compute.value != DType::f32 && cfg.compute.value != DType::f16) {
    diags.report(RuleId::C211, cfg.compute.span,
                 fmt::format("epilogue compute type `{}` does not fit `{}` accumulators", dtype_name(cfg.compute.value),
                             dtype_name(cfg.acc.value)),
                 f64 ? "use `compute: f64`" : "use `compute: f32`");
    return;
  }
  if (mma->needs_tn) {
    for (const TensorDecl* op : {&cfg.a, &cfg.b}) {
      Layout want = op == &cfg.a ? Layout::row : Layout::col;
      if (op->layout.value == want) continue;
      diags.report(RuleId::C209, op->layout.span,
                   fmt::format("the {} needs K-major operands: `{}` is `{}` but must be `{}`", mma->name,
                               op->name.value, layout_name(op->layout.value), layout_name(want)),
                   fmt::format("store {} transposed once outside the kernel and declare it `{}`", op->name.value,
                               layout_name(want)));
    }
  }
}

std::string tile_list(Sm80MmaClass cls) {
  std::string out;
  for (const Sm80Tile& t : sm80_tiles(cls)) out += fmt::format("{}{}x{}", out.empty() ? "" : ", ", t.tile_m, t.tile_n);
  return out;
}

void check_tiles(const KernelConfig& cfg, const Sm80Mma& mma, DiagEngine& diags) {
  auto [tm, tn, tk] = cfg.tile.value;
  Span at = cfg.tile.span.implied ? cfg.header : cfg.tile.span;
  auto row = sm80_tile(mma.cls, tm, tn);
  bool k_ok = std::find(mma.tile_k.begin(), mma.tile_k.end(), tk) != mma.tile_k.end();
  std::string ks;
  for (int k : mma.tile_k) ks += fmt::format("{}{}", ks.empty() ? "" : " or ", k);
  if (!row || !k_ok) {
    diags.report(RuleId::C213, at,
                 !row ? fmt::format("tile {}x{} is not one of the {} tiles CUTLASS tests on the 2.x backend: {}", tm,
                                    tn, mma.name, tile_list(mma.cls))
                      : fmt::format("tile K `{}` is not {} for the {}", tk, ks, mma.name),
                 fmt::format("use `with_threadblockshape(128, 128, {})`", mma.tile_k.front()));
    return;
  }
  auto [wm, wn, wk] = cfg.warp.value;
  if (!cfg.warp.span.implied && (wm != row->warp_m || wn != row->warp_n || wk != tk))
    diags.report(RuleId::C213, cfg.warp.span,
                 fmt::format("a {}x{}x{} tile is split into {}x{}x{} warp tiles, not {}x{}x{}", tm, tn, tk, row->warp_m,
                             row->warp_n, tk, wm, wn, wk),
                 fmt::format("use `with_warpshape({}, {}, {})` or drop it", row->warp_m, row->warp_n, tk));
}

/// CUTLASS's SIMT and DMMA mainloops read A and B one element per access (the generator's alignment 1), and the
/// SIMT epilogue stores one element per access ("simt epilogue must operate on scalars").
void check_scalar_access(const KernelConfig& cfg, const Sm80Mma& mma, DiagEngine& diags) {
  if (mma.cls != Sm80MmaClass::simt && mma.cls != Sm80MmaClass::f64) return;
  std::vector<const TensorDecl*> tensors = {&cfg.a, &cfg.b};
  if (mma.cls == Sm80MmaClass::simt)
    for (const TensorDecl* t : cfg.epilogue_tensors()) tensors.push_back(t);
  for (const TensorDecl* t : tensors) {
    if (t->kernel_align() == 1) continue;
    Diagnostic& d = diags.report(
        RuleId::C214, t->align.span,
        fmt::format("the {} moves `{}` one element at a time; `align({})` asks for {}-element vectors", mma.name,
                    t->name.value, t->align.value, t->align.value),
        "declare `align(1)`");
    if (!t->align.span.implied) {
      d.hint->edit = Edit{t->align.span, "align(1)"};
      d.hint->applicability = Applicability::machine_applicable;
    }
  }
}

/// The 2.x epilogue walks the tile with one thread map built for D (its type and alignment): every other epilogue
/// tensor is read or written with D's vector width, and i32 accumulators need CUTLASS's integer epilogue.
void check_epilogue_access(const KernelConfig& cfg, DiagEngine& diags) {
  const TensorDecl& d = cfg.output();
  if (cfg.acc.value == DType::i32) {
    // CUTLASS's DefaultIteratorsTensorOp specializations for int32 accumulators (default_epilogue_tensor_op.h).
    DType t = d.dtype.value;
    int al = d.kernel_align();
    bool ok = t == DType::i32 || t == DType::f32 || ((t == DType::f16 || t == DType::bf16) && al == 8) ||
              (t == DType::i8 && al >= 4);
    if (!ok)
      diags.report(RuleId::C412, d.dtype.span,
                   fmt::format("with i32 accumulators the 2.x epilogue writes i32 or f32, f16/bf16 in vectors of 8, or "
                               "i8 in vectors of 4 to 16; `{}` is `{}` with `align({})`",
                               d.name.value, dtype_name(t), al),
                   t == DType::f16 || t == DType::bf16 ? std::string("declare `align(8)`")
                                                       : std::string("store `i32`, `f32` or `i8` with `align(16)`"));
  }
  for (const EpiOp& op : cfg.epilogue) {
    if (!op.tensor || op.kind == EpiKind::store) continue;
    // VisitorAuxLoad/AuxStore move D's elements-per-access of their own type, capped at 128 bits.
    int need = std::min(d.kernel_align(), 128 / dtype_bits(op.tensor->dtype.value));
    if (op.tensor->align.value >= need) continue;
    diags.report(RuleId::C214, op.tensor->align.span,
                 fmt::format("`{}` is aligned to {} element{}, but the 2.x epilogue moves it in D's vectors of {}",
                             op.tensor->name.value, op.tensor->align.value, op.tensor->align.value == 1 ? "" : "s",
                             need),
                 fmt::format("declare `{}` with `align({})`, or lower D's alignment", op.tensor->name.value, need));
  }
}

void check_output_layouts(const KernelConfig& cfg, DiagEngine& diags) {
  if (cfg.conv()) return;  // convolution tensors are channels-last (lowering: L017)
  for (const EpiOp& op : cfg.epilogue) {
    if (!op.tensor || op.tensor->layout.value == Layout::row) continue;
    Diagnostic& d = diags.report(
        RuleId::C215, op.tensor->layout.span,
        fmt::format("`{}` is column-major; the 2.x visitor epilogue reads and writes row-major M x N tensors",
                    op.tensor->name.value),
        fmt::format("declare `{}` `row` (or compute the transpose: swap A and B and their layouts)", op.tensor->name.value));
    d.hint->edit = Edit{op.tensor->layout.span, "row"};
    d.hint->applicability = Applicability::maybe_incorrect;
  }
}

void check_stages(const KernelConfig& cfg, DiagEngine& diags) {
  SmemBudget b = sm80_smem_budget(cfg);
  auto [tm, tn, tk] = cfg.tile.value;
  if (sm80_pipelined(cfg)) {
    if (cfg.stages.value > 0 && cfg.stages.value != 2)
      diags.report(RuleId::C208, cfg.stages.span,
                   fmt::format("Turing's pipelined mainloop double-buffers: exactly 2 stages, not {}", cfg.stages.value),
                   "use `with_stages(auto)` or `with_stages(2)`");
    return;
  }
  if (cfg.stages.value > 0 && cfg.stages.value < 3) {
    diags.report(RuleId::C208, cfg.stages.span,
                 fmt::format("the 2.x multistage mainloop needs at least 3 stages, got {}", cfg.stages.value),
                 "use `with_stages(auto)` or `with_stages(3)`");
    return;
  }
  if (b.stages < 3 || b.total_bytes > b.capacity) {
    bool implied = cfg.stages.span.implied;
    int fit = b.capacity / b.stage_bytes;
    diags.report(RuleId::C207, !implied ? cfg.stages.span : cfg.tile.span.implied ? cfg.header : cfg.tile.span,
                 fmt::format("{} stages x {} bytes = {} bytes; `{}` gives a CTA {} bytes and the mainloop needs 3 "
                             "stages",
                             std::max(b.stages, 3), b.stage_bytes, std::max(b.stages, 3) * b.stage_bytes,
                             arch_info(cfg.arch.value).name, b.capacity),
                 fit >= 3 ? fmt::format("use `with_stages({})`, the most that fit", fit)
                          : fmt::format("halve tile K or N: `with_threadblockshape({}, {}, {})`", tm, tn, tk / 2));
  }
}

}  // namespace

void check_sm80(const KernelConfig& cfg, DiagEngine& diags) {
  int before = diags.error_count();
  check_options(cfg, diags);
  auto mma = sm80_mma(cfg);
  check_types(cfg, mma, diags);
  if (diags.error_count() > before) return;
  check_tiles(cfg, *mma, diags);
  check_scalar_access(cfg, *mma, diags);
  check_output_layouts(cfg, diags);
  check_epilogue_access(cfg, diags);
  if (diags.error_count() == before) check_stages(cfg, diags);
}

}  // namespace ucut::rules
