// export/exportable.cpp — see exportable.h.
#include "export/exportable.h"

#include <fmt/format.h>

namespace ucut::interop {

bool check_exportable(Compilation& comp) {
  if (comp.pipeline) {
    comp.diags.report(
        RuleId::X001, comp.pipeline->header,
        fmt::format("pipeline `{}` cannot be exported: its {} stages run from one entry point "
                    "(ucut_pipeline_entry) over intermediates in its own workspace, and `export` wraps "
                    "single kernels",
                    comp.pipeline->name.value, comp.pipeline->stages.size()),
        "export it for its pipeline problem (`--kernelbench PROBLEM SPEC`), each stage as a `kernel` spec "
        "of its own, or call the pipeline through the C ABI (ucut_pipeline_api)");
    return false;
  }
  if (comp.memop) {
    comp.diags.report(
        RuleId::X001, comp.memop->op.span,
        fmt::format("a `{}` kernel cannot be exported as a KernelBench ModelNew: no suite problem lowers to a "
                    "memory-bound family's kernel yet (the suite's norms, pools and softmaxes follow a GEMM or a "
                    "convolution)",
                    op_name(comp.memop->op.value)),
        "export it as a PyTorch function (`--torch`) or an MSKB launcher (`--mskb TASK`)");
    return false;
  }
  const KernelConfig& cfg = *comp.config;
  if (cfg.grouped()) {
    comp.diags.report(
        RuleId::X001, cfg.op.span,
        "a grouped GEMM cannot be exported: it reads its problem list (each problem's extents, operand "
        "pointers and leading dimensions) from device memory, which no tensor argument carries",
        "export a `gemm` or `batched_gemm` spec, or call the kernel through the C ABI (ucut_group_args)");
    return false;
  }
  if (cfg.conv() && op_conv_kind(cfg.op.value) == ConvKind::wgrad) {
    comp.diags.report(
        RuleId::X001, cfg.op.span,
        fmt::format("`{}` cannot be exported: a filter gradient's output extents are the filter's, "
                    "which neither of its tensor arguments (DY, X) gives",
                    op_name(cfg.op.value)),
        "run it with `ucutlass run` or through the C ABI (ucut_conv_args names the filter)");
    return false;
  }
  return true;
}

}  // namespace ucut::interop
