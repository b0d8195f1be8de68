// check/align_rules.cpp — operand alignment per data path (C204, C205, C214, C415): TMA moves 16-byte-aligned rows;
// without TMA, cp.async loads copy 4, 8 or 16 bytes and epilogue accesses at most 16 bytes; `pad` makes the kernel
// copy a tensor through a buffer with 16-byte rows, so any declared alignment works.
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {
namespace {

/// Index of the contiguous extent: a [.., rows, cols] matrix's cols (`row`) or rows (`col`); a channels-last
/// tensor's channels (the last extent).
size_t contiguous_dim(const TensorDecl& t) { return t.layout.value == Layout::col ? t.dims.size() - 2 : t.dims.size() - 1; }

/// How an operand reaches or leaves the kernel, which decides the alignment it needs.
enum class Path { tma_load, tma_store, cp_async, epilogue_access };

Path path_of(const KernelConfig& cfg, bool mainloop_operand, bool loaded) {
  bool sm90 = cfg.backend() == BackendKind::sm90;
  if (mainloop_operand) return sm90 && !is_cp_async(cfg.kernel_schedule.value) ? Path::tma_load : Path::cp_async;
  if (!sm90 || cfg.epilogue_schedule.value == EpilogueSchedule::nosmem) return Path::epilogue_access;
  return loaded ? Path::tma_load : Path::tma_store;
}

void check_tma(const TensorDecl& t, bool loaded, DiagEngine& diags) {
  // A mainloop conversion's TMA loads the caller's rows.
  DType moved = t.converts_in_mainloop.value ? t.caller_dtype() : t.dtype.value;
  int elem_bits = dtype_bits(moved);
  int align_bits = t.kernel_align() * elem_bits;
  int need = 128 / elem_bits;
  if (align_bits % 128 == 0) return;
  Diagnostic& d = diags.report(
      RuleId::C204, t.align.span,
      fmt::format("`{}` is aligned to {} element{} = {} bytes; TMA {} need 16 bytes ({} `{}` elements)", t.name.value,
                  t.align.value, t.align.value == 1 ? "" : "s", align_bits / 8, loaded ? "loads" : "stores", need,
                  dtype_name(moved)),
      fmt::format("declare `align({})` and pad the leading dimension to a multiple of {}, or load through cp.async: "
                  "`with_scheduler(cp_async_cooperative)` (4-byte rows, plain store) or `with_scheduler(multistage)`, or "
                  "let the kernel pad it: `{} pad`",
                  need, need, t.name.value));
  // Defaults are always 16 bytes, so this alignment was written in the spec and can be replaced.
  d.hint->edit = Edit{t.align.span, fmt::format("align({})", need)};
  d.hint->applicability = Applicability::maybe_incorrect;
}

/// cp.async copies 4, 8 or 16 bytes; epilogue loads and stores are vectors of 1 to 16 bytes. Both need a power of two.
bool check_vector(const TensorDecl& t, Path p, DiagEngine& diags) {
  int bytes_x8 = t.kernel_align() * dtype_bits(t.dtype.value);  // alignment in bits
  int lo = p == Path::cp_async ? 32 : 8;
  bool pow2 = (bytes_x8 & (bytes_x8 - 1)) == 0;
  if (pow2 && bytes_x8 >= lo && bytes_x8 <= 128) return true;
  int best = std::max(1, std::min(128, 1 << (31 - __builtin_clz(std::max(bytes_x8, 1)))) / dtype_bits(t.dtype.value));
  diags.report(RuleId::C214, t.align.span,
               fmt::format("`{}` is aligned to {} `{}` element{} = {} bits; {} move {} bytes at a time", t.name.value,
                           t.align.value, dtype_name(t.dtype.value), t.align.value == 1 ? "" : "s", bytes_x8,
                           p == Path::cp_async ? "cp.async loads" : "epilogue accesses",
                           p == Path::cp_async ? "4, 8 or 16" : "1, 2, 4, 8 or 16"),
               bytes_x8 < lo ? fmt::format("let the kernel pad it (`{} pad`), or pad `{}`'s leading dimension to an even "
                                           "number of elements and declare `align({})`",
                                           t.name.value, t.name.value, lo / dtype_bits(t.dtype.value))
                             : fmt::format("declare `align({})`", std::max(best, 1)));
  return false;
}

void check_operand(const TensorDecl& t, Path p, DiagEngine& diags) {
  if (p == Path::tma_load || p == Path::tma_store) {
    int before = diags.error_count();
    check_tma(t, p == Path::tma_load, diags);
    if (diags.error_count() > before) return;
  } else if (!check_vector(t, p, diags)) {
    return;
  }
  const Extent& e = t.dims[contiguous_dim(t)];
  if (e.fixed() && e.size % t.align.value != 0) {
    diags.report(RuleId::C205, e.span,
                 fmt::format("`{}`'s contiguous extent `{}` is not a multiple of its alignment `{}`: rows would "
                             "start at unaligned addresses",
                             t.name.value, e.size, t.align.value),
                 fmt::format("pad the extent to {} or store `{}` with the other layout",
                             (e.size + t.align.value - 1) / t.align.value * t.align.value, t.name.value));
  }
}

}  // namespace

/// C415: `pad` copies A and B in and D out; other epilogue tensors are read or written in place.
void check_padding(const KernelConfig& cfg, DiagEngine& diags) {
  for (const EpiOp& op : cfg.epilogue) {
    if (!op.tensor || !op.tensor->padded.value || op.kind == EpiKind::store) continue;
    diags.report(RuleId::C415, op.tensor->padded.span,
                 fmt::format("`pad` applies to A, B and the output D, not to `{}`", op.tensor->name.value),
                 fmt::format("remove `pad` and give `{}` rows the epilogue can access", op.tensor->name.value));
  }
}

void check_alignment(const KernelConfig& cfg, DiagEngine& diags) {
  check_padding(cfg, diags);
  check_operand(cfg.a, path_of(cfg, true, true), diags);
  check_operand(cfg.b, path_of(cfg, true, true), diags);
  for (const EpiOp& op : cfg.epilogue)
    if (op.tensor) check_operand(*op.tensor, path_of(cfg, false, op.kind == EpiKind::residual), diags);
}

}  // namespace ucut::rules
