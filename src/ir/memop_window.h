// ir/memop_window.h — the `window` family's part of the typed IR (ir/memop.h MemOpConfig::window): each output
// point combines a window of its first input's elements around it. Two forms:
//   star (`taps = star`, `edge = copy`): the sum of the 2·rank axis neighbours at distance 1 of every point of a
//     2D or 3D input (a heat-equation step's Laplacian), the chain applied to it, where the chain may read the
//     first input by name (the point itself); points whose star leaves the tensor keep the input's value;
//   box (`taps = box`, the default): over the extents `over` (the last one or two), `size` elements at a time
//     moved by `stride`, the input shifted by `pad` (a valid window: `edge = valid`, stride 1, no pad; a clipped
//     one: `edge = clip`, the window cut to the tensor, padding never takes part); `op = sum` (times the
//     `weights` tensor's element at each tap, when given: a cross-correlation), `op = max` or `op = avg`
//     (pooling; an average divides by the whole window's size). The extents windowed are one run of adjacent
//     extents: the last ones (NCHW), or followed by kept ones (channels-last [N, H, W, C]: window_inner_dims).
// Sizes, strides and pads are run-time ints the caller passes (a name) or literals; a weights tensor's extents
// are the window's size.
#pragma once

#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/kernel_config.h"

namespace ucut {

struct MemOpConfig;

/// How a window combines its elements: their sum (weighted when the window has weights), their max, or their
/// average (the sum over the window's size, taps in the padding counted as zeros: PyTorch's count_include_pad).
enum class WindowOp { sum, max, avg };
/// Which elements a window holds: a box (every element of a size along each windowed extent) or a star (the
/// centre's 2·rank axis neighbours at distance 1).
enum class WindowTaps { box, star };
/// What happens where a window leaves its input: `copy` (the output keeps the input's extents; such points keep
/// the input's value), `valid` (only windows wholly inside: each windowed extent n gives n − size + 1 outputs),
/// `clip` (windows at `stride`, shifted by `pad`, cut to the input: (n + 2·pad − size) / stride + 1 outputs).
enum class WindowEdge { copy, valid, clip };

std::string_view window_op_name(WindowOp op);
std::optional<WindowOp> find_window_op(std::string_view name);
std::string_view window_taps_name(WindowTaps t);
std::optional<WindowTaps> find_window_taps(std::string_view name);
std::string_view window_edge_name(WindowEdge e);
std::optional<WindowEdge> find_window_edge(std::string_view name);

/// A run-time int of a window (`size = kernel_size`): the name the caller passes it by, or a literal.
struct WindowInt {
  std::string name;  // empty for a literal
  int64_t value = 0;
  Span span;
  bool literal() const { return name.empty(); }
  std::string text() const { return literal() ? std::to_string(value) : name; }
};

/// What a `window(...)` computes before its chain (see the file comment). `size`, `stride` and `pad` hold one
/// value per windowed extent, or one for every one, or none (the default: the weights' extents, 1, 0).
struct WindowSpec {
  Spanned<WindowOp> op;
  Spanned<WindowEdge> edge;
  Spanned<WindowTaps> taps{WindowTaps::box, Span::implied_at({})};
  std::optional<size_t> weights;  // index into MemOpConfig::inputs
  Span weights_span;              // implied when not given
  std::vector<WindowInt> size, stride, pad;
  Span size_span, stride_span, pad_span;  // empty when not given
  /// The extent symbols windowed, as written; empty: every extent of the first input.
  std::vector<Spanned<std::string>> over;
  Span over_span;
  Spanned<DType> acc;
};

/// The dimensions of the first input a window runs along (those `over` names, every one without it), in order;
/// a name of no extent is left out (check: C711).
std::vector<size_t> window_dims(const MemOpConfig& m);
/// The dimensions after the windowed run (a channels-last input's channels): empty when the window runs along
/// the last extents.
std::vector<size_t> window_inner_dims(const MemOpConfig& m);
/// Whether the windowed dimensions are one run of adjacent ones.
bool window_dims_adjacent(const MemOpConfig& m);
/// The window's size, stride and pad along windowed dimension k (an index into window_dims) as C++ over the
/// run function's parameters: a literal, `n_NAME`, or the weights' extent there.
std::string window_size_code(const MemOpConfig& m, size_t k);
std::string window_stride_code(const MemOpConfig& m, size_t k);
std::string window_pad_code(const MemOpConfig& m, size_t k);
/// The output extent the window gives along windowed dimension k, as C++ (`n_N - n_K + 1`) and as words.
std::string window_out_extent_code(const MemOpConfig& m, size_t k);
std::string window_out_extent_text(const MemOpConfig& m, size_t k);
/// The output's extents at the given values of the window's extent symbols and run-time ints (by name): the
/// input's, each windowed one derived as window_out_extent_code says. nullopt when a name has no value or a
/// window gives no output there (a size or stride below 1, an extent shorter than its window).
std::optional<std::vector<int64_t>> window_output_extents(const MemOpConfig& m,
                                                          const std::map<std::string, int64_t>& values);
/// The run-time sizes of a window kernel, each once: its inputs' extent symbols in order, then the names its
/// `size`, `stride` and `pad` read (the output's windowed extents derive from them; MemOpConfig::extent_symbols).
std::vector<std::string> window_extent_symbols(const MemOpConfig& m);

/// {"op", "edge", "taps", "weights", "size", "stride", "pad", "over", "acc"} (canonical_memop's "window").
nlohmann::json canonical_window(const WindowSpec& w);
/// The IR dump's lines of a window (dump_memop_ir).
std::string dump_window_ir(const SourceFile& src, const MemOpConfig& m);

}  // namespace ucut
