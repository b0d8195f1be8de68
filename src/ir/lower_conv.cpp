// ir/lower_conv.cpp — the operand and output shapes of convolutions, and the layout rule that keeps
// channels-last tensors and row/column-major matrices apart (L013, L017, C405).
#include <optional>

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

/// One extent of a convolution tensor, by position: the first or the last.
struct ExtentRef {
  const TensorDecl* t;
  bool last;
  const Extent& get() const { return last ? t->dims.back() : t->dims.front(); }
};

/// Which extents of a and b must agree, per kind: fprop X and W share C (last, last); a transposed convolution's
/// X and W share the input channels (last, first); a filter gradient's DY and X share the batch (first, first); a
/// depthwise convolution's X and W share C (last, first). A grouped convolution's W has C/G channels, not C: its
/// extents agree through the problem's group count, which the harness checks.
using ExtentPair = std::pair<ExtentRef, ExtentRef>;
std::optional<ExtentPair> shared_operand_extent(const KernelConfig& cfg) {
  switch (op_conv_grouping(cfg.op.value)) {
    case ConvGrouping::grouped: return std::nullopt;
    case ConvGrouping::depthwise: return ExtentPair{{&cfg.a, true}, {&cfg.b, false}};
    case ConvGrouping::dense: break;
  }
  switch (op_conv_kind(cfg.op.value)) {
    case ConvKind::fprop: return ExtentPair{{&cfg.a, true}, {&cfg.b, true}};
    case ConvKind::dgrad: return ExtentPair{{&cfg.a, true}, {&cfg.b, false}};
    case ConvKind::wgrad: break;
  }
  return ExtentPair{{&cfg.a, false}, {&cfg.b, false}};
}

/// Where the output's first and last extents come from: fprop Y[N of X, .., K of W]; transposed Y[N of X, .., K of
/// W (last)]; filter gradient DW[K of DY (last), .., C of X]; depthwise Y[N of X, .., C of X].
std::pair<ExtentRef, ExtentRef> output_extent_sources(const KernelConfig& cfg) {
  if (op_conv_grouping(cfg.op.value) == ConvGrouping::depthwise) return {{&cfg.a, false}, {&cfg.a, true}};
  switch (op_conv_kind(cfg.op.value)) {
    case ConvKind::fprop: return {{&cfg.a, false}, {&cfg.b, false}};
    case ConvKind::dgrad: return {{&cfg.a, false}, {&cfg.b, true}};
    case ConvKind::wgrad: break;
  }
  return {{&cfg.a, true}, {&cfg.b, true}};
}

std::string_view position(const ExtentRef& e) { return e.last ? "last" : "first"; }

/// A depthwise filter has one output channel per input channel: W[C,R,S,1].
void require_unit_multiplier(const KernelConfig& cfg, DiagEngine& diags) {
  const Extent& m = cfg.b.dims.back();
  if (m.fixed() && m.size == 1) return;
  diags.report(RuleId::L013, m.span,
               fmt::format("a depthwise filter has one channel per group: the last extent of `{}` must be 1, not `{}`",
                           cfg.b.name.value, show(m)),
               fmt::format("write `{}: {}[{}]`; a channel multiplier above 1 is a `grouped_conv2d` with G = C",
                           cfg.b.name.value, dtype_name(cfg.b.dtype.value), conv_extent_names(cfg.op.value, 'b')));
  throw LowerError{};
}

}  // namespace

void check_conv_operands(KernelConfig& cfg, DiagEngine& diags) {
  require_rank(cfg, cfg.a, 'a', diags);
  require_rank(cfg, cfg.b, 'b', diags);
  require_channels_last(cfg, cfg.a, diags);
  require_channels_last(cfg, cfg.b, diags);
  if (op_conv_grouping(cfg.op.value) == ConvGrouping::depthwise) require_unit_multiplier(cfg, diags);
  auto shared = shared_operand_extent(cfg);
  if (!shared) return;
  auto [x, y] = *shared;
  if (!same(x.get(), y.get())) {
    Diagnostic& d = diags.report(
        RuleId::L013, y.get().span,
        fmt::format("the {} extent `{}` of `{}` differs from the {} extent `{}` of `{}`", position(y), show(y.get()),
                    y.t->name.value, position(x), show(x.get()), x.t->name.value),
        fmt::format("`{}` is [{}] and `{}` is [{}] in `{}`: make the two extents the same", x.t->name.value,
                    conv_extent_names(cfg.op.value, 'a'), y.t->name.value, conv_extent_names(cfg.op.value, 'b'),
                    op_name(cfg.op.value)));
    d.notes.push_back(Label{x.get().span, "the extent it must equal"});
    throw LowerError{};
  }
}

void check_conv_output(const KernelConfig& cfg, TensorDecl& t, DiagEngine& diags) {
  size_t rank = static_cast<size_t>(op_spatial_dims(cfg.op.value)) + 2;
  auto [first, last] = output_extent_sources(cfg);
  if (t.dims.size() != rank || !same(t.dims.front(), first.get()) || !same(t.dims.back(), last.get())) {
    std::string want(conv_extent_names(cfg.op.value, 'd'));
    size_t tail = want.rfind(',') + 1;
    want.replace(tail, want.size() - tail, show(last.get()));
    want.replace(0, want.find(','), show(first.get()));
    diags.report(RuleId::C405, t.span,
                 fmt::format("`{}` must be declared [{}]: the {} extent of `{}`, then the output's spatial extents, "
                             "then the {} extent of `{}`",
                             t.name.value, want, position(first), first.t->name.value, position(last),
                             last.t->name.value),
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
               "write `row` or `col`; channels-last tensors belong to the convolution operators");
  throw LowerError{};
}

}  // namespace ucut::lowering
