// check/pipeline_rules.cpp — what a pipeline needs beyond each stage being a valid kernel (C501-C507): a
// bounded number of GEMM, convolution or family stages, one output each, conversions the pipeline can run,
// intermediates it can own, and family links and views it can bind (golden cases: tests/golden/check/C50x.ucut).
#include <fmt/format.h>

#include <algorithm>

#include "abi/kernel_abi.h"
#include "check/check.h"

namespace ucut {
namespace {

void check_stage_kind(const PipelineStage& s, DiagEngine& diags) {
  const KernelConfig& c = s.config;
  if (!op_is_pipeline_stage(c.op.value)) {
    diags.report(RuleId::C502, c.op.span,
                 fmt::format("stage `{}` is a `{}`; pipeline stages are GEMMs (`gemm`, `batched_gemm`), convolutions "
                             "whose output is an activation (forward, transposed, grouped, depthwise) or memory-bound "
                             "family kernels (map, reduce, rownorm, scan, window)",
                             c.name.value, op_name(c.op.value)),
                 "run this operator as a kernel of its own (`kernel NAME : ARCH`)");
    return;
  }
  const EpiOp* extra = c.reductions().empty() ? nullptr : c.reductions().front();
  for (const EpiOp& op : c.epilogue)
    if (op.kind == EpiKind::aux_store && (!extra || op.span.begin < extra->span.begin)) extra = &op;
  if (extra)
    diags.report(RuleId::C502, extra->span,
                 fmt::format("stage `{}` writes a second output; a pipeline stage's only output is its store",
                             c.name.value),
                 "store what a later stage needs and drop this stage, or run the kernel on its own");
}

/// C505: an intermediate the pipeline owns is a plain tensor.
void check_intermediate(const TensorDecl& out, const std::string& reader, DiagEngine& diags) {
  if (out.scaled.value || out.padded.value)
    diags.report(RuleId::C505, out.scaled.value ? out.scaled.span : out.padded.span,
                 fmt::format("`{}` feeds stage `{}`, and is declared `{}`", out.name.value, reader,
                             out.scaled.value ? "scaled" : "pad"),
                 "the pipeline holds intermediates packed in its workspace: drop the modifier");
}

/// The symbols of a tensor's extents (sorted) and the product of its fixed ones.
std::pair<std::vector<std::string>, int64_t> extent_terms(const TensorDecl& t) {
  std::vector<std::string> symbols;
  int64_t fixed = 1;
  for (const Extent& e : t.dims) {
    if (e.fixed()) fixed *= e.size;
    else symbols.push_back(e.symbol);
  }
  std::sort(symbols.begin(), symbols.end());
  return {symbols, fixed};
}

std::string extents_text(const TensorDecl& t) {
  std::string o;
  for (const Extent& e : t.dims) o += (o.empty() ? "" : ", ") + (e.fixed() ? std::to_string(e.size) : e.symbol);
  return "`[" + o + "]`";
}

/// C506, C507 and C505: what a family stage's links read.
void check_family_links(const PipelineConfig& p, size_t s, DiagEngine& diags) {
  const PipelineStage& st = p.stages[s];
  const MemOpConfig& m = *st.family;
  for (const FamilyLink& l : st.links) {
    const PipelineStage& from = p.stages[static_cast<size_t>(l.producer)];
    const TensorDecl& out = from.output();
    const TensorDecl& in = m.inputs[l.input];
    // A window's output extents derive from its own (the workspace sizes it by window_out_extent_code): only
    // another family's output may have an extent no stage argument gives.
    if (from.is_family() && !from.family->window) {
      const std::vector<std::string> known = from.family->extent_symbols();
      for (const Extent& e : out.dims)
        if (!e.fixed() && std::find(known.begin(), known.end(), e.symbol) == known.end()) {
          diags.report(RuleId::C506, l.link,
                       fmt::format("stage `{}` reads `{}`, whose extent `{}` the `{}` of stage `{}` does not take "
                                   "as an argument; the pipeline sizes an intermediate from its stage's extents",
                                   m.name.value, out.name.value, e.symbol, op_name(from.family->op.value),
                                   from.name().value),
                       fmt::format("make stage `{}` the pipeline's last, or run it as a kernel of its own",
                                   from.name().value));
          break;
        }
    }
    if (m.slice_of(l.input) || m.reversed_of(l.input)) {
      diags.report(RuleId::C506, l.link,
                   fmt::format("`{}` reads stage `{}`'s output through `slice` or `reverse`; a link reads the "
                               "intermediate whole",
                               in.name.value, from.name().value),
                   fmt::format("read it as `{}: {}`, or restate its extents as a view: `{}: {}[E1, E2]`",
                               in.name.value, out.name.value, in.name.value, out.name.value));
      continue;
    }
    check_intermediate(out, m.name.value, diags);
    if (!l.view) continue;
    if (l.view_modifier) {
      diags.report(RuleId::C507, *l.view_modifier,
                   fmt::format("the view {} of `{}` takes no modifiers: it reads the intermediate row-major, as "
                               "the pipeline places it",
                               extents_text(in), out.name.value),
                   "remove the modifier");
      continue;
    }
    auto [view_symbols, view_fixed] = extent_terms(in);
    auto [out_symbols, out_fixed] = extent_terms(out);
    // Equal symbols and unequal fixed products differ for every value of the symbols; other differences are
    // checked at run time (can_implement), where the extents are known.
    if (view_symbols == out_symbols && view_fixed != out_fixed) {
      Diagnostic& d = diags.report(
          RuleId::C507, l.link,
          fmt::format("the view {} of `{}` and `{}` {} differ in element count: the same symbols, and fixed "
                      "extents whose products are {} and {}",
                      extents_text(in), out.name.value, out.name.value, extents_text(out), view_fixed, out_fixed),
          fmt::format("restate extents whose product is `{}`'s element count, {}", out.name.value,
                      extents_text(out)));
      d.notes.push_back(Label{out.span, "stored here"});
    }
  }
}

void check_inputs(const PipelineConfig& p, size_t s, DiagEngine& diags) {
  const PipelineStage& st = p.stages[s];
  for (size_t i = 0; i < 2; ++i) {
    const StageInput& in = st.inputs[i];
    const TensorDecl& t = i == 0 ? st.config.a : st.config.b;
    if (in.converted())
      if (auto e = conversion_error(*in.caller_dtype, t))
        diags.report(RuleId::C504, e->span.value_or(in.link),
                     e->span ? fmt::format("{} (stage `{}`)", e->message, st.config.name.value) : e->message, e->hint);
    if (!in.linked()) continue;
    if (i == 1 && op_family(st.config.op.value) == OpFamily::conv) {
      diags.report(RuleId::C502, in.link,
                   fmt::format("stage `{}` reads `{}` as its filter `{}`; a convolution stage reads an earlier "
                               "stage's output as its activation only",
                               st.config.name.value, p.stages[static_cast<size_t>(in.producer)].output().name.value,
                               t.name.value),
                   fmt::format("declare `{}` (the caller passes the filter), and read the earlier output as `{}`",
                               t.name.value, st.config.a.name.value));
      continue;
    }
    check_intermediate(p.stages[static_cast<size_t>(in.producer)].output(), st.config.name.value, diags);
  }
}

}  // namespace

void check(const PipelineConfig& p, DiagEngine& diags) {
  if (p.stages.size() < 2 || p.stages.size() > UCUT_MAX_STAGES)
    diags.report(RuleId::C501, p.header,
                 fmt::format("pipeline `{}` has {} stage{}", p.name.value, p.stages.size(),
                             p.stages.size() == 1 ? "" : "s"),
                 p.stages.size() < 2 ? "a single stage is a kernel: write `kernel NAME : ARCH`"
                                     : fmt::format("split it into pipelines of at most {} stages", UCUT_MAX_STAGES));
  for (size_t s = 0; s < p.stages.size(); ++s) {
    if (p.stages[s].is_family()) {
      check_family_links(p, s, diags);
    } else {
      check_stage_kind(p.stages[s], diags);
      check_inputs(p, s, diags);
    }
    if (s + 1 < p.stages.size() && !p.intermediate(s)) {
      const TensorDecl& out = p.stages[s].output();
      diags.report(RuleId::C503, out.name.span,
                   fmt::format("no later stage reads `{}`, the output of stage `{}`", out.name.value,
                               p.stages[s].name().value),
                   fmt::format("read it in a later stage (`A: {0}` or `input: {0}`), or make it the last stage",
                               out.name.value));
    }
  }
  for (const PipelineStage& s : p.stages) {
    if (s.is_family()) check(*s.family, diags);
    else check(s.config, diags);
  }
}

}  // namespace ucut
