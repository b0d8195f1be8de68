// problem/shape.cpp — see shape.h.
#include "problem/shape.h"

namespace ucut {

GemmShape conv_gemm_shape(const ConvShape& c, std::string label) {
  GemmShape s;
  s.conv = c;
  switch (c.kind) {
    case ConvKind::fprop: s.m = c.out_pixels(), s.n = c.k, s.k = c.filter_taps() * c.group_c(); break;
    case ConvKind::dgrad: s.m = c.in_pixels(), s.n = c.c, s.k = c.filter_taps() * c.group_k(); break;
    case ConvKind::wgrad: s.m = c.k, s.n = c.filter_taps() * c.group_c(), s.k = c.out_pixels(); break;
  }
  s.label = std::move(label);
  return s;
}

}  // namespace ucut
