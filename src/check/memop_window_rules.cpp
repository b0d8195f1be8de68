// check/memop_window_rules.cpp — the `window` family's rules (ir/memop_window.h): C710 window-form (the
// arguments fit together: a star sums at copied edges, weights go with a sum, sizes come from somewhere,
// strides and pads clip), C711 window-extents (the extents windowed and the output's, derived from them),
// C712 window-chain (what the chain may read, the accumulator) and C714 window-emit (the shapes the kernels
// of emit/memory/window.cpp exist for). Unknown or missing values are C710 too, reported by the lowering
// (ir/lower_memop_window.cpp). Goldens: tests/golden/check/C710.ucut ... C714.ucut.
#include <fmt/format.h>

#include <algorithm>

#include "check/check.h"

namespace ucut::rules {
namespace {

/// The inputs a chain's expression reads by name (`load(i)`, i an input), in order.
std::vector<size_t> inputs_read(const EpiExpr& e, size_t inputs) {
  std::vector<size_t> out;
  for (const ExprOp& op : e.postfix)
    if (op.code == ExprCode::load && size_t(op.value) < inputs) out.push_back(size_t(op.value));
  return out;
}

/// Whether every symbol `over` names is an extent of the first input.
bool over_known(const MemOpConfig& m) {
  const std::vector<Extent>& dims = m.input().dims;
  return std::all_of(m.window->over.begin(), m.window->over.end(), [&](const Spanned<std::string>& s) {
    return std::any_of(dims.begin(), dims.end(), [&](const Extent& e) { return e.symbol == s.value; });
  });
}

/// The output's declaration the window derives: the first input's extents, each windowed one renamed `O<sym>`
/// unless the edge copies; with what each derived symbol is.
std::pair<std::string, std::string> derived_output(const MemOpConfig& m) {
  const TensorDecl& in = m.input();
  const std::vector<size_t> dims = window_dims(m);
  std::string decl, means;
  for (size_t d = 0; d < in.dims.size(); ++d) {
    std::string e = in.dims[d].fixed() ? std::to_string(in.dims[d].size) : in.dims[d].symbol;
    auto k = std::find(dims.begin(), dims.end(), d);
    if (k != dims.end() && m.window->edge.value != WindowEdge::copy) {
      const std::string sym = "O" + e;
      means += fmt::format("{}{} = {}", means.empty() ? "" : ", ", sym,
                           window_out_extent_text(m, size_t(k - dims.begin())));
      e = sym;
    }
    decl += (decl.empty() ? "" : ", ") + e;
  }
  return {fmt::format("{}: {}[{}]", m.output().name.value, dtype_name(m.output().dtype.value), decl), means};
}

/// C710: the arguments fit together.
void check_form(const MemOpConfig& m, DiagEngine& diags) {
  const WindowSpec& w = *m.window;
  auto report = [&](Span at, std::string why, std::string fix) { diags.report(RuleId::C710, at, why, fix); };
  const bool star = w.taps.value == WindowTaps::star;
  if (star) {
    if (w.op.value != WindowOp::sum)
      report(w.op.span, "a star window sums its neighbours", "write `op = sum`");
    if (w.edge.value != WindowEdge::copy)
      report(w.edge.span, "a star window keeps its input's extents: the points at the edge keep their value",
             "write `edge = copy`");
    for (const auto& [given, at, what] : {std::tuple{w.weights.has_value(), w.weights_span, "weights"},
                                          std::tuple{!w.size.empty(), w.size_span, "size"},
                                          std::tuple{!w.stride.empty(), w.stride_span, "stride"},
                                          std::tuple{!w.pad.empty(), w.pad_span, "pad"}})
      if (given)
        report(at, fmt::format("a star window is the 2·rank neighbours at distance 1, with no `{}`", what),
               fmt::format("remove `{}`, or write `taps = box`", what));
  } else {
    if (w.weights && w.op.value != WindowOp::sum)
      report(w.weights_span,
             fmt::format("weights multiply the elements of a sum, and this window takes their {}",
                         w.op.value == WindowOp::max ? "max" : "average"),
             "write `op = sum`, or remove `weights`");
    if (w.weights && !w.size.empty())
      report(w.size_span, "the weights' extents are the window's size", "remove `size`");
    if (!w.weights && w.size.empty())
      report(m.op.span, "a box window needs its size: `size = K` or the extents of `weights`",
             "add `size = (kernel_size, kernel_size)`, or `weights = kernel` for a weighted sum");
    if (w.edge.value != WindowEdge::clip)
      for (const auto& [list, at, what] :
           {std::tuple{&w.stride, w.stride_span, "stride"}, std::tuple{&w.pad, w.pad_span, "pad"}})
        if (!list->empty())
          report(at,
                 fmt::format("`{}` places clipped windows; an `edge = {}` window moves by 1 with no pad",
                             what, window_edge_name(w.edge.value)),
                 fmt::format("write `edge = clip`, or remove `{}`", what));
  }
  const size_t rank = window_dims(m).size();
  for (const auto& [list, at, what] :
       {std::tuple{&w.size, w.size_span, "size"}, std::tuple{&w.stride, w.stride_span, "stride"},
        std::tuple{&w.pad, w.pad_span, "pad"}})
    if (list->size() > 1 && list->size() != rank)
      report(at, fmt::format("`{}` gives {} values for {} windowed extents", what, list->size(), rank),
             fmt::format("give one value for every extent, or {}", rank));
  for (size_t i = 1; i < m.inputs.size(); ++i)
    if (!w.weights || *w.weights != i)
      report(m.inputs[i].span,
             fmt::format("`{}` is neither the windowed input nor its weights: a window reads those two",
                         m.inputs[i].name.value),
             fmt::format("name it the weights (`weights = {}`), or compute it in a kernel of its own",
                         m.inputs[i].name.value));
}

/// C711: the windowed extents are the first input's, and the output's extents the ones the window derives.
void check_extents(const MemOpConfig& m, DiagEngine& diags) {
  const WindowSpec& w = *m.window;
  const TensorDecl& in = m.input();
  for (const Spanned<std::string>& s : w.over)
    if (std::none_of(in.dims.begin(), in.dims.end(), [&](const Extent& e) { return e.symbol == s.value; }))
      diags.report(RuleId::C711, s.span,
                   fmt::format("`over` names `{}`, which is no extent of `{}` [{}]", s.value, in.name.value,
                               show_dims(in)),
                   fmt::format("name extents of `{}` in `over`", in.name.value));
  if (!over_known(m)) return;
  const std::vector<size_t> dims = window_dims(m);
  if (w.weights && m.inputs[*w.weights].dims.size() != dims.size()) {
    const TensorDecl& weights = m.inputs[*w.weights];
    diags.report(RuleId::C711, weights.span,
                 fmt::format("`{}` is [{}], but the window runs along {} extents of `{}`", weights.name.value,
                             show_dims(weights), dims.size(), in.name.value),
                 fmt::format("give `{}` one extent per windowed extent", weights.name.value));
    return;
  }
  const TensorDecl& out = m.output();
  const std::vector<std::string> given = m.extent_symbols();
  std::string why;
  if (out.dims.size() != in.dims.size()) {
    why = fmt::format("it has {} extents and `{}` {}", out.dims.size(), in.name.value, in.dims.size());
  } else {
    std::vector<std::string> derived;
    for (size_t d = 0; d < in.dims.size() && why.empty(); ++d) {
      const Extent &o = out.dims[d], &i = in.dims[d];
      auto k = std::find(dims.begin(), dims.end(), d);
      bool windowed = k != dims.end() && w.edge.value != WindowEdge::copy;
      if (!windowed) {
        if (o.symbol != i.symbol || o.size != i.size)
          why = fmt::format("its extent `{}` is `{}` of the input, which the window keeps",
                            o.fixed() ? std::to_string(o.size) : o.symbol,
                            i.fixed() ? std::to_string(i.size) : i.symbol);
      } else if (o.fixed() || std::find(given.begin(), given.end(), o.symbol) != given.end() ||
                 std::find(derived.begin(), derived.end(), o.symbol) != derived.end()) {
        why = fmt::format(
            "its extent `{}` is {}, derived from the inputs' sizes, so it needs a name of its own",
            o.fixed() ? std::to_string(o.size) : o.symbol,
            window_out_extent_text(m, size_t(k - dims.begin())));
      } else {
        derived.push_back(o.symbol);
      }
    }
  }
  if (why.empty()) return;
  auto [decl, means] = derived_output(m);
  Diagnostic& d = diags.report(
      RuleId::C711, out.span,
      fmt::format("`{}` is [{}], not the extents the window stores: {}", out.name.value, show_dims(out), why),
      means.empty() ? fmt::format("declare `{}`", decl)
                    : fmt::format("declare `{}` ({}, computed at run time)", decl, means));
  d.notes.push_back(Label{in.span, "the windowed input"});
}

/// C712: the chain reads the first input only at copied edges (where the output point is the input's), never
/// the weights; the window sums in f32.
void check_chain(const MemOpConfig& m, DiagEngine& diags) {
  const WindowSpec& w = *m.window;
  if (w.acc.value != DType::f32)
    diags.report(RuleId::C712, w.acc.span.implied ? m.op.span : w.acc.span,
                 fmt::format("a window combines its elements in f32, not `{}`", dtype_name(w.acc.value)),
                 "write `acc: f32`");
  for (const EpiOp& op : m.chain) {
    if (!op.expr) continue;
    for (size_t i : inputs_read(*op.expr, m.inputs.size())) {
      if (i == 0 && w.edge.value == WindowEdge::copy) continue;
      diags.report(RuleId::C712, op.span,
                   i == 0
                       ? fmt::format("`expr({})` reads `{}`, but an `edge = {}` window's output points are "
                                     "not its input's",
                                     op.expr->text, m.inputs[0].name.value, window_edge_name(w.edge.value))
                       : fmt::format("`expr({})` reads the weights `{}`, which only the window reads",
                                     op.expr->text, m.inputs[i].name.value),
                   "read `x` (the window's value) and the scalars");
      break;
    }
  }
}

/// C714: the shapes the window kernels emit.
void check_emit(const MemOpConfig& m, DiagEngine& diags) {
  const WindowSpec& w = *m.window;
  const TensorDecl& in = m.input();
  const std::vector<size_t> dims = window_dims(m);
  if (w.taps.value == WindowTaps::star) {
    if (dims.size() != in.dims.size() || dims.size() < 2 || dims.size() > 3)
      diags.report(
          RuleId::C714, w.over.empty() ? in.span : w.over_span,
          fmt::format("a star window emits over all the extents of a 2D or 3D input, and `{}` is [{}]{}",
                      in.name.value, show_dims(in), w.over.empty() ? "" : " with `over`"),
          "declare the input [NX, NY] or [NX, NY, NZ] and remove `over`");
  } else if (over_known(m) && !dims.empty()) {  // an unknown name is C711's
    // One run of adjacent extents: the last one or two (the tiled kernels), or up to three followed by kept
    // extents, or the last three (the channels-last kernel: each thread a vector of the inner run).
    if (!window_dims_adjacent(m)) {
      std::string between;
      for (size_t d = dims.front() + 1; d < dims.back(); ++d)
        if (std::find(dims.begin(), dims.end(), d) == dims.end())
          between += (between.empty() ? "`" : ", `") +
                     (in.dims[d].fixed() ? std::to_string(in.dims[d].size) : in.dims[d].symbol) + "`";
      diags.report(RuleId::C714, w.over_span,
                   fmt::format("`over` windows extents of `{}` [{}] that {} separates; a box window runs along "
                               "one run of adjacent extents",
                               in.name.value, show_dims(in), between),
                   "window adjacent extents (`over = (H, W)` of [N, C, H, W] or of [N, H, W, C]), or move the "
                   "separating extent out of the run in the tensor's declaration");
    } else if (dims.size() > 3) {
      diags.report(RuleId::C714, w.over.empty() ? in.span : w.over_span,
                   fmt::format("a box window runs along at most 3 extents, and this one along {} of `{}` [{}]",
                               dims.size(), in.name.value, show_dims(in)),
                   "window 1, 2 or 3 extents (`over = (D, H, W)`); the others are independent planes or kept "
                   "inner extents");
    }
    if (w.edge.value == WindowEdge::copy)
      diags.report(RuleId::C714, w.edge.span,
                   "a box window with copied edges has no kernel; a star window has",
                   "write `edge = valid` or `edge = clip`, or `taps = star`");
  }
  std::vector<const TensorDecl*> tensors;
  for (const TensorDecl& t : m.inputs) tensors.push_back(&t);
  tensors.push_back(&m.output());
  for (const TensorDecl* t : tensors)
    if (t->dims.size() >= 2 && t->layout.value != Layout::row) {
      diags.report(RuleId::C714, t->layout.span,
                   fmt::format("`{}` is `{}`; a window's tensors are row-major", t->name.value,
                               layout_name(t->layout.value)),
                   "declare it `row`");
      break;
    }
  for (const ColumnSlice& s : m.slices)
    diags.report(RuleId::C714, s.span, "a window reads whole tensors, not column blocks",
                 "remove `slice(...)`");
  for (const ReversedView& r : m.reversed)
    diags.report(RuleId::C714, r.span, "a window reads whole tensors, not reversed views",
                 "remove `reverse(...)`");
  if (!m.tune.vector.span.implied)
    diags.report(
        RuleId::C714, m.tune.vector.span,
        "a window stages its input in shared memory element by element, coalesced: it takes no vector width",
        "remove `.with_vector`");
  if (!m.tune.grid.span.implied)
    diags.report(
        RuleId::C714, m.tune.grid.span,
        "a window launches one CTA per tile (a 3D star's per tile and 8 planes): it takes no grid policy",
        "remove `.with_grid`");
  const bool inner = w.taps.value == WindowTaps::box && over_known(m) && window_dims_adjacent(m) &&
                     (!window_inner_dims(m).empty() || dims.size() == 3);
  if (inner && !m.tune.items.span.implied)
    diags.report(RuleId::C714, m.tune.items.span,
                 "a window along extents followed by kept ones (or along three) gives each thread one output "
                 "point's vector of the inner run: it takes no outputs per thread",
                 "remove `.with_items`");
  const int tile = m.tune.block.value * m.tune.items.value;
  if (tile > 4096)
    diags.report(
        RuleId::C714, m.tune.items.span.implied ? m.tune.block.span : m.tune.items.span,
        fmt::format("a tile of {} threads × {} outputs is {} outputs; a window's tile holds at most 4096 "
                    "(its input tile and halo sit in shared memory)",
                    m.tune.block.value, m.tune.items.value, tile),
        fmt::format("write `.with_items({})`", std::max(1, 4096 / m.tune.block.value)));
}

}  // namespace

void check_window(const MemOpConfig& m, DiagEngine& diags) {
  check_form(m, diags);
  check_extents(m, diags);
  check_chain(m, diags);
  check_emit(m, diags);
}

}  // namespace ucut::rules
