// emit/memory/window.cpp — the `window` family (ir/memop_window.h): memop_window.inc's star stencil (a tile
// of points in shared memory, a 3D input marched plane by plane), box window (a tile of outputs over its
// staged input, the weights beside it; the direct kernel where windows do not overlap) or channels-last window
// (windowed extents followed by kept ones: a thread per vector of the inner run), each output through
// the `>>` chain in f32 (a Body struct: the run-time scalars and `finish`, which for a star also reads the
// point's own value by the first input's name). run_window takes the caller's tensors, the scalars and the
// run-time sizes (MemOpConfig::extent_symbols) and derives the output's extents from them.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/memory/memop_code.h"
#include "emit/memory/registry.h"
#include "support/error.h"

namespace ucut::memory {
namespace {

/// A star's tile is 64 points wide (two 128-byte rows of f32 per warp pair), a 2D box's 32 outputs (one warp
/// per row, so a window's staged rows are read without bank conflicts); a 1D box's is the whole CTA's.
constexpr int kStarTileCols = 64;
constexpr int kBoxTileCols = 32;
/// The planes a 3D star's CTA marches through: enough to amortize its first plane's extra read, few enough
/// that 64³ inputs still fill a GPU's SMs.
constexpr int kStarMarch = 8;

/// "star sum of u_old -> expr(...) -> u_new": the window in words, for the comment above it.
std::string description(const MemOpConfig& m) {
  const WindowSpec& w = *m.window;
  std::string out =
      fmt::format("{} {} of {} ({} edges)", window_taps_name(w.taps.value), window_op_name(w.op.value),
                  m.input().name.value, window_edge_name(w.edge.value));
  if (w.weights) out += fmt::format(" weighted by {}", m.inputs[*w.weights].name.value);
  return out + chain_text(m);
}

/// The Body: the scalars and the chain on a window's value (a star's also reads the point's value).
void write_body(CppWriter& w, const MemOpConfig& m) {
  const bool star = m.window->taps.value == WindowTaps::star;
  w.comment(fmt::format("The {}, in f32.", description(m)));
  w.open("struct Body");
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("float {};", scalar_id(sc.name.value)));
  w.comment(star ? "A point's value from the sum `x` of its neighbours and its own value."
                 : "An output from its window's value `x`.");
  w.open(star ? fmt::format("CUTLASS_DEVICE float finish(float x, float {}) const",
                            value_id(m.input().name.value))
              : std::string("CUTLASS_DEVICE float finish(float x) const"));
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(m, op));
  w.line("return x;");
  w.close();
  w.close("};");
}

/// The product of extents [from, to) of `t` as C++, "1" when empty.
std::string product(const TensorDecl& t, size_t from, size_t to) {
  std::string out;
  for (size_t d = from; d < to; ++d) out += (out.empty() ? "" : " * ") + extent_id(t.dims[d]);
  return out.empty() ? "1" : out;
}

void write_star_run(CppWriter& w, const MemOpConfig& m) {
  const TensorDecl& in = m.input();
  const bool planes = in.dims.size() == 3;
  const size_t r = planes ? 1 : 0;
  w.line(fmt::format("const ucut_window_star_shape shape{{{}, {}, {}}};",
                     planes ? extent_id(in.dims[0]) : "1", extent_id(in.dims[r]), extent_id(in.dims[r + 1])));
  w.line(
      fmt::format("return ucut_window_star_launch<ElementIn0, ElementOut, kThreads, kItems, kTileCols, "
                  "kMarch, {}, Body>({}, {}, "
                  "shape, body, stream, err, err_len);",
                  planes, tensor_id(m.caller_name(0)), tensor_id(m.output().name.value)));
}

void write_box_run(CppWriter& w, const MemOpConfig& m) {
  const WindowSpec& win = *m.window;
  const TensorDecl& in = m.input();
  const std::vector<size_t> dims = window_dims(m);
  const bool two = dims.size() == 2;
  const size_t cols = two ? 1 : 0;  // the column's index among the windowed extents
  auto pick = [&](bool rows, auto code, const char* one) {
    return rows ? (two ? code(0) : std::string(one)) : code(cols);
  };
  auto size = [&](size_t k) { return window_size_code(m, k); };
  auto stride = [&](size_t k) { return window_stride_code(m, k); };
  auto pad = [&](size_t k) { return window_pad_code(m, k); };
  auto out_extent = [&](size_t k) { return window_out_extent_code(m, k); };
  auto in_extent = [&](size_t k) { return extent_id(in.dims[dims[k]]); };
  w.line(fmt::format("const ucut_window_box_shape shape{{{}, {}, {}, {}, {},", product(in, 0, dims.front()),
                     pick(true, in_extent, "1"), pick(false, in_extent, "1"), pick(true, out_extent, "1"),
                     pick(false, out_extent, "1")));
  w.line(fmt::format("                                   {}, {}, {}, {}, {}, {}}};", pick(true, size, "1"),
                     pick(false, size, "1"), pick(true, stride, "1"), pick(false, stride, "1"),
                     pick(true, pad, "0"), pick(false, pad, "0")));
  const std::string weights =
      win.weights ? tensor_id(m.caller_name(*win.weights)) : "static_cast<const float*>(nullptr)";
  const std::string element_w = win.weights ? fmt::format("ElementIn{}", *win.weights) : "float";
  w.line(
      fmt::format("return ucut_window_box_launch<ElementIn0, {}, ElementOut, kThreads, kItems, kTileCols, "
                  "WindowOp, {}, Body>({}, "
                  "{}, {}, shape, body, stream, err, err_len);",
                  element_w, win.weights.has_value(), tensor_id(m.caller_name(0)), weights,
                  tensor_id(m.output().name.value)));
}

