// problem/shape.h — one problem size: a GEMM's extents, a convolution's geometry, a grouped GEMM's problem list or a
// pipeline's per-stage sizes. What a problem file's `shapes` hold (problem/read.h), what the harness runs and what
// the SOL bounds and shape rules (check/shape_rules.h) are computed from.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/types.h"

namespace ucut {

/// A convolution's geometry; spatial arrays in [d, h, w] order, unused dimensions have extent 1, padding 0,
/// stride and dilation 1 (the kernel ABI's ucut_conv_args). With `groups` G > 1 the channels split into G groups:
/// W is [K, taps, C/G] and output channel k reads only the C/G input channels of group k / (K/G) (a depthwise
/// convolution is G = C = K).
struct ConvShape {
  int dims = 0;  // spatial rank 1..3; 0: not a convolution
  ConvKind kind = ConvKind::fprop;  // which tensors are operands and output (ir/types.h)
  int64_t n = 1, c = 1, k = 1;
  int64_t groups = 1;  // divides c and k
  std::array<int64_t, 3> in{1, 1, 1};      // d, h, w
  std::array<int64_t, 3> filter{1, 1, 1};  // t, r, s
  std::array<int64_t, 3> pad{0, 0, 0}, stride{1, 1, 1}, dilation{1, 1, 1};
  /// Output extent of spatial dimension i (z, p, q): (in + 2 pad - dilation (filter - 1) - 1) / stride + 1.
  int64_t out(int i) const { return (in[i] + 2 * pad[i] - dilation[i] * (filter[i] - 1) - 1) / stride[i] + 1; }
  int64_t in_pixels() const { return n * in[0] * in[1] * in[2]; }
  int64_t out_pixels() const { return n * out(0) * out(1) * out(2); }
  int64_t filter_taps() const { return filter[0] * filter[1] * filter[2]; }
  int64_t group_c() const { return c / groups; }  // input channels per group: the filter's innermost extent
  int64_t group_k() const { return k / groups; }  // output channels per group
  int64_t x_elements() const { return in_pixels() * c; }
  int64_t w_elements() const { return k * filter_taps() * group_c(); }
  int64_t y_elements() const { return out_pixels() * k; }
  /// Multiply-adds of the forward convolution, every tap counted (padding included): the same work for all three
  /// kinds, as PyTorch's FLOP counter counts it (a transposed convolution's taps over its input pixels); each output
  /// channel reads its group's C/G channels. The data gradient's implicit GEMM spans the padded output and does more.
  int64_t macs() const { return out_pixels() * k * filter_taps() * group_c(); }
  /// Element counts of the kernel's operands a, b and its output d (see ConvKind).
  int64_t a_elements() const { return kind == ConvKind::fprop ? x_elements() : y_elements(); }
  int64_t b_elements() const { return kind == ConvKind::wgrad ? x_elements() : w_elements(); }
  int64_t d_elements() const {
    return kind == ConvKind::fprop ? y_elements() : kind == ConvKind::dgrad ? x_elements() : w_elements();
  }
  /// X as channels-last extents [n, in.., c] and Y as [n, out.., k], spatial ones in [d, h, w] order, only this
  /// convolution's own.
  std::vector<int64_t> x_extents() const { return activation(false); }
  std::vector<int64_t> y_extents() const { return activation(true); }
  /// The activation a forward or transposed convolution reads (its operand a) and the one it writes: a forward
  /// convolution reads X and writes Y; a transposed one (dgrad: this forward geometry reversed) the other way.
  std::vector<int64_t> input_activation() const { return kind == ConvKind::fprop ? x_extents() : y_extents(); }
  std::vector<int64_t> output_activation() const { return kind == ConvKind::fprop ? y_extents() : x_extents(); }

 private:
  std::vector<int64_t> activation(bool y) const {
    std::vector<int64_t> e = {n};
    for (int i = 3 - dims; i < 3; ++i) e.push_back(y ? out(i) : in[static_cast<size_t>(i)]);
    e.push_back(y ? k : c);
    return e;
  }
};

/// One GEMM of a grouped GEMM's problem list.
struct GroupProblem {
  int64_t m = 0, n = 0, k = 0;
};

/// One problem size. A GEMM's m, n, k (and batch); a convolution's geometry in `conv`, with m, n, k its
/// implicit GEMM (m = output pixels, n = output channels, k = filter taps x input channels); a grouped GEMM's
/// problem list in `groups` (m, n, k, batch unused); a pipeline's GEMM per stage in `stages`, in stage order (their
/// m, n, k, batch; the outer m, n, k, batch unused, its label the shape's). A pipeline's memory-bound family stage
/// has no GEMM: its entry in `stages` stays empty (m = n = k = 0), and its extents, scalars and caller inputs follow
/// from `symbols` and `scalars` (problem/family_call.h).
struct GemmShape {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  std::string label;
  ConvShape conv;
  std::vector<GroupProblem> groups;
  std::vector<GemmShape> stages;
  std::map<std::string, int64_t> symbols;  // a pipeline's: every extent symbol's value (given, or a conv's output)
  std::map<std::string, double> scalars;   // a pipeline's: its family stages' run-time scalars, by name
  bool is_conv() const { return conv.dims > 0; }
  bool is_grouped() const { return !groups.empty(); }
  bool is_pipeline() const { return !stages.empty(); }
};

/// The implicit-GEMM shape of a convolution (m, n, k filled from the geometry and kind):
/// fprop (n·out pixels, k, taps·c), dgrad (n·in pixels, c, taps·k), wgrad (k, taps·c, n·out pixels). With groups,
/// the reduction reads one group's channels: fprop k = taps·c/G, dgrad k = taps·k/G, wgrad n = taps·c/G.
GemmShape conv_gemm_shape(const ConvShape& c, std::string label = "");

}  // namespace ucut
