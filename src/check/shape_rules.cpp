// check/shape_rules.cpp — see shape_rules.h. Each rule function names its id; the order of shape_violation is the
// order a kernel would fail in: a grouped problem list, then the geometry, then the alignment of every operand.
#include "check/shape_rules.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <climits>

#include "problem/conv_abi.h"
#include "problem/grouped_layout.h"

namespace ucut {
namespace {

Diagnostic violation(RuleId rule, Span at, std::string message, std::string hint) {
  Diagnostic d;
  d.rule = rule;
  d.severity = rule_info(rule).severity;
  d.primary = at;
  d.message = std::move(message);
  d.hint = Hint{std::move(hint), std::nullopt, Applicability::unspecified};
  return d;
}

/// The innermost (channel) extent of a convolution's operands a, b and of its output-shaped tensors, in the
/// forward geometry's terms (see ConvKind), as the kernel reads them. The SM90 transposed convolution reads its
/// weight as the flipped copy [c, filter, k] that it prepares itself, so both operands are k-innermost; CUTLASS
/// 2.x's data gradient reads the weight in place, c-innermost. A grouped convolution reads its activation and
/// weight one group at a time (c/G channels each); a depthwise one reads its weight along the channels (CUTLASS's
/// direct convolution checks K).
std::array<int64_t, 3> conv_channels(const ConvShape& c, BackendKind backend, ConvGrouping grouping) {
  if (grouping == ConvGrouping::depthwise) return {c.c, c.k, c.k};
  switch (c.kind) {
    case ConvKind::fprop: return {c.group_c(), c.group_c(), c.k};
    case ConvKind::dgrad: return {c.k, backend == BackendKind::sm90 ? c.k : c.c, c.c};
    case ConvKind::wgrad: break;
  }
  return {c.k, c.c, c.c};
}

/// C606: the SM90 kernel runs a transposed convolution as one forward convolution per output phase
/// (abi/transposed_phases.h).
std::optional<Diagnostic> sm90_transposed_violation(const KernelConfig& kernel, const ConvShape& c) {
  const char* why = ucut_phases_error(conv_args(c));
  if (!why) return std::nullopt;
  return violation(RuleId::C606, kernel.op.span,
                   fmt::format("the SM90 kernel runs a transposed convolution as one stride-1 forward convolution per "
                               "output phase, which cannot run this one: {}",
                               why),
                   "CUTLASS 2.x's strided data gradient runs it (a spec for sm80, or sm90a "
                   "`with_scheduler(multistage)`)");
}

/// C610: CUTLASS 2.x's implicit-GEMM convolutions address each tensor with 32-bit byte offsets: can_implement
/// refuses a tensor of 2 GiB or more.
std::optional<Diagnostic> sm80_tensor_size_violation(const KernelConfig& kernel, const ConvShape& c) {
  const std::pair<const TensorDecl*, int64_t> tensors[] = {
      {&kernel.a, c.a_elements()}, {&kernel.b, c.b_elements()}, {&kernel.output(), c.d_elements()}};
  for (const auto& [t, elements] : tensors) {
    int64_t bytes = elements * dtype_bits(t->dtype.value) / 8;
    if (bytes < (int64_t(1) << 31)) continue;
    return violation(RuleId::C610, t->span,
                     fmt::format("`{}` holds {} bytes ({:.2f} GiB); CUTLASS 2.x's convolutions index tensors below 2 "
                                 "GiB (32-bit offsets)",
                                 t->name.value, bytes, double(bytes) / double(int64_t(1) << 30)),
                     "split the batch, or run it on sm90a's TMA kernel where that one applies");
  }
  return std::nullopt;
}

/// C611: CUTLASS 2.x runs a transposed convolution as its strided data gradient (StrideSupport::kStrided), whose
/// can_implement refuses dilation > 1 at any stride (its starting-tap arithmetic assumes dilation 1). Padding is
/// free: every tap that falls outside the forward output is masked.
std::optional<Diagnostic> sm80_transposed_violation(const KernelConfig& kernel, const ConvShape& c) {
  static const char* const axis[] = {"depth", "height", "width"};
  for (int i = 3 - c.dims; i < 3; ++i)
    if (c.dilation[i] != 1)
      return violation(RuleId::C611, kernel.op.span,
                       fmt::format("the transposed convolution has dilation {} along {}: CUTLASS 2.x's strided data "
                                   "gradient, which this kernel runs, supports dilation 1 only",
                                   c.dilation[i], axis[i]),
                       "an sm90a TMA kernel runs dilated transposed convolutions with stride 1");
  return std::nullopt;
}

/// C607: the limits of TMA's im2col mode, which loads the convolution's activation (CUTLASS 4.2's SM90 implicit
/// GEMM checks them in can_implement): per spatial rank d, padding up to 65536, 256 or 16, the padded window's
/// corners within [-2^(16/d − 1), 2^(16/d − 1) − 1] and the dilated filter's extent below 2^(16/d) − 1. A transposed
/// convolution runs each output phase's forward convolution with its own window, dilation and padding.
std::optional<Diagnostic> im2col_violation(const KernelConfig& kernel, const ConvShape& c) {
  const int64_t padding_limit = c.dims == 1 ? 65536 : c.dims == 2 ? 256 : 16;
  const int64_t corner_limit = int64_t(1) << (16 / c.dims - 1);
  const int64_t offset_limit = (int64_t(1) << (16 / c.dims)) - 1;
  static const char* const axis[] = {"depth", "height", "width"};
  const std::string hint = "a CUTLASS 2.x kernel has no such limits: a spec for sm80, or sm90a "
                           "`with_scheduler(multistage)`";
  // One forward convolution's window along dimension i: the dilated filter's extent minus one, and its padding.
  auto window_violation = [&](int i, int64_t reach, int64_t lo, int64_t hi) -> std::optional<Diagnostic> {
    if (reach >= offset_limit)
      return violation(RuleId::C607, kernel.op.span,
                       fmt::format("the dilated filter spans {} pixels along {}; TMA im2col (a {}D convolution) "
                                   "reaches at most {}",
                                   reach + 1, axis[i], c.dims, offset_limit),
                       hint);
    // The window's corners: lower -lo, upper hi - reach, both in [-corner_limit, corner_limit - 1].
    if (lo > padding_limit || hi > padding_limit || lo > corner_limit || -lo > corner_limit - 1 ||
        reach - hi > corner_limit || hi - reach > corner_limit - 1)
      return violation(RuleId::C607, kernel.op.span,
                       fmt::format("the kernel pads {} by {} below and {} above with a dilated filter reach of {}; "
                                   "TMA im2col (a {}D convolution) needs the padded window's corners (-{}, {} - {}) "
                                   "within [-{}, {}]",
                                   axis[i], lo, hi, reach, c.dims, lo, hi, reach, corner_limit, corner_limit - 1),
                       hint);
    return std::nullopt;
  };
  if (c.kind == ConvKind::dgrad) {
    const ucut_conv_args abi = conv_args(c);
    if (ucut_phases_error(abi)) return std::nullopt;  // C606 names it
    for (int32_t index = 0; index < ucut_phase_count(abi); ++index) {
      const ucut_phase p = ucut_phase_of(abi, index);
      if (p.empty) continue;
      for (int i = 3 - c.dims; i < 3; ++i) {
        const ucut_phase_dim& d = p.dim[i];
        if (auto why = window_violation(i, int64_t(d.dilation) * (d.window - 1), d.pad_lo, d.pad_hi)) return why;
      }
    }
    return std::nullopt;
  }
  for (int i = 3 - c.dims; i < 3; ++i) {
    const int64_t reach = c.dilation[i] * (c.filter[i] - 1);
    if (auto why = window_violation(i, reach, c.pad[i], c.pad[i])) return why;
  }
  return std::nullopt;
}

/// A tensor whose packed rows x cols matrix must keep its leading dimension a multiple of its alignment.
struct LdCheck {
  const TensorDecl* t;
  int64_t rows, cols;
  const char* row_extent = "";  // the extents' names, for messages ("M", "K")
  const char* col_extent = "";
};

/// The first tensor of `checks` whose leading dimension breaks its declared alignment, with that leading
/// dimension and the next multiple of the alignment.
struct Misaligned {
  const LdCheck* check;
  int64_t ld, padded;
};
std::optional<Misaligned> first_misaligned(const std::vector<LdCheck>& checks) {
  for (const LdCheck& c : checks) {
    int64_t ld = packed_ld(c.t->layout.value, c.rows, c.cols), align = c.t->align.value;
    if (ld % align != 0) return Misaligned{&c, ld, (ld + align - 1) / align * align};
  }
  return std::nullopt;
}

int64_t align_bytes(const TensorDecl& t) { return t.align.value * dtype_bits(t.dtype.value) / 8; }

/// C602: a grouped GEMM's operands are packed problem by problem (problem/grouped_layout.h), so every problem's
/// leading dimensions must keep each tensor's alignment: the first problem that breaks one, by index and extent.
std::optional<Diagnostic> grouped_violation(const KernelConfig& kernel, const GemmShape& shape) {
  for (size_t i = 0; i < shape.groups.size(); ++i) {
    const GroupProblem& p = shape.groups[i];
    std::vector<LdCheck> checks = {{&kernel.a, p.m, p.k, "M", "K"}, {&kernel.b, p.k, p.n, "K", "N"}};
    for (const TensorDecl* t : kernel.epilogue_tensors()) checks.push_back({t, p.m, p.n, "M", "N"});
    auto bad = first_misaligned(checks);
    if (!bad) continue;
    const LdCheck& c = *bad->check;
    const char* extent = c.t->layout.value == Layout::col ? c.row_extent : c.col_extent;
    return violation(RuleId::C602, c.t->span,
                     fmt::format("problem {} of {} (m = {}, n = {}, k = {}): `{}` is {}-major with leading dimension "
                                 "{} = {}, not a multiple of its alignment {} ({} bytes); a grouped GEMM reads every "
                                 "problem's matrices in place, so each problem's {} must keep it",
                                 i + 1, shape.groups.size(), p.m, p.n, p.k, c.t->name.value,
                                 layout_name(c.t->layout.value), extent, bad->ld, c.t->align.value, align_bytes(*c.t),
                                 extent),
                     fmt::format("pad that problem's {} to {}", extent, bad->padded));
  }
  return std::nullopt;
}

/// C604: a filter extent that the kernel's spec fixes as a number (`W: f32[C,3,3,1]`: CUTLASS's direct convolution
/// compiles the filter size in) and the shape does not have. The filter's spatial extents follow its first extent in
/// every kind that has a filter operand (a filter gradient's b is X).
std::optional<Diagnostic> filter_extent_violation(const KernelConfig& kernel, const ConvShape& c) {
  const std::vector<Extent>& dims = kernel.b.dims;
  if (c.kind == ConvKind::wgrad || dims.size() != static_cast<size_t>(c.dims + 2)) return std::nullopt;
  auto text = [](const Extent& e) { return e.fixed() ? std::to_string(e.size) : e.symbol; };
  static const char* const names[] = {"t", "r", "s"};
  bool mismatch = false;
  std::vector<std::string> built, shape, fits;  // the kernel's filter extents, the shape's, a declaration that fits
  fits.push_back(text(dims.front()));
  for (int i = 0; i < c.dims; ++i) {
    const Extent& e = dims[static_cast<size_t>(i) + 1];
    int64_t size = c.filter[3 - c.dims + i];
    mismatch = mismatch || (e.fixed() && e.size != size);
    built.push_back(text(e));
    shape.push_back(fmt::format("{} = {}", names[3 - c.dims + i], size));
    fits.push_back(e.fixed() ? std::to_string(size) : e.symbol);
  }
  fits.push_back(text(dims.back()));
  if (!mismatch) return std::nullopt;
  return violation(RuleId::C604, kernel.b.span,
                   fmt::format("the kernel is built for a {} filter (`{}` declares its extents as numbers), but this "
                               "shape's filter has {}",
                               fmt::join(built, "x"), kernel.b.name.value, fmt::join(shape, ", ")),
                   fmt::format("compile a kernel for this size: `{}: {}[{}]`", kernel.b.name.value,
                               dtype_name(kernel.b.dtype.value), fmt::join(fits, ",")));
}

/// C605: the 2.x grouped kernel (CUTLASS's GroupMode::kMultipleGroup, as emit/sm80/conv.cpp builds it) computes
/// whole groups in each CTA: its device-level can_implement needs K/G to divide the CTA tile's N.
std::optional<Diagnostic> group_tile_violation(const KernelConfig& kernel, const ConvShape& c) {
  int64_t tile_n = kernel.tile.value[1];
  if (op_conv_grouping(kernel.op.value) != ConvGrouping::grouped || tile_n <= 0 || tile_n % c.group_k() == 0)
    return std::nullopt;
  return violation(RuleId::C605, kernel.tile.span,
                   fmt::format("the grouped kernel computes whole groups in each CTA (CUTLASS's "
                               "GroupMode::kMultipleGroup), so the {} output channels per group (k / groups = {} / {}) "
                               "must divide the CTA tile's N = {}",
                               c.group_k(), c.k, c.groups, tile_n),
                   fmt::format("choose `.with_threadblockshape(M, N, K)` with N a multiple of {} (the tile table's N "
                               "are powers of two)",
                               c.group_k()));
}

/// C608, C609: a forward convolution that Hopper runs on its persistent GEMM schedules (KernelConfig::conv_as_gemm).
std::optional<Diagnostic> conv_as_gemm_violation(const KernelConfig& kernel, const ConvShape& c) {
  const std::string schedule(kernel_schedule_name(kernel.kernel_schedule.value));
  if (!pointwise_after_fold(c, kernel.a.fold.value))
    return violation(RuleId::C608, kernel.kernel_schedule.span,
                     fmt::format("`{}` runs the convolution as a GEMM over [pixels, channels], which needs a 1-tap "
                                 "filter at stride 1 without padding along every dimension X's copy does not fold "
                                 "(filter {}x{}x{}, fold({}))",
                                 schedule, c.filter[0], c.filter[1], c.filter[2], kernel.a.fold.value),
                     fmt::format("fold all {} spatial dimensions (`pad fold({})` on X and `pad` on W) or use "
                                 "`tma_warpspecialized`",
                                 c.dims, c.dims));
  if (c.out_pixels() > INT32_MAX)
    return violation(RuleId::C609, kernel.kernel_schedule.span,
                     fmt::format("the GEMM the convolution runs as has {} rows (output pixels), beyond CUTLASS's "
                                 "32-bit extents",
                                 c.out_pixels()),
                     "use `tma_warpspecialized`");
  return std::nullopt;
}

/// Geometry the kernel cannot run: a filter size other than the one its spec fixes; a group size the grouped kernel's
/// tile does not hold; on SM90 (TMA im2col implicit GEMM) a transposed convolution needs at most 4096 output phases,
/// and every convolution (each phase of a transposed one) im2col's limits; on the 2.x backend tensors below 2 GiB
/// and a transposed convolution dilation 1.
std::optional<Diagnostic> conv_geometry_violation(const KernelConfig& kernel, const ConvShape& c) {
  if (auto why = filter_extent_violation(kernel, c)) return why;
  if (auto why = group_tile_violation(kernel, c)) return why;
  if (kernel.backend() != BackendKind::sm90) {
    if (auto why = sm80_tensor_size_violation(kernel, c)) return why;
    return c.kind == ConvKind::dgrad ? sm80_transposed_violation(kernel, c) : std::nullopt;
  }
  if (c.kind == ConvKind::dgrad)
    if (auto why = sm90_transposed_violation(kernel, c)) return why;
  if (kernel.conv_as_gemm()) return conv_as_gemm_violation(kernel, c);
  return im2col_violation(kernel, c);
}

/// C603: a convolution tensor's channel count (`bad`) breaks its alignment.
Diagnostic conv_misaligned(const KernelConfig& kernel, const Misaligned& bad) {
  const TensorDecl& t = *bad.check->t;
  bool per_group =
      op_conv_grouping(kernel.op.value) == ConvGrouping::grouped && (&t == &kernel.a || &t == &kernel.b);
  std::string access = kernel.backend() == BackendKind::sm90
                           ? "TMA loads and stores 16-byte channel vectors"
                           : fmt::format("the kernel loads and stores {}-element channel vectors", t.align.value);
  return violation(RuleId::C603, t.span,
                   fmt::format("`{}` has {} channels{}, not a multiple of its alignment {} ({} bytes): {}",
                               t.name.value, bad.ld, per_group ? " per group (c / groups)" : "", t.align.value,
                               align_bytes(t), access),
                   fmt::format("pad {} channels to {} (zero filter taps leave the result unchanged)",
                               per_group ? "each group's" : "the", bad.padded));
}

}  // namespace

std::optional<Diagnostic> shape_violation(const KernelConfig& kernel, const GemmShape& shape) {
  if (shape.is_grouped()) return grouped_violation(kernel, shape);
  if (shape.is_conv())
    if (auto why = conv_geometry_violation(kernel, shape.conv)) return why;
  // Convolutions: every tensor is packed channels-innermost (conv_channels), read here as [pixels, channels].
  bool conv = shape.is_conv();
  std::array<int64_t, 3> channels =
      conv ? conv_channels(shape.conv, kernel.backend(), op_conv_grouping(kernel.op.value))
           : std::array<int64_t, 3>{shape.k, shape.n, shape.n};
  std::vector<LdCheck> checks = {{&kernel.a, shape.m, channels[0]}, {&kernel.b, shape.k, channels[1]}};
  for (const TensorDecl* t : kernel.epilogue_tensors()) checks.push_back({t, shape.m, channels[2]});
  auto bad = first_misaligned(checks);
  if (!bad) return std::nullopt;
  if (conv) return conv_misaligned(kernel, *bad);
  // C601
  const TensorDecl& t = *bad->check->t;
  return violation(RuleId::C601, t.span,
                   fmt::format("`{}` is {}-major with leading dimension {}, not a multiple of its alignment {} ({} "
                               "bytes)",
                               t.name.value, layout_name(t.layout.value), bad->ld, t.align.value, align_bytes(t)),
                   fmt::format("pad the extent to {}, or use a kernel that accepts it: declare a smaller `align` with "
                               "a cp.async schedule (`with_scheduler(cp_async_cooperative)`, `multistage`) or `pad` "
                               "the operand",
                               bad->padded));
}

std::optional<Diagnostic> shape_violation(const PipelineConfig& kernel, const GemmShape& shape) {
  for (size_t s = 0; s < kernel.stages.size() && s < shape.stages.size(); ++s)
    if (kernel.stages[s].is_family()) {
      continue;  // no GEMM: its extents are checked by the pipeline when it runs (can_implement)
    } else if (auto why = shape_violation(kernel.stages[s].config, shape.stages[s])) {
      why->message = fmt::format("stage `{}`: {}", kernel.stages[s].config.name.value, why->message);
      return why;
    }
  return std::nullopt;
}

namespace {

template <class Kernel>
void report_shapes(const Kernel& kernel, const std::vector<GemmShape>& shapes, DiagEngine& diags) {
  for (size_t i = 0; i < shapes.size(); ++i) {
    auto why = shape_violation(kernel, shapes[i]);
    if (!why) continue;
    std::string name = shapes[i].label.empty() ? fmt::format("shape {}", i + 1)
                                               : fmt::format("shape `{}`", shapes[i].label);
    diags.report(why->rule, why->primary, fmt::format("{}: {}", name, why->message), why->hint->text);
  }
}

}  // namespace

void check_shapes(const KernelConfig& kernel, const std::vector<GemmShape>& shapes, DiagEngine& diags) {
  report_shapes(kernel, shapes, diags);
}

void check_shapes(const PipelineConfig& kernel, const std::vector<GemmShape>& shapes, DiagEngine& diags) {
  report_shapes(kernel, shapes, diags);
}

}  // namespace ucut
