// ir/depthwise.h — the geometry of `depthwise_conv2d` as CUTLASS's direct convolution
// (conv/kernel/default_depthwise_fprop.h, DefaultDepthwiseDirect2dConvFprop with the kOptimized iterators): its CTA
// tiles, the filter it compiles in, its stage count and shared memory. Read by lower (defaults), check
// (depthwise_rules.cpp) and emit (emit/sm80/depthwise.cpp), so the three agree.
//
// The tile is the implicit GEMM's, as CUTLASS's ThreadblockShape spells it: M output pixels per CTA (a P x Q patch
// of one image), N channels per CTA (CUTLASS's "groups per CTA"), K = R * S filter taps.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "ir/kernel_config.h"

namespace ucut {

/// One CTA tile the direct convolution is built with: the CUTLASS generator's GenerateSM60_Simt_DepthwiseConv2d
/// output tiles (its 10x10 tile exists only for fixed stride and dilation), four warps each.
struct DepthwiseTile {
  int tile_m;          // output pixels per CTA
  int out_p, out_q;    // their patch: out_p rows (P) by out_q columns (Q)
  int default_stages;  // the generator's stage count for this tile
};

constexpr int kDepthwiseWarps = 4;        // warps per CTA, all along M (warp tile: tile_m / 4 pixels, N, K)
constexpr int kDepthwiseMaxFilter = 7;    // the largest R and S accepted (filters up to 7x7)

const std::vector<DepthwiseTile>& depthwise_tiles();
std::optional<DepthwiseTile> depthwise_tile(int tile_m);
/// Channels per CTA (tile N) the generator builds.
const std::vector<int>& depthwise_channel_tiles();

/// The filter's R and S when both are fixed numbers in the spec (`W: f32[C,3,3,1]`).
std::optional<std::array<int, 2>> depthwise_filter(const KernelConfig& cfg);

/// The default CTA tile {64, 64, R * S} (8 x 8 pixels of 64 channels, CUTLASS's example), and the warp tile that
/// belongs to a CTA tile: {M / 4, N, K}.
std::array<int, 3> depthwise_default_tile(const KernelConfig& cfg);
std::array<int, 3> depthwise_warp_tile(const std::array<int, 3>& tile);

/// Shared memory of one CTA (kernel/direct_convolution.h DirectConvolutionParams::get_smem_size) at stride 1 and
/// dilation 1, the least any problem needs: `stages` activation tiles ((P + R - 1) x (Q + S - 1) pixels of N
/// channels, rounded up to whole 16-byte loads of every thread) plus the filter of the CTA's channels. Larger strides
/// and dilations widen the activation tile; the kernel checks those at run time.
struct DepthwiseSmem {
  int capacity = 0;        // bytes one CTA may use on the arch
  int activation_bytes = 0;  // one stage
  int filter_bytes = 0;
  int stages = 0;          // the count the kernel uses (`with_stages(auto)`: the tile's default, fewer where
                           // that lets stride-2 problems fit, or where stride 1 needs it)
  int total_bytes = 0;
};
/// Needs a table tile and a fixed filter (check reports the others first).
DepthwiseSmem depthwise_smem(const KernelConfig& cfg, const DepthwiseTile& tile, std::array<int, 2> filter);

}  // namespace ucut
