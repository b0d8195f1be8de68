// check/check.cpp — runs the rule families in dependency order.
#include "check/check.h"

namespace ucut {

void check(const KernelConfig& cfg, DiagEngine& diags) {
  // The rules report into a scratch engine first, so fixes that need every rule's verdict can be attached.
  DiagEngine found;
  rules::check_all(cfg, found);
  std::vector<Diagnostic> out = found.diagnostics();
  rules::attach_tile_fix(cfg, out);
  for (Diagnostic& d : out) {
    Diagnostic& kept = diags.report(d.rule, d.primary, std::move(d.message));
    kept.hint = std::move(d.hint);
    kept.notes = std::move(d.notes);
  }
}

namespace rules {

void check_all(const KernelConfig& cfg, DiagEngine& diags) {
  int before = diags.error_count();
  rules::check_arch(cfg, diags);
  if (diags.error_count() > before) return;  // the other families assume a backend exists for these types
  rules::check_conversions(cfg, diags);
  rules::check_channel_fold(cfg, diags);
  if (cfg.conv() && op_conv_grouping(cfg.op.value) == ConvGrouping::depthwise) {
    rules::check_depthwise(cfg, diags);  // its own kernel (a direct convolution): every rule it needs
    return;
  }
  if (cfg.conv()) {
    rules::check_conv(cfg, diags);
    if (diags.error_count() > before) return;  // the families below assume a kernel CUTLASS has
  }
  if (cfg.grouped()) {
    rules::check_grouped(cfg, diags);
    if (diags.error_count() > before) return;  // the families below assume a kernel CUTLASS has
  }
  rules::check_reductions(cfg, diags);
  if (diags.error_count() > before) return;
  if (cfg.backend() == BackendKind::sm80) {
    rules::check_sm80(cfg, diags);
    rules::check_alignment(cfg, diags);
    rules::check_swizzle(cfg, diags);
    rules::check_epilogue(cfg, diags);
    return;
  }
  rules::check_tile(cfg, diags);
  bool tile_ok = diags.error_count() == before;
  rules::check_alignment(cfg, diags);
  rules::check_schedule(cfg, diags);
  rules::check_epilogue(cfg, diags);
  if (tile_ok && diags.error_count() == before) rules::check_smem(cfg, diags);  // the model needs a legal tile
}

}  // namespace rules

}  // namespace ucut
