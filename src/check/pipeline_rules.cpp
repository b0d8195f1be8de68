// check/pipeline_rules.cpp — what a pipeline needs beyond each stage being a valid kernel (C501-C505): a
// bounded number of GEMM or convolution stages, one output each, conversions the pipeline can run, and
// intermediates it can own.
#include <fmt/format.h>

#include "abi/kernel_abi.h"
#include "check/check.h"

namespace ucut {
namespace {

void check_stage_kind(const PipelineStage& s, DiagEngine& diags) {
  const KernelConfig& c = s.config;
  if (!op_is_pipeline_stage(c.op.value)) {
    diags.report(RuleId::C502, c.op.span,
                 fmt::format("stage `{}` is a `{}`; pipeline stages are GEMMs (`gemm`, `batched_gemm`) or convolutions "
                             "whose output is an activation (forward, transposed, grouped, depthwise)",
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
                               st.config.name.value, p.stages[static_cast<size_t>(in.producer)].config.output().name.value,
                               t.name.value),
                   fmt::format("declare `{}` (the caller passes the filter), and read the earlier output as `{}`",
                               t.name.value, st.config.a.name.value));
      continue;
    }
    const KernelConfig& producer = p.stages[static_cast<size_t>(in.producer)].config;
    const TensorDecl& out = producer.output();
    if (out.scaled.value || out.padded.value)
      diags.report(RuleId::C505, out.scaled.value ? out.scaled.span : out.padded.span,
                   fmt::format("`{}` feeds stage `{}`, and is declared `{}`", out.name.value, st.config.name.value,
                               out.scaled.value ? "scaled" : "pad"),
                   "the pipeline holds intermediates packed in its workspace: drop the modifier");
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
    check_stage_kind(p.stages[s], diags);
    check_inputs(p, s, diags);
    if (s + 1 < p.stages.size() && !p.intermediate(s)) {
      const TensorDecl& out = p.stages[s].config.output();
      diags.report(RuleId::C503, out.name.span,
                   fmt::format("no later stage reads `{}`, the output of stage `{}`", out.name.value,
                               p.stages[s].config.name.value),
                   fmt::format("read it in a later stage (`A: {}`), or make it the last stage", out.name.value));
    }
  }
  for (const PipelineStage& s : p.stages) check(s.config, diags);
}

}  // namespace ucut
