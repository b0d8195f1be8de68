// check/conversion_rules.cpp — `from(T)`: which conversions a kernel or pipeline runs (conversion_error, shared with
// pipeline_rules.cpp's C504), where a kernel may convert its own operands (C424), and which operand its mainloop can
// convert (C426).
#include <fmt/format.h>

#include "check/check.h"

namespace ucut {

std::optional<ConversionError> conversion_error(DType from, const TensorDecl& t) {
  auto convertible = [](DType d) { return d == DType::f32 || d == DType::f16 || d == DType::bf16; };
  if (from == t.dtype.value)
    return ConversionError{std::nullopt, fmt::format("`from({})` on a {} operand converts nothing", dtype_name(from), dtype_name(from)),
                   "drop `from(...)`"};
  if (!convertible(from) || !convertible(t.dtype.value))
    return ConversionError{std::nullopt, fmt::format("no conversion from {} to {}", dtype_name(from), dtype_name(t.dtype.value)),
                   "conversions run between f32, f16 and bf16"};
  if (t.scaled.value)
    return ConversionError{t.scaled.span, fmt::format("operand `{}` is converted and `scaled`", t.name.value),
                   "a scaled FP8 operand is quantized by its caller: declare it in its stored type"};
  return std::nullopt;
}

namespace rules {
namespace {

/// C426: `from(f32, mainloop)` runs CUTLASS 4.2's SM90 mixed-input mainloop (the RS warp-specialized one): TMA loads
/// the f32 tile, each consumer converts its fragment in registers and multiplies it from registers by the other
/// operand's tile in shared memory. That mainloop holds one operand in registers, K-major, widens nothing (the other
/// operand is already the 16-bit MMA type), and runs under the explicit TMA warp-specialized schedules, without
/// stream-K; B is handled as the transposed problem's A (ir/transpose.h).
void check_mainloop_conversion(const KernelConfig& cfg, DiagEngine& diags) {
  const TensorDecl* t = cfg.a.converts_in_mainloop.value ? &cfg.a : cfg.b.converts_in_mainloop.value ? &cfg.b : nullptr;
  if (!t) return;
  const TensorDecl& other = t == &cfg.a ? cfg.b : cfg.a;
  const Span at = t->converts_in_mainloop.span;
  const std::string copy_hint = fmt::format("write `{}: {}[..] from({})`: the kernel converts a copy before every run",
                                            t->name.value, dtype_name(t->dtype.value), dtype_name(t->from->value));
  auto report = [&](const std::string& message, const std::string& hint) { diags.report(RuleId::C426, at, message, hint); };
  bool gemm = cfg.op.value == OpKind::gemm || cfg.op.value == OpKind::batched_gemm;
  if (cfg.backend() != BackendKind::sm90 || !gemm)
    return report(fmt::format("a `{}` kernel on {} does not convert in its mainloop: only Hopper's TMA GEMM mainloop "
                              "(sm90a, gemm or batched_gemm) does",
                              op_name(cfg.op.value), arch_info(cfg.arch.value).name),
                  copy_hint);
  if (other.converts_in_mainloop.value)
    return report("both operands convert in the mainloop, which converts one (the operand it holds in registers)",
                  "convert the smaller operand with `from(f32)` (a copy before every run); keep `mainloop` on the "
                  "larger");
  bool half = t->dtype.value == DType::bf16 || t->dtype.value == DType::f16;
  if (t->from->value != DType::f32 || !half)
    return report(fmt::format("the mainloop converts f32 into bf16 or f16, not {} into {}", dtype_name(t->from->value),
                              dtype_name(t->dtype.value)),
                  copy_hint);
  Layout k_major = t == &cfg.a ? Layout::row : Layout::col;
  if (t->layout.value != k_major)
    return report(fmt::format("`{}` is {}: the mainloop converts a K-major operand (A `row`, B `col`)", t->name.value,
                              layout_name(t->layout.value)),
                  copy_hint);
  // CUTLASS 4.2's mixed-input mainloop also reads the 16-bit operand K-major from shared memory: with B row-major
  // beside a converted A, nvcc stops at "Not a canonical GMMA_K Layout" (measured, bench/results/optimize_1e-2_mainloop/).
  Layout other_k_major = t == &cfg.a ? Layout::col : Layout::row;
  if (other.layout.value != other_k_major)
    return report(fmt::format("`{}` is {}: beside an operand converted in the mainloop, the other one must be K-major "
                              "too (A `row`, B `col`)",
                              other.name.value, layout_name(other.layout.value)),
                  copy_hint);
  if (t->padded.value)
    return report(fmt::format("`{}` is `pad`ded: the kernel copies it anyway", t->name.value),
                  "drop `, mainloop`: the padding copy converts it too");
  KernelSchedule s = cfg.kernel_schedule.value;
  if (s != KernelSchedule::tma_warpspecialized && s != KernelSchedule::tma_cooperative &&
      s != KernelSchedule::tma_pingpong)
    return report(fmt::format("the schedule is {}: the mixed-input mainloop runs under an explicit TMA "
                              "warp-specialized one",
                              s == KernelSchedule::auto_ ? std::string("automatic") : std::string(kernel_schedule_name(s))),
                  "add `.with_scheduler(tma_pingpong)` (measured fastest on the H200: bench/results/README.md), "
                  "`tma_cooperative` or `tma_warpspecialized`");
  TileScheduler ts = cfg.tile_scheduler.value;
  if (ts == TileScheduler::stream_k || ts == TileScheduler::split_k)
    report(std::string("stream-K and split-K are not built for the mixed-input mainloop"),
           "drop `.with_tile_scheduler(...)` or convert a copy with `from(f32)`");
}

}  // namespace

void check_conversions(const KernelConfig& cfg, DiagEngine& diags) {
  for (const TensorDecl* t : {&cfg.a, &cfg.b}) {
    if (!t->from) continue;
    if (!op_is_pipeline_stage(cfg.op.value)) {
      diags.report(RuleId::C424, t->from->span,
                   fmt::format("a `{}` kernel does not convert its operands", op_name(cfg.op.value)),
                   "declare the operand in the type its caller passes: conversions run on GEMMs and on "
                   "convolutions whose output is an activation");
      continue;
    }
    if (auto p = conversion_error(t->from->value, *t))
      diags.report(RuleId::C424, p->span.value_or(t->from->span), p->message, p->hint);
  }
  check_mainloop_conversion(cfg, diags);
}

}  // namespace rules
}  // namespace ucut
