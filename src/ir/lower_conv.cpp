// ir/lower_conv.cpp — the operand and output shapes of convolutions, and the layout rule that keeps
// channels-last tensors and row/column-major matrices apart (L013, L017, C405).
#include <fmt/format.h>

#include "ir/lower_util.h"

namespace ucut::lowering {
namespace {

std::string show(const Extent& e) { return e.fixed() ? std::to_string(e.size) : e.symbol; }
bool same(const Extent& x, const Extent& y) { return x.symbol == y.symbol && x.size == y.size; }

/// Implied layouts of convolution tensors are channels-last; an explicit row/col is an error.
void require_channels_last(const KernelConfig& cfg, TensorDecl& t, DiagEngine& diags) {
  if (t.layout.value == Layout::channels_last) return;
  if (t.layout.span.implied) {
    t.layout.value = Layout::channels_last;
    return;
  }
  diags.report(RuleId::L017, t.layout.span,
               fmt::format("`{}` is a tensor of `{}`, which is channels-last, not `{}`", t.name.value,
                           op_name(cfg.op.value), layout_name(t.layout.value)),
               "drop the layout (channels-last is the default for convolution tensors) or write `channels_last`");
  throw LowerError{};
}

void require_rank(const KernelConfig& cfg, const TensorDecl& t, char role, DiagEngine& diags) {
  size_t rank = static_cast<size_t>(op_spatial_dims(cfg.op.value)) + 2;
  if (t.dims.size() == rank) return;
  diags.report(RuleId::L013, t.span,
               fmt::format("`{}` has {} extents; `{}` tensors have {}", t.name.value, t.dims.size(),
                           op_name(cfg.op.value), rank),
               fmt::format("write `{}: {}[{}]`", t.name.value, dtype_name(t.dtype.value),
                           conv_extent_names(cfg.op.value, role)));
  throw LowerError{};
}

}  // namespace

void check_conv_operands(KernelConfig& cfg, DiagEngine& diags) {
  require_rank(cfg, cfg.a, 'X', diags);
  require_rank(cfg, cfg.b, 'W', diags);
  require_channels_last(cfg, cfg.a, diags);
  require_channels_last(cfg, cfg.b, diags);
  const Extent& cx = cfg.a.dims.back();
  const Extent& cw = cfg.b.dims.back();
  if (!same(cx, cw)) {
    Diagnostic& d = diags.report(
        RuleId::L013, cw.span,
        fmt::format("the filter's channel extent `{}` differs from the activation's `{}`", show(cw), show(cx)),
        fmt::format("W is [{}]: its last extent must be `{}`", conv_extent_names(cfg.op.value, 'W'), show(cx)));
    d.notes.push_back(Label{cx.span, "the activation's channels"});
    throw LowerError{};
  }
}

void check_conv_output(const KernelConfig& cfg, TensorDecl& t, DiagEngine& diags) {
  size_t rank = static_cast<size_t>(op_spatial_dims(cfg.op.value)) + 2;
  const Extent& n = cfg.a.dims.front();
  const Extent& k = cfg.b.dims.front();
  if (t.dims.size() != rank || !same(t.dims.front(), n) || !same(t.dims.back(), k)) {
    std::string want(conv_extent_names(cfg.op.value, 'Y'));
    want.replace(0, 1, show(n));
    want.replace(want.size() - 1, 1, show(k));
    diags.report(RuleId::C405, t.span,
                 fmt::format("`{}` must be declared [{}]: the batch of `{}`, output pixels, the filter count of `{}`",
                             t.name.value, want, cfg.a.name.value, cfg.b.name.value),
                 fmt::format("write `{}: {}[{}]`", t.name.value, dtype_name(t.dtype.value), want));
    throw LowerError{};
  }
  require_channels_last(cfg, t, diags);
}

void check_matrix_layout(const KernelConfig& cfg, const TensorDecl& t, DiagEngine& diags) {
  if (t.layout.value != Layout::channels_last) return;
  diags.report(RuleId::L017, t.layout.span,
               fmt::format("`{}` is a matrix of `{}`: it is `row` or `col`, not channels-last", t.name.value,
                           op_name(cfg.op.value)),
               "write `row` or `col`; channels-last tensors belong to `conv1d`, `conv2d` and `conv3d`");
  throw LowerError{};
}

}  // namespace ucut::lowering
