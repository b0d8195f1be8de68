// ir/memop_window.cpp — see memop_window.h: the window family's names, windowed extents, run-time sizes,
// canonical form and IR dump.
#include "ir/memop_window.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/canonical.h"
#include "ir/enum_table.h"
#include "ir/memop.h"
#include "support/error.h"

namespace ucut {
namespace {

constexpr std::pair<WindowOp, std::string_view> kWindowOps[] = {
    {WindowOp::sum, "sum"}, {WindowOp::max, "max"}, {WindowOp::avg, "avg"}};
constexpr std::pair<WindowTaps, std::string_view> kWindowTaps[] = {{WindowTaps::box, "box"},
                                                                   {WindowTaps::star, "star"}};
constexpr std::pair<WindowEdge, std::string_view> kWindowEdges[] = {
    {WindowEdge::copy, "copy"}, {WindowEdge::valid, "valid"}, {WindowEdge::clip, "clip"}};


/// Value k of a per-extent list: its own, the one value given for every extent, or nullptr (not given).
const WindowInt* nth(const std::vector<WindowInt>& list, size_t k) {
  if (list.empty()) return nullptr;
  return list.size() == 1 ? &list.front() : k < list.size() ? &list[k] : nullptr;
}

std::string int_code(const WindowInt& v) { return v.literal() ? std::to_string(v.value) : "n_" + v.name; }

std::string list_text(const std::vector<WindowInt>& list) {
  std::string out;
  for (const WindowInt& v : list) out += (out.empty() ? "" : ", ") + v.text();
  return out;
}

}  // namespace

std::string_view window_op_name(WindowOp op) { return name_of(kWindowOps, op); }
std::optional<WindowOp> find_window_op(std::string_view name) { return find_in(kWindowOps, name); }
std::string_view window_taps_name(WindowTaps t) { return name_of(kWindowTaps, t); }
std::optional<WindowTaps> find_window_taps(std::string_view name) { return find_in(kWindowTaps, name); }
std::string_view window_edge_name(WindowEdge e) { return name_of(kWindowEdges, e); }
std::optional<WindowEdge> find_window_edge(std::string_view name) { return find_in(kWindowEdges, name); }

std::vector<size_t> window_dims(const MemOpConfig& m) {
  const std::vector<Extent>& dims = m.input().dims;
  const std::vector<Spanned<std::string>>& over = m.window->over;
  std::vector<size_t> out;
  for (size_t d = 0; d < dims.size(); ++d)
    if (over.empty() || std::any_of(over.begin(), over.end(), [&](const Spanned<std::string>& s) {
          return !dims[d].fixed() && s.value == dims[d].symbol;
        }))
      out.push_back(d);
  return out;
}

std::vector<size_t> window_inner_dims(const MemOpConfig& m) {
  const std::vector<size_t> dims = window_dims(m);
  std::vector<size_t> out;
  for (size_t d = dims.empty() ? 0 : dims.back() + 1; d < m.input().dims.size(); ++d) out.push_back(d);
  return out;
}

bool window_dims_adjacent(const MemOpConfig& m) {
  const std::vector<size_t> dims = window_dims(m);
  return !dims.empty() && dims.back() - dims.front() + 1 == dims.size();
}

std::string window_size_code(const MemOpConfig& m, size_t k) {
  const WindowSpec& w = *m.window;
  if (w.taps.value == WindowTaps::star) return "3";
  if (const WindowInt* v = nth(w.size, k)) return int_code(*v);
  if (w.weights) {
    const TensorDecl& weights = m.inputs[*w.weights];
    size_t rank = window_dims(m).size();
    if (weights.dims.size() == rank) {
      const Extent& e = weights.dims[k];
      return e.fixed() ? std::to_string(e.size) : "n_" + e.symbol;
    }
  }
  return "1";
}

std::string window_stride_code(const MemOpConfig& m, size_t k) {
  const WindowInt* v = nth(m.window->stride, k);
  return v ? int_code(*v) : "1";
}

std::string window_pad_code(const MemOpConfig& m, size_t k) {
  const WindowInt* v = nth(m.window->pad, k);
  return v ? int_code(*v) : "0";
}

std::string window_out_extent_code(const MemOpConfig& m, size_t k) {
  const Extent& in = m.input().dims[window_dims(m)[k]];
  const std::string n = in.fixed() ? std::to_string(in.size) : "n_" + in.symbol;
  switch (m.window->edge.value) {
    case WindowEdge::copy:
      return n;
    case WindowEdge::valid:
      return fmt::format("{} - {} + 1", n, window_size_code(m, k));
    case WindowEdge::clip:
      return fmt::format("({} + 2 * {} - {}) / {} + 1", n, window_pad_code(m, k), window_size_code(m, k),
                         window_stride_code(m, k));
  }
  UC_UNREACHABLE() << "WindowEdge " << static_cast<int>(m.window->edge.value);
}

std::string window_out_extent_text(const MemOpConfig& m, size_t k) {
  std::string code = window_out_extent_code(m, k);
  for (size_t at = code.find("n_"); at != std::string::npos; at = code.find("n_", at)) code.erase(at, 2);
  return code;
}

std::optional<std::vector<int64_t>> window_output_extents(const MemOpConfig& m,
                                                          const std::map<std::string, int64_t>& values) {
  const WindowSpec& w = *m.window;
  auto value = [&](const std::string& name) -> std::optional<int64_t> {
    auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  auto of = [&](const WindowInt* v, int64_t fallback) -> std::optional<int64_t> {
    return !v ? fallback : v->literal() ? v->value : value(v->name);
  };
  std::vector<int64_t> out;
  for (const Extent& e : m.input().dims) {
    std::optional<int64_t> n = e.fixed() ? e.size : value(e.symbol);
    if (!n) return std::nullopt;
    out.push_back(*n);
  }
  const std::vector<size_t> dims = window_dims(m);
  if (w.edge.value == WindowEdge::copy || w.taps.value == WindowTaps::star) return out;
  for (size_t k = 0; k < dims.size(); ++k) {
    std::optional<int64_t> size = of(nth(w.size, k), 1);
    if (w.size.empty() && w.weights) {
      const TensorDecl& weights = m.inputs[*w.weights];
      if (weights.dims.size() != dims.size()) return std::nullopt;
      size = weights.dims[k].fixed() ? weights.dims[k].size : value(weights.dims[k].symbol);
    }
    const bool clip = w.edge.value == WindowEdge::clip;
    std::optional<int64_t> stride = clip ? of(nth(w.stride, k), 1) : 1, pad = clip ? of(nth(w.pad, k), 0) : 0;
    if (!size || !stride || !pad || *size < 1 || *stride < 1 || *pad < 0) return std::nullopt;
    int64_t& o = out[dims[k]];
    if (o + 2 * *pad < *size) return std::nullopt;
    o = (o + 2 * *pad - *size) / *stride + 1;  // a valid window's: stride 1, pad 0
  }
  return out;
}

std::vector<std::string> window_extent_symbols(const MemOpConfig& m) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (const TensorDecl& t : m.inputs)
    for (const Extent& e : t.dims) add(e.symbol);
  for (const auto* list : {&m.window->size, &m.window->stride, &m.window->pad})
    for (const WindowInt& v : *list) add(v.name);
  return out;
}

nlohmann::json canonical_window(const WindowSpec& w) {
  auto ints = [](const std::vector<WindowInt>& list) {
    nlohmann::json j = nlohmann::json::array();
    for (const WindowInt& v : list)
      j.push_back(v.literal() ? nlohmann::json(v.value) : nlohmann::json(v.name));
    return j;
  };
  nlohmann::json over = nlohmann::json::array();
  for (const Spanned<std::string>& s : w.over) over.push_back(s.value);
  return {{"op", window_op_name(w.op.value)},
          {"edge", window_edge_name(w.edge.value)},
          {"taps", window_taps_name(w.taps.value)},
          {"weights", w.weights ? nlohmann::json(*w.weights) : nlohmann::json()},
          {"size", ints(w.size)},
          {"stride", ints(w.stride)},
          {"pad", ints(w.pad)},
          {"over", over},
          {"acc", dtype_name(w.acc.value)}};
}

std::string dump_window_ir(const SourceFile& src, const MemOpConfig& m) {
  const WindowSpec& w = *m.window;
  std::string o = fmt::format("  window {} {}\n", window_op_name(w.op.value), span_text(src, w.op.span));
  o += fmt::format("    taps {} {}\n", window_taps_name(w.taps.value), span_text(src, w.taps.span));
  o += fmt::format("    edge {} {}\n", window_edge_name(w.edge.value), span_text(src, w.edge.span));
  if (w.weights)
    o += fmt::format("    weights {} {}\n", m.inputs[*w.weights].name.value, span_text(src, w.weights_span));
  if (!w.size.empty()) o += fmt::format("    size ({}) {}\n", list_text(w.size), span_text(src, w.size_span));
  if (!w.stride.empty())
    o += fmt::format("    stride ({}) {}\n", list_text(w.stride), span_text(src, w.stride_span));
  if (!w.pad.empty()) o += fmt::format("    pad ({}) {}\n", list_text(w.pad), span_text(src, w.pad_span));
  if (!w.over.empty()) {
    std::string over;
    for (const Spanned<std::string>& s : w.over) over += (over.empty() ? "" : ", ") + s.value;
    o += fmt::format("    over ({}) {}\n", over, span_text(src, w.over_span));
  }
  o += fmt::format("    acc {} {}\n", dtype_name(w.acc.value), span_text(src, w.acc.span));
  return o;
}

}  // namespace ucut
