// check/align_rules.cpp — TMA's 16-byte rule per operand, and fixed extents against alignment (C204, C205).
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {
namespace {

/// Index of the contiguous extent of a [.., rows, cols] tensor (`row`: cols; `col`: rows).
size_t contiguous_dim(const TensorDecl& t) { return t.layout.value == Layout::row ? t.dims.size() - 1 : t.dims.size() - 2; }

/// `loaded`: A, B and the residual source C are read through TMA loads; D and aux outputs are TMA stores.
void check_operand(const TensorDecl& t, bool loaded, DiagEngine& diags) {
  int elem_bits = dtype_bits(t.dtype.value);
  int align_bits = t.align.value * elem_bits;
  int need = 128 / elem_bits;
  if (align_bits % 128 != 0) {
    Diagnostic& d = diags.report(
        RuleId::C204, t.align.span,
        fmt::format("`{}` is aligned to {} element{} = {} bytes; TMA {} need 16 bytes ({} `{}` elements)",
                    t.name.value, t.align.value, t.align.value == 1 ? "" : "s", align_bits / 8,
                    loaded ? "loads" : "stores", need, dtype_name(t.dtype.value)),
        fmt::format("declare `align({})` and pad the leading dimension to a multiple of {} (kernels for "
                    "unaligned extents are not emitted yet)",
                    need, need));
    // Defaults are always 16 bytes, so this alignment was written in the spec and can be replaced.
    d.hint->edit = Edit{t.align.span, fmt::format("align({})", need)};
    d.hint->applicability = Applicability::maybe_incorrect;
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

void check_alignment(const KernelConfig& cfg, DiagEngine& diags) {
  check_operand(cfg.a, true, diags);
  check_operand(cfg.b, true, diags);
  for (const EpiOp& op : cfg.epilogue)
    if (op.tensor) check_operand(*op.tensor, op.kind == EpiKind::residual, diags);
}

}  // namespace ucut::rules
