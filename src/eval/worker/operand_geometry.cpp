// eval/worker/operand_geometry.cpp — GEMM and convolution operands as measure_shape sees them.
#include "eval/worker/operand_geometry.h"

#include <fmt/format.h>

#include <stdexcept>

namespace ucut::worker {
namespace {

/// A channels-last tensor as a row-major [pixels, channels] matrix.
MatrixView channels_last(int64_t pixels, int64_t channels) { return {1, pixels, channels, Layout::channels_last}; }

/// The operands of a convolution of any kind (ConvKind): fprop X and W, dgrad DY and W, wgrad DY and X. W holds
/// c / groups channels per filter tap.
void conv_operands(const ConvShape& c, OperandGeometry& g) {
  MatrixView x = channels_last(c.in_pixels(), c.c), w = channels_last(c.k * c.filter_taps(), c.group_c()),
             y = channels_last(c.out_pixels(), c.k);
  switch (c.kind) {
    case ConvKind::fprop: g.a = x, g.b = w; break;
    case ConvKind::dgrad: g.a = y, g.b = w; break;
    case ConvKind::wgrad: g.a = y, g.b = x; break;
  }
  g.lda = g.a.cols;
  g.ldb = g.b.cols;
}

/// The request's channel groups must be the problem's: one for a dense convolution, c = k for a depthwise one, and
/// a divisor of c and k for a grouped one (the filter and the reference's channel ranges are sized from it).
void check_conv_groups(const ProblemDesc& p, const ConvShape& c) {
  ConvGrouping grouping = op_conv_grouping(p.op);
  bool ok = c.groups >= 1 && c.c % c.groups == 0 && c.k % c.groups == 0;
  if (grouping == ConvGrouping::dense) ok = ok && c.groups == 1;
  if (grouping == ConvGrouping::depthwise) ok = ok && c.groups == c.c && c.k == c.c;
  if (!ok)
    throw std::runtime_error(fmt::format("the request's shape has groups = {} with c = {} and k = {}, which the "
                                         "problem's {} does not have (dense: 1; depthwise: c = k; grouped: a divisor "
                                         "of c and k)",
                                         c.groups, c.c, c.k, op_name(p.op)));
}

/// The request's convolution must be the problem's kind and grouping, and its m, n, k the implicit GEMM of its
/// geometry: the output buffers and epilogue vectors are sized from m and n.
void check_conv_shape(const ProblemDesc& p, const GemmShape& s) {
  ConvKind kind = op_conv_kind(p.op);
  if (s.conv.kind != kind)
    throw std::runtime_error(fmt::format("the request's shape is a {} convolution, but the problem's {} is {}",
                                         conv_kind_name(s.conv.kind), op_name(p.op), conv_kind_name(kind)));
  check_conv_groups(p, s.conv);
  GemmShape want = conv_gemm_shape(s.conv);
  if (s.m != want.m || s.n != want.n || s.k != want.k || s.batch != 1)
    throw std::runtime_error(fmt::format("the request's shape says m, n, k, batch = {}, {}, {}, {}, but its {} "
                                         "geometry is the implicit GEMM {}, {}, {}, 1",
                                         s.m, s.n, s.k, s.batch, conv_kind_name(s.conv.kind), want.m, want.n, want.k));
}

/// A grouped GEMM: its problems packed back to back, A, B and the float copies read per problem.
void grouped_operands(const ProblemDesc& p, const GemmShape& s, OperandGeometry& g) {
  g.group = pack_group(s.groups, p.a.layout, p.b.layout, p.has_residual ? p.c.layout : p.d.layout, p.d.layout);
  g.a = {1, 1, g.group.a_elements, Layout::row};  // the packed buffers as flat vectors: sizes only
  g.b = {1, 1, g.group.b_elements, Layout::row};
  for (const PackedProblem& q : g.group.problems)
    g.parts.push_back({{1, q.m, q.n, q.k}, {1, q.m, q.k, p.a.layout}, {1, q.k, q.n, p.b.layout}, q.a_offset,
                       q.b_offset, q.d_offset});
  g.d_elements = g.group.d_elements;
}

}  // namespace

OperandGeometry operand_geometry(const ProblemDesc& p, const GemmShape& s) {
  OperandGeometry g;
  if (s.is_grouped() != (p.op == OpKind::grouped_gemm))
    throw std::runtime_error(fmt::format("the request's shape is {}grouped, but the problem is `{}`",
                                         s.is_grouped() ? "" : "not ", op_name(p.op)));
  if (s.is_grouped()) {
    grouped_operands(p, s, g);
    return g;
  }
  g.e = {s.batch, s.m, s.n, s.k};
  g.d_elements = g.e.mn();
  if (s.is_conv()) {
    check_conv_shape(p, s);
    g.conv = s.conv;
    conv_operands(s.conv, g);
  } else {
    g.a = {s.batch, s.m, s.k, p.a.layout};
    g.b = {s.batch, s.k, s.n, p.b.layout};
    g.lda = p.a.layout == Layout::row ? s.k : s.m;
    g.ldb = p.b.layout == Layout::row ? s.n : s.k;
  }
  g.parts.push_back({g.e, g.a, g.b, 0, 0, 0});
  return g;
}

}  // namespace ucut::worker