/// Whether a box window runs on the channels-last kernel: its windowed extents are followed by kept ones (an
/// [N, H, W, C] pooling), or are three.
bool channels_last(const MemOpConfig& m) {
  return m.window->taps.value == WindowTaps::box &&
         (!window_inner_dims(m).empty() || window_dims(m).size() == 3);
}

void write_channels_last_run(CppWriter& w, const MemOpConfig& m) {
  const WindowSpec& win = *m.window;
  const TensorDecl& in = m.input();
  const std::vector<size_t> dims = window_dims(m);
  const size_t lead = 3 - dims.size();  // the missing leading windowed extents: 1, stride 1, pad 0
  auto triple = [&](auto code, const char* missing) {
    std::string out;
    for (size_t j = 0; j < 3; ++j)
      out += (j ? ", " : "") + (j < lead ? std::string(missing) : code(j - lead));
    return "{" + out + "}";
  };
  w.line(fmt::format(
      "const ucut_window_cl_shape shape{{{}, {}, {},", product(in, 0, dims.front()),
      triple([&](size_t k) { return extent_id(in.dims[dims[k]]); }, "1"),
      triple([&](size_t k) { return window_out_extent_code(m, k); }, "1")));
  w.line(fmt::format("                                  {}, {}, {}, {}}};",
                     triple([&](size_t k) { return window_size_code(m, k); }, "1"),
                     triple([&](size_t k) { return window_stride_code(m, k); }, "1"),
                     triple([&](size_t k) { return window_pad_code(m, k); }, "0"),
                     product(in, dims.back() + 1, in.dims.size())));
  const std::string weights =
      win.weights ? tensor_id(m.caller_name(*win.weights)) : "static_cast<const float*>(nullptr)";
  const std::string element_w = win.weights ? fmt::format("ElementIn{}", *win.weights) : "float";
  w.line(fmt::format("return ucut_window_cl_launch<ElementIn0, {}, ElementOut, kThreads, WindowOp, {}, Body>({}, {}, "
                     "{}, shape, body, stream, err, err_len);",
                     element_w, win.weights.has_value(), tensor_id(m.caller_name(0)), weights,
                     tensor_id(m.output().name.value)));
}

/// run_window(caller's inputs, output, scalars, sizes, stream, err, err_len): fills the Body and launches.
void write_run(CppWriter& w, const MemOpConfig& m) {
  std::string extents;
  const TensorDecl& out = m.output();
  const std::vector<size_t> dims = window_dims(m);
  for (size_t d = 0, k = 0; d < out.dims.size(); ++d) {
    bool windowed = k < dims.size() && dims[k] == d;
    extents += (extents.empty() ? "" : ", ") +
               (windowed ? window_out_extent_text(m, k)
                         : (out.dims[d].fixed() ? std::to_string(out.dims[d].size) : out.dims[d].symbol));
    if (windowed) ++k;
  }
  w.comment(fmt::format("`{}` [{}] = the window over `{}`, on `stream`; 0, or nonzero (why: `err`).",
                        out.name.value, extents, m.input().name.value));
  w.open(fmt::format("int run_window({}cudaStream_t stream, char* err, size_t err_len)", run_params(m)));
  w.line("Body body;");
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("body.{0} = {0};", scalar_id(sc.name.value)));
  if (m.window->taps.value == WindowTaps::star)
    write_star_run(w, m);
  else if (channels_last(m))
    write_channels_last_run(w, m);
  else
    write_box_run(w, m);
  w.close();
}

}  // namespace

EmittedKernel emit_window(const SourceFile& src, const MemOpConfig& m) {
  UC_ASSERT(m.window) << "emit_window on a `" << op_name(m.op.value) << "`";
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  const WindowSpec& win = *m.window;
  const bool star = win.taps.value == WindowTaps::star;
  CppWriter w;
  write_family_opening(
      w, src, m,
      {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>", "<cuda_runtime.h>",
       "<cutlass/cutlass.h>", "<cutlass/array.h>", "<cutlass/numeric_conversion.h>",
       "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
      {"memop_window.inc"});
  const MemTunables& t = m.tune;
  const bool one_dim = !star && window_dims(m).size() == 1;
  const int tile_cols = star ? kStarTileCols : one_dim ? t.block.value * t.items.value : kBoxTileCols;
  if (!star) w.alias("WindowOp", fmt::format("ucut_window_{}", window_op_name(win.op.value)));
  w.line(fmt::format("constexpr int kThreads = {};  // threads per block", t.block.value));
  if (channels_last(m)) {
    w.comment("Channels-last: each thread one output point's vector of adjacent inner elements, no tile.");
  } else {
    w.line(fmt::format("constexpr int kItems = {};  // outputs per thread and tile", t.items.value));
    w.line(fmt::format("constexpr int kTileCols = {};  // a tile's columns: {} rows of them", tile_cols,
                       t.block.value * t.items.value / tile_cols));
  }
  if (star)
    w.line(fmt::format("constexpr int kMarch = {};  // planes a 3D tile marches through", kStarMarch));
  w.line();
  write_body(w, m);
  w.line();
  write_run(w, m);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
