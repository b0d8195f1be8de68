// check/memop_rownorm_rules.cpp — C707 rownorm-axes: what a `rownorm` (ir/memop.h NormSpec) needs to be
// emitted: `eps` exactly where the norm adds one under its square root (layer, rms), `over` naming adjacent
// extents of the first input (so each kept index's elements are one strided run: rows, or columns), an output
// of the first input's extents, and `.with_rows` splitting a CTA into whole warps' worth of rows along a
// contiguous `over`. An unknown or missing `norm`, a missing `over` and an `eps` naming no scalar are C707 too,
// reported by the lowering (ir/lower_memop.cpp). Golden: tests/golden/check/C707.ucut.
#include <fmt/format.h>

#include <algorithm>

#include "check/check.h"

namespace ucut::rules {
namespace {

/// `eps` where layer and rms need it, nowhere else.
void check_eps(const MemOpConfig& m, DiagEngine& diags) {
  const NormSpec& n = *m.norm;
  std::string_view norm = norm_kind_name(n.norm.value);
  if (norm_takes_eps(n.norm.value) && !n.eps)
    diags.report(RuleId::C707, n.norm.span,
                 fmt::format("`norm = {}` divides by a square root that needs `eps`", norm),
                 "declare `epsilon: f32` and add `eps = epsilon`, or add a number: `eps = 1e-5`");
  if (!norm_takes_eps(n.norm.value) && n.eps)
    diags.report(RuleId::C707, n.eps->span, fmt::format("`norm = {}` adds no epsilon", norm),
                 "remove `eps = ...` (layer and rms take one)");
}

/// `over` names extents of the first input, each once, adjacent in memory.
void check_over(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl& in = m.input();
  std::vector<std::string> seen;
  for (const Spanned<std::string>& sym : m.norm->over) {
    bool known = std::any_of(in.dims.begin(), in.dims.end(), [&](const Extent& e) { return e.symbol == sym.value; });
    if (!known) {
      std::string symbols;
      for (const Extent& e : in.dims)
        if (!e.fixed()) symbols += (symbols.empty() ? "`" : ", `") + e.symbol + "`";
      diags.report(RuleId::C707, sym.span,
                   fmt::format("`over = {}` names no extent of the first input `{}` [{}]", sym.value,
                               in.name.value, show_dims(in)),
                   symbols.empty() ? fmt::format("give `{}` symbolic extents and name them", in.name.value)
                                   : fmt::format("name extents of `{}`: {}", in.name.value, symbols));
      return;
    }
    if (std::find(seen.begin(), seen.end(), sym.value) != seen.end()) {
      diags.report(RuleId::C707, sym.span, fmt::format("`over` names `{}` twice", sym.value),
                   "name each extent once");
      return;
    }
    seen.push_back(sym.value);
  }
  if (!norm_axes(m).adjacent)
    diags.report(RuleId::C707, m.norm->over_span,
                 fmt::format("`over` names extents of `{}` [{}] that are apart in memory: each kept index's "
                             "elements would not be one strided run",
                             in.name.value, show_dims(in)),
                 "normalize along adjacent extents (e.g. the last ones), or reorder the tensor's extents");
}

/// The output has the first input's extents: the norm writes one value per element.
void check_output(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl &in = m.input(), &out = m.output();
  bool same = in.dims.size() == out.dims.size();
  for (size_t d = 0; same && d < in.dims.size(); ++d)
    same = in.dims[d].symbol == out.dims[d].symbol && in.dims[d].size == out.dims[d].size;
  if (same) return;
  Diagnostic& d = diags.report(
      RuleId::C707, out.span,
      fmt::format("`{}` is [{}], but a `rownorm` writes one value per element of its first input `{}` [{}]",
                  out.name.value, show_dims(out), in.name.value, show_dims(in)),
      fmt::format("declare `{}: {}[{}]`", out.name.value, dtype_name(out.dtype.value), show_dims(in)));
  d.notes.push_back(Label{in.span, "the first input"});
}

/// `.with_rows(r)`: a CTA per row (1), or rows of Block / r threads each, a power of two up to a warp (the
/// logical warps cub::WarpReduce combines), along a contiguous `over` (the last extents in memory).
void check_rows(const MemOpConfig& m, DiagEngine& diags) {
  const Spanned<int>& rows = m.tune.rows;
  if (rows.value == 1) return;
  const NormAxes axes = norm_axes(m);
  if (axes.adjacent && !axes.inner.empty()) {
    diags.report(RuleId::C707, rows.span,
                 "`.with_rows` splits a CTA among rows, but `over` is not the last extents in memory: the "
                 "kernel walks columns",
                 "remove `.with_rows(...)`");
    return;
  }
  const int block = m.tune.block.value, threads = rows.value > 0 ? block / rows.value : 0;
  bool power_of_two = threads > 0 && (threads & (threads - 1)) == 0;
  if (rows.value < 1 || block % rows.value != 0 || !power_of_two || threads > 32) {
    Diagnostic& d = diags.report(
        RuleId::C707, rows.span,
        fmt::format("{} rows per block of {} threads; a row takes the whole block, or a power of two of "
                    "threads up to a warp (32)",
                    rows.value, block),
        fmt::format("write `{}` (a warp per row) or `1` (a block per row)", block / 32));
    if (!rows.span.implied) {
      d.hint->edit = Edit{rows.span, std::to_string(block / 32)};
      d.hint->applicability = Applicability::machine_applicable;
    }
  }
}

}  // namespace

void check_rownorm(const MemOpConfig& m, DiagEngine& diags) {
  check_eps(m, diags);
  check_over(m, diags);
  check_output(m, diags);
  check_rows(m, diags);
}

}  // namespace ucut::rules
