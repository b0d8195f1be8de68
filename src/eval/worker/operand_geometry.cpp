// eval/worker/operand_geometry.cpp — GEMM and convolution operands as measure_shape sees them.
#include "eval/worker/operand_geometry.h"

namespace ucut::worker {

OperandGeometry operand_geometry(const ProblemDesc& p, const GemmShape& s) {
  OperandGeometry g;
  g.e = {s.batch, s.m, s.n, s.k};
  if (s.is_conv()) {
    const ConvShape& c = s.conv;
    g.conv = c;
    g.a = {1, c.x_elements() / c.c, c.c, Layout::channels_last};
    g.b = {1, c.k * c.filter_taps(), c.c, Layout::channels_last};
    g.lda = g.ldb = c.c;
    return g;
  }
  g.a = {s.batch, s.m, s.k, p.a.layout};
  g.b = {s.batch, s.k, s.n, p.b.layout};
  g.lda = p.a.layout == Layout::row ? s.k : s.m;
  g.ldb = p.b.layout == Layout::row ? s.n : s.k;
  return g;
}

ucut_conv_args conv_args(const ConvShape& s) {
  auto i32 = [](int64_t v) { return static_cast<int32_t>(v); };
  ucut_conv_args a{};
  a.spatial_dims = s.dims;
  a.n = i32(s.n), a.c = i32(s.c), a.k = i32(s.k);
  a.d = i32(s.in[0]), a.h = i32(s.in[1]), a.w = i32(s.in[2]);
  a.t = i32(s.filter[0]), a.r = i32(s.filter[1]), a.s = i32(s.filter[2]);
  a.z = i32(s.out(0)), a.p = i32(s.out(1)), a.q = i32(s.out(2));
  for (int i = 0; i < 3; ++i) {
    a.pad[i] = i32(s.pad[i]);
    a.stride[i] = i32(s.stride[i]);
    a.dilation[i] = i32(s.dilation[i]);
  }
  return a;
}

}  // namespace ucut::worker
