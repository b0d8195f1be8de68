// check/depthwise_rules.cpp — `depthwise_conv2d` runs as CUTLASS 4.2's direct convolution
// (DefaultDepthwiseDirect2dConvFprop, SIMT, kOptimized iterators; ir/depthwise.h), and check.cpp runs only this
// family for it, so every rule the kernel needs is here: targets (C101), options it lacks (C106), operand and
// output types (C103, C105, C211, C212, C407, C412), the filter it compiles in (C423), tiles (C213), 16-byte
// vectors (C205, C214), operands read in place (C415), shared memory (C207, C208), and the epilogue form
// act(alpha * acc + beta * C) (C416, C420, C421). Goldens: tests/golden/check/<ID>.ucut ("depthwise" cases).
#include <fmt/format.h>

#include <algorithm>

#include "check/check.h"
#include "ir/depthwise.h"
#include "ir/linear_chain.h"

namespace ucut::rules {
namespace {

constexpr std::string_view kKernel = "the depthwise direct convolution";

void option_missing(Span at, std::string what, std::string fix, DiagEngine& diags) {
  diags.report(RuleId::C106, at, fmt::format("{}; {} has no such option", what, kKernel), std::move(fix));
}

void check_options(const KernelConfig& cfg, DiagEngine& diags) {
  KernelSchedule k = cfg.kernel_schedule.value;
  if (k != KernelSchedule::multistage) {
    Diagnostic& d = diags.report(
        RuleId::C106, cfg.kernel_schedule.span,
        fmt::format("`depthwise_conv2d` runs as CUTLASS's 2.x direct convolution (SIMT, cp.async multistage); `{}` "
                    "has no depthwise kernel",
                    kernel_schedule_name(k)),
        "use `with_scheduler(multistage)` or drop `with_scheduler`");
    d.hint->edit = Edit{cfg.kernel_schedule.span, "multistage"};
    d.hint->applicability = Applicability::machine_applicable;
    return;  // the epilogue schedule follows the kernel schedule
  }
  if (!cfg.epilogue_schedule.span.implied && cfg.epilogue_schedule.value != EpilogueSchedule::auto_)
    option_missing(cfg.epilogue_schedule.span,
                   fmt::format("epilogue schedule `{}` is a Hopper epilogue",
                               epilogue_schedule_name(cfg.epilogue_schedule.value)),
                   "drop `epilogue = ...`: the kernel applies the chain in its own epilogue", diags);
  auto [cm, cn, ck] = cfg.cluster.value;
  if (cm * cn * ck != 1)
    option_missing(cfg.cluster.span, fmt::format("cluster {}x{}x{} needs Hopper thread-block clusters", cm, cn, ck),
                   "drop `with_cluster`", diags);
  if (cfg.tile_scheduler.value != TileScheduler::default_)
    option_missing(cfg.tile_scheduler.span,
                   fmt::format("tile scheduler `{}`: the kernel spreads each block of channels' output patches over "
                               "a row of CTAs itself, as many as fill the GPU",
                               tile_scheduler_name(cfg.tile_scheduler.value)),
                   "remove `with_tile_scheduler(...)`", diags);
  if (cfg.raster.value != Raster::heuristic || cfg.swizzle.value != 1)
    option_missing(cfg.raster.value != Raster::heuristic ? cfg.raster.span : cfg.swizzle.span,
                   "a raster order or swizzle: the kernel walks its output patches in order", "remove `with_raster(...)`",
                   diags);
  if (cfg.fp8_fast_accum.value)
    option_missing(cfg.fp8_fast_accum.span, "FP8 fast accumulation is an SM90 wgmma mode",
                   "remove `.with_fp8_fast_accum()`", diags);
}

/// X and W are f32 (exact f32 FMA on CUDA cores), accumulated and combined in f32, and Y is f32.
void check_types(const KernelConfig& cfg, DiagEngine& diags) {
  DType tx = cfg.a.dtype.value, tw = cfg.b.dtype.value;
  if (tx != DType::f32) {
    diags.report(RuleId::C103, cfg.a.dtype.span,
                 fmt::format("{} multiplies f32 on CUDA cores (SIMT FMA); it is built for `f32` operands, not `{}`",
                             kKernel, dtype_name(tx)),
                 fmt::format("declare `{}` and `{}` as `f32`", cfg.a.name.value, cfg.b.name.value));
    return;
  }
  if (tw != tx) {
    Diagnostic& d = diags.report(
        RuleId::C212, cfg.b.dtype.span,
        fmt::format("`{}` is `f32` but `{}` is `{}`; {} multiplies equal types", cfg.a.name.value, cfg.b.name.value,
                    dtype_name(tw), kKernel),
        fmt::format("declare `{}` as `f32` too", cfg.b.name.value));
    d.hint->edit = Edit{cfg.b.dtype.span, "f32"};
    d.hint->applicability = Applicability::machine_applicable;
    return;
  }
  if (cfg.math.value != MathMode::native && !cfg.math.span.implied) {  // implied tf32: a TMA schedule, C106
    diags.report(RuleId::C105, cfg.math.span,
                 fmt::format("`math = {}` selects a tensor-core kernel; {} multiplies exact f32 on CUDA cores",
                             math_name(cfg.math.value), kKernel),
                 "remove `math = ...`");
    return;
  }
  for (const Spanned<DType>* t : {&cfg.acc, &cfg.compute}) {
    if (t->value == DType::f32) continue;
    Diagnostic& d = diags.report(
        RuleId::C211, t->span,
        fmt::format("{} {} in `f32`, not `{}`", kKernel, t == &cfg.acc ? "accumulates" : "computes its epilogue",
                    dtype_name(t->value)),
        fmt::format("use `{}: f32`", t == &cfg.acc ? "acc" : "compute"));
    if (!t->span.implied) {
      d.hint->edit = Edit{t->span, "f32"};
      d.hint->applicability = Applicability::machine_applicable;
    }
  }
  const TensorDecl& y = cfg.output();
  if (y.dtype.value != DType::f32) {
    Diagnostic& d = diags.report(
        RuleId::C412, y.dtype.span,
        fmt::format("{} writes `f32` outputs; `{}` is `{}`", kKernel, y.name.value, dtype_name(y.dtype.value)),
        fmt::format("store `{}` as `f32` (convert it in the next kernel if needed)", y.name.value));
    d.hint->edit = Edit{y.dtype.span, "f32"};
    d.hint->applicability = Applicability::maybe_incorrect;
  }
  std::vector<const TensorDecl*> tensors = cfg.epilogue_tensors();
  tensors.insert(tensors.begin(), {&cfg.a, &cfg.b});
  for (const TensorDecl* t : tensors) {
    if (t->scaled.value)
      diags.report(RuleId::C407, t->scaled.span,
                   fmt::format("`scaled` reads an FP8 dequantization scale; `{}` is `{}`", t->name.value,
                               dtype_name(t->dtype.value)),
                   "remove `scaled`");
    if (t->padded.value)
      diags.report(RuleId::C415, t->padded.span,
                   fmt::format("`pad` copies matrices with padded rows; {} reads `{}` in place", kKernel, t->name.value),
                   "remove `pad`: a channel count that is a multiple of 4 loads directly");
  }
}

/// C423: the kernel compiles FilterShape<R, S> in (ThreadblockShape K = R * S; its warp loop needs two taps or more).
std::optional<std::array<int, 2>> check_filter(const KernelConfig& cfg, DiagEngine& diags) {
  const TensorDecl& w = cfg.b;
  bool ok = true;
  for (size_t i : {size_t(1), size_t(2)}) {
    const Extent& e = w.dims[i];
    const char* name = i == 1 ? "R" : "S";
    if (!e.fixed()) {
      diags.report(RuleId::C423, e.span,
                   fmt::format("{} compiles the filter size into the kernel; `{}`'s {} extent `{}` is a symbol", kKernel,
                               w.name.value, name, e.symbol),
                   fmt::format("write the filter size as numbers, e.g. `{}: {}[{},3,3,1]` (one kernel per filter size)",
                               w.name.value, dtype_name(w.dtype.value), w.dims[0].fixed() ? std::to_string(w.dims[0].size)
                                                                                          : w.dims[0].symbol));
      ok = false;
    } else if (e.size < 1 || e.size > kDepthwiseMaxFilter) {
      diags.report(RuleId::C423, e.span,
                   fmt::format("filter {} extent `{}` is outside 1..{}, the filter sizes {} is built for", name, e.size,
                               kDepthwiseMaxFilter, kKernel),
                   fmt::format("use a filter of at most {0}x{0}, or split a larger one into several convolutions",
                               kDepthwiseMaxFilter));
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  std::array<int, 2> f = *depthwise_filter(cfg);
  if (f[0] * f[1] < 2) {
    diags.report(RuleId::C423, w.dims[1].span,
                 fmt::format("a 1x1 depthwise filter is a per-channel scale; {} needs two taps or more", kKernel),
                 "use `channel_scale(col)` on the input, or a filter of at least 1x2");
    return std::nullopt;
  }
  return f;
}

std::string join(const std::vector<int>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += fmt::format("{}{}", i == 0 ? "" : i + 1 == v.size() ? " or " : ", ", v[i]);
  return out;
}

/// C213: the CTA tile is one of the generator's (ir/depthwise.h), K is the filter's taps, the warp tile follows.
std::optional<DepthwiseTile> check_cta_tile(const KernelConfig& cfg, std::array<int, 2> f, DiagEngine& diags) {
  auto [tm, tn, tk] = cfg.tile.value;
  int taps = f[0] * f[1];
  Span at = cfg.tile.span.implied ? cfg.header : cfg.tile.span;
  auto tile = depthwise_tile(tm);
  const auto& ns = depthwise_channel_tiles();
  bool n_ok = std::find(ns.begin(), ns.end(), tn) != ns.end();
  if (!tile || !n_ok) {
    std::string patches;
    std::vector<int> ms;
    for (const DepthwiseTile& t : depthwise_tiles()) {
      patches += fmt::format("{}{} ({}x{} pixels)", patches.empty() ? "" : " or ", t.tile_m, t.out_p, t.out_q);
      ms.push_back(t.tile_m);
    }
    diags.report(RuleId::C213, at,
                 !tile ? fmt::format("tile M `{}` is not an output patch {} is built with: M is {}", tm, kKernel, patches)
                       : fmt::format("tile N `{}` is not a channel block {} is built with: {}", tn, kKernel, join(ns)),
                 fmt::format("use `with_threadblockshape(64, 64, {})` (8x8 pixels of 64 channels, {} taps)", taps, taps));
    return std::nullopt;
  }
  if (tk != taps) {
    Diagnostic& d = diags.report(
        RuleId::C213, at,
        fmt::format("tile K is the filter's R x S = {}x{} = {} taps, not `{}`", f[0], f[1], taps, tk),
        fmt::format("use `with_threadblockshape({}, {}, {})`", tm, tn, taps));
    if (!cfg.tile.span.implied) {
      d.hint->edit = Edit{cfg.tile.span, fmt::format("with_threadblockshape({}, {}, {})", tm, tn, taps)};
      d.hint->applicability = Applicability::machine_applicable;
    }
    return std::nullopt;
  }
  std::array<int, 3> want = depthwise_warp_tile(cfg.tile.value);
  if (!cfg.warp.span.implied && cfg.warp.value != want) {
    auto [wm, wn, wk] = cfg.warp.value;
    diags.report(RuleId::C213, cfg.warp.span,
                 fmt::format("{} splits a {}x{}x{} tile over {} warps of {}x{}x{}, not {}x{}x{}", kKernel, tm, tn, tk,
                             kDepthwiseWarps, want[0], want[1], want[2], wm, wn, wk),
                 fmt::format("use `with_warpshape({}, {}, {})` or drop it", want[0], want[1], want[2]));
    return std::nullopt;
  }
  return tile;
}

/// C214, C205: every global access of X, W, Y and C is a 16-byte vector of channels (CUTLASS's can_implement
/// checks C % 4 == 0 for f32 at run time).
void check_vectors(const KernelConfig& cfg, DiagEngine& diags) {
  std::vector<const TensorDecl*> tensors = {&cfg.a, &cfg.b};
  for (const TensorDecl* t : cfg.epilogue_tensors()) tensors.push_back(t);
  bool channels_reported = false;
  for (const TensorDecl* t : tensors) {
    int per_vector = 128 / dtype_bits(t->dtype.value);
    if (t->kernel_align() % per_vector != 0) {
      Diagnostic& d = diags.report(
          RuleId::C214, t->align.span,
          fmt::format("{} moves `{}` in 16-byte vectors of {} channels; `align({})` promises {}", kKernel, t->name.value,
                      per_vector, t->align.value, t->align.value == 1 ? "single elements" : "shorter vectors"),
          fmt::format("declare `align({})`: the channel count must be a multiple of {}", per_vector, per_vector));
      if (!t->align.span.implied) {
        d.hint->edit = Edit{t->align.span, fmt::format("align({})", per_vector)};
        d.hint->applicability = Applicability::maybe_incorrect;
      }
      continue;
    }
    // The channel extent: last for X and the Y-shaped tensors, first for W [C,R,S,1]; lowering made them all
    // agree (L013), so a bad count is reported once.
    const Extent& c = t == &cfg.b ? t->dims.front() : t->dims.back();
    if (c.fixed() && c.size % per_vector != 0 && !channels_reported) {
      channels_reported = true;
      diags.report(RuleId::C205, c.span,
                   fmt::format("`{}` has {} channels, not a multiple of the {}-channel vectors {} loads", t->name.value,
                               c.size, per_vector, kKernel),
                   fmt::format("pad the channels to {}", (c.size + per_vector - 1) / per_vector * per_vector));
    }
  }
}

void check_shared_memory(const KernelConfig& cfg, const DepthwiseTile& tile, std::array<int, 2> f, DiagEngine& diags) {
  if (cfg.stages.value > 0 && cfg.stages.value < 2) {
    diags.report(RuleId::C208, cfg.stages.span,
                 fmt::format("{} pipelines its activation tiles through at least 2 stages, got {}", kKernel,
                             cfg.stages.value),
                 "use `with_stages(auto)` or `with_stages(2)`");
    return;
  }
  DepthwiseSmem m = depthwise_smem(cfg, tile, f);
  if (m.total_bytes <= m.capacity) return;
  int fit = (m.capacity - m.filter_bytes) / m.activation_bytes;
  auto [tm, tn, tk] = cfg.tile.value;
  Span at = !cfg.stages.span.implied ? cfg.stages.span : cfg.tile.span.implied ? cfg.header : cfg.tile.span;
  diags.report(RuleId::C207, at,
               fmt::format("{} stages x {} bytes of activations + {} bytes of filter = {} bytes at stride 1; `{}` gives "
                           "a CTA {} bytes",
                           m.stages, m.activation_bytes, m.filter_bytes, m.total_bytes, arch_info(cfg.arch.value).name,
                           m.capacity),
               fit >= 2 ? fmt::format("use `with_stages({})`, the most that fit", fit)
               : tn > 16 ? fmt::format("halve the channels per CTA: `with_threadblockshape({}, {}, {})`", tm, tn / 2, tk)
                         : fmt::format("use the 4x4 patch: `with_threadblockshape(16, {}, {})`", tn, tk));
}

/// C420, C416, C421: the kernel's epilogue is one thread-level functor, D = act(alpha * acc + beta * C), where C is
/// a residual tensor or a `bias(col)` vector read at every pixel (ir/linear_chain.h).
void check_chain(const KernelConfig& cfg, DiagEngine& diags) {
  LinearChain chain = linear_chain(cfg, /*allow_bias=*/true);
  if (!chain.unsupported) return;
  const EpiOp& op = *chain.unsupported;
  const EpiOpInfo& info = epi_info(op.kind);
  DType d = cfg.output().dtype.value;
  if (info.category == EpiCategory::aux) {
    diags.report(RuleId::C416, op.span, fmt::format("`aux_store` would write a second output; {} writes only `{}`",
                                                    kKernel, cfg.output().name.value),
                 "store the intermediate as the kernel's output and apply the rest of the chain in a second kernel");
    return;
  }
  if (info.category == EpiCategory::reduce) {
    diags.report(RuleId::C421, op.span,
                 fmt::format("`{}` reduces across CTAs in a GEMM's visitor epilogue; {} has none", info.name, kKernel),
                 "reduce the output in a second kernel");
    return;
  }
  std::string message, hint;
  if (op.kind == EpiKind::bias && op.axis.value == Axis::row) {
    message = fmt::format("`bias(row)` would add one value per output pixel; {} broadcasts per-channel vectors only, "
                          "`bias(col)`",
                          kKernel);
    hint = "use `bias(col)` (one value per channel), or a `residual(C: ...)` tensor";
  } else if (op.kind == EpiKind::bias && op.dtype.value != d) {
    message = fmt::format("{} reads the bias as the output's type `{}`, not `{}`", kKernel, dtype_name(d),
                          dtype_name(op.dtype.value));
    hint = "write `bias(col)`";
  } else if (info.category == EpiCategory::source && op.tensor && op.tensor->dtype.value != d) {
    message = fmt::format("{} reads C as the output's type `{}`, not `{}`", kKernel, dtype_name(d),
                          dtype_name(op.tensor->dtype.value));
    hint = fmt::format("declare `{}` as `{}`", op.tensor->name.value, dtype_name(d));
  } else {
    message = fmt::format("{}'s epilogue computes act(alpha * acc + beta * C): at most one `scale`, then one "
                          "`residual` or `bias(col)`, then one activation; `{}` does not fit there",
                          kKernel, info.name);
    hint = "reorder the chain into scale >> residual or bias(col) >> activation, or apply the rest in a second kernel";
  }
  diags.report(RuleId::C420, op.span, std::move(message), std::move(hint));
}

}  // namespace

void check_depthwise(const KernelConfig& cfg, DiagEngine& diags) {
  const ArchInfo& arch = arch_info(cfg.arch.value);
  if (arch.sm < 80) {
    diags.report(RuleId::C101, cfg.arch.span,
                 fmt::format("no backend emits `depthwise_conv2d` for `{}`; {} is emitted for `sm80`, `sm86`, `sm89` "
                             "and `sm90a` (its cp.async pipeline needs SM80)",
                             arch.name, kKernel),
                 "target `sm80` or newer");
    return;
  }
  int before = diags.error_count();
  check_options(cfg, diags);
  check_types(cfg, diags);
  check_chain(cfg, diags);
  auto filter = check_filter(cfg, diags);
  check_vectors(cfg, diags);
  if (!filter || diags.error_count() > before) return;  // tiles and shared memory need the filter and the types
  auto tile = check_cta_tile(cfg, *filter, diags);
  if (tile) check_shared_memory(cfg, *tile, *filter, diags);
}

}  // namespace ucut::rules
