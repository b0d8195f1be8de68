// problem/conv_abi.cpp — see conv_abi.h.
#include "problem/conv_abi.h"

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

std::optional<PhaseGemm> phase_gemm(const ConvShape& s) {
  if (s.kind != ConvKind::dgrad) return std::nullopt;
  const ucut_conv_args abi = conv_args(s);
  if (ucut_phases_error(abi)) return std::nullopt;
  int64_t macs_per_channel_pair = 0;  // sum over the phases of their output pixels x filter slots
  for (int32_t i = 0; i < ucut_phase_count(abi); ++i) {
    const ucut_phase p = ucut_phase_of(abi, i);
    if (p.empty) continue;
    int64_t pixels = s.n, slots = 1;
    for (const ucut_phase_dim& d : p.dim) pixels *= d.rows, slots *= d.window;
    macs_per_channel_pair += pixels * slots;
  }
  const int64_t m = s.n * int64_t(abi.d) * abi.h * abi.w;
  if (m == 0) return std::nullopt;
  return PhaseGemm{m, s.c, (macs_per_channel_pair * s.k + m - 1) / m};
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
