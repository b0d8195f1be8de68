// export/export.cpp — see export.h.
#include "export/export.h"

#include "export/exportable.h"
#include "export/kernelbench_module.h"
#include "export/kernelbench_pipeline.h"
#include "export/mskb_launcher.h"
#include "export/torch_extension.h"
#include "export/torch_family_binding.h"

namespace ucut::interop {

ExportResult export_torch(const SourceFile& spec) {
  ExportResult r{compile_spec(spec, StopAfter::emit), {}};
  if (r.comp.ok() && r.comp.memop) {  // a family kernel's binding takes its tensors and scalars by name
    const MemOpConfig& m = *r.comp.memop;
    if (auto b = torch_family_binding(m, r.comp.kernel->kernel_namespace, r.comp.diags))
      r.files = torch_extension(m.name.value, m.arch.value, *r.comp.kernel, *b);
    return r;
  }
  if (r.comp.ok() && check_exportable(r.comp)) {
    const KernelConfig& cfg = *r.comp.config;
    r.files = torch_extension(cfg.name.value, cfg.arch.value, *r.comp.kernel,
                              torch_binding(cfg, r.comp.kernel->kernel_namespace));
  }
  return r;
}

ExportResult export_kernelbench(const SourceFile& spec, const suite::Checked& problem) {
  ExportResult r{compile_spec(spec, StopAfter::emit), {}};
  if (r.comp.ok() && r.comp.pipeline) {  // a pipeline problem's ModelNew (export/kernelbench_pipeline.h)
    auto text = kernelbench_pipeline_module(*r.comp.pipeline, *r.comp.kernel, problem, r.comp.diags);
    if (text) r.files.push_back({problem.problem.stem + ".py", std::move(*text)});
    return r;
  }
  if (!r.comp.ok() || !check_exportable(r.comp)) return r;
  auto text = kernelbench_module(*r.comp.config, *r.comp.kernel, problem, r.comp.diags);
  if (text) r.files.push_back({problem.problem.stem + ".py", std::move(*text)});
  return r;
}

ExportResult export_mskb(const SourceFile& spec, const std::string& task) {
  ExportResult r{compile_spec(spec, StopAfter::emit), {}};
  if (r.comp.ok() && r.comp.memop) {  // memory-bound kernels are exported as MSKB launchers only
    if (auto launcher = mskb_launcher(task, *r.comp.memop, *r.comp.kernel, r.comp.diags))
      r.files.push_back({launcher->file, std::move(launcher->source)});
    return r;
  }
  if (!r.comp.ok() || !check_exportable(r.comp)) return r;
  if (auto launcher = mskb_launcher(task, *r.comp.config, *r.comp.kernel, r.comp.diags))
    r.files.push_back({launcher->file, std::move(launcher->source)});
  return r;
}

}  // namespace ucut::interop
