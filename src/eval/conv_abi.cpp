// eval/conv_abi.cpp — see conv_abi.h.
#include "eval/conv_abi.h"

#include <algorithm>

namespace ucut {

ucut_conv_args conv_args(const ConvShape& s) {
  auto i32 = [](int64_t v) { return static_cast<int32_t>(v); };
  ucut_conv_args a{};
  a.spatial_dims = s.dims;
  a.n = i32(s.n), a.c = i32(s.c), a.k = i32(s.k);
  a.groups = i32(s.groups);
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

std::optional<SubpixelGemm> subpixel_gemm(const ConvShape& s, bool compact) {
  const ucut_conv_args abi = conv_args(s);
  if (s.kind != ConvKind::dgrad || !ucut_is_subpixel(abi)) return std::nullopt;
  const ucut_subpixel g = ucut_subpixel_of(abi, compact);
  return SubpixelGemm{s.n * int64_t(g.extent[0]) * g.extent[1] * g.extent[2], int64_t(g.phases) * s.c,
                      int64_t(g.window[0]) * g.window[1] * g.window[2] * s.k};
}

bool pointwise_after_fold(const ConvShape& s, int fold) {
  if (s.kind != ConvKind::fprop) return false;
  for (int i = 0; i < 3 - fold; ++i)
    if (s.filter[i] != 1 || s.stride[i] != 1 || s.pad[i] != 0) return false;
  return true;
}

bool pointwise_after_fold(const std::vector<GemmShape>& shapes, int fold) {
  return !shapes.empty() && std::all_of(shapes.begin(), shapes.end(), [&](const GemmShape& s) {
    return s.is_conv() && pointwise_after_fold(s.conv, fold);
  });
}

}  // namespace ucut
