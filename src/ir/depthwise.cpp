// ir/depthwise.cpp — see depthwise.h. The arithmetic follows CUTLASS 4.2's conv/threadblock
// (depthwise_mma_core_with_lane_access_size.h thread maps, depthwise_direct_conv_params.h activation tile,
// depthwise_fprop_filter_tile_access_iterator_direct_conv_optimized.h kFilterSize).
#include "ir/depthwise.h"

#include <algorithm>

namespace ucut {

const std::vector<DepthwiseTile>& depthwise_tiles() {
  static const std::vector<DepthwiseTile> tiles = {{16, 4, 4, 4}, {64, 8, 8, 3}};
  return tiles;
}

std::optional<DepthwiseTile> depthwise_tile(int tile_m) {
  for (const DepthwiseTile& t : depthwise_tiles())
    if (t.tile_m == tile_m) return t;
  return std::nullopt;
}

const std::vector<int>& depthwise_channel_tiles() {
  static const std::vector<int> n = {16, 32, 64};
  return n;
}

std::optional<std::array<int, 2>> depthwise_filter(const KernelConfig& cfg) {
  if (cfg.b.dims.size() != 4) return std::nullopt;
  const Extent& r = cfg.b.dims[1];
  const Extent& s = cfg.b.dims[2];
  if (!r.fixed() || !s.fixed()) return std::nullopt;
  return std::array<int, 2>{static_cast<int>(r.size), static_cast<int>(s.size)};
}

std::array<int, 3> depthwise_default_tile(const KernelConfig& cfg) {
  auto f = depthwise_filter(cfg);
  return {64, 64, f ? (*f)[0] * (*f)[1] : 9};
}

std::array<int, 3> depthwise_warp_tile(const std::array<int, 3>& tile) {
  return {tile[0] / kDepthwiseWarps, tile[1], tile[2]};
}

DepthwiseSmem depthwise_smem(const KernelConfig& cfg, const DepthwiseTile& tile, std::array<int, 2> filter) {
  constexpr int kThreads = kDepthwiseWarps * 32;
  const int bytes = dtype_bits(cfg.a.dtype.value) / 8;
  const int per_access = 16 / bytes;  // every global load is 16 bytes
  const int n = cfg.tile.value[1];
  const int contiguous = std::max(1, n / per_access);  // threads across one pixel's N channels
  const int r = filter[0], s = filter[1];  // named, not bound: lambdas below capture them
  DepthwiseSmem m;
  m.capacity = arch_info(cfg.arch.value).smem_bytes;
  // Activation tile of one output patch at a stride (dilation 1); the epilogue stages its M x N accumulators in
  // the same buffer.
  auto activation = [&](int stride) {
    int pixels = ((tile.out_p - 1) * stride + r) * ((tile.out_q - 1) * stride + s);
    int loads = (contiguous * pixels + kThreads - 1) / kThreads;
    return std::max(loads * per_access * kThreads * bytes, tile.tile_m * n * dtype_bits(cfg.acc.value) / 8);
  };
  m.activation_bytes = activation(1);
  // The filter: N x (R * S), loaded by rows of kThreads / contiguous taps.
  int rows_per_pass = std::max(1, kThreads / contiguous);
  int passes = (r * s + rows_per_pass - 1) / rows_per_pass;
  m.filter_bytes = passes * per_access * kThreads * bytes;
  // `auto`: the tile's default, fewer where that lets stride-2 problems (MobileNet's downsampling layers) fit too.
  int fit = (m.capacity - m.filter_bytes) / m.activation_bytes;
  int fit_stride2 = (m.capacity - m.filter_bytes) / activation(2);
  int stages = std::min(tile.default_stages, fit_stride2 >= 2 ? fit_stride2 : fit);
  m.stages = cfg.stages.value > 0 ? cfg.stages.value : std::max(2, stages);
  m.total_bytes = m.stages * m.activation_bytes + m.filter_bytes;
  return m;
}

}  // namespace ucut
