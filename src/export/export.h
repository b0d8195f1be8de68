// export/export.h — `ucutlass export` as functions: compile a spec, refuse what cannot be exported (X001; for
// KernelBench X002-X004, X005 a warning; for MSKB X006, X007) and produce the files. Every diagnostic lands
// in the compilation's DiagEngine, at the spec's spans, so the CLI and the tests render them like `ucutlass
// check`'s.
#pragma once

#include <vector>

#include "compiler/pipeline.h"
#include "export/torch_extension.h"
#include "suite/report.h"

namespace ucut::interop {

struct ExportResult {
  Compilation comp;                 // the spec compiled to C++, and every diagnostic
  std::vector<ExportedFile> files;  // empty when anything was refused
  bool ok() const { return comp.ok() && !files.empty(); }
};

/// `export --torch`: ucut_<kernel>.py, ucut_<kernel>_binding.cpp and ucut_<kernel>_kernel.cu.
ExportResult export_torch(const SourceFile& spec);

/// `export --kernelbench`: one file, `<problem stem>.py`, holding ModelNew.
ExportResult export_kernelbench(const SourceFile& spec, const suite::Checked& problem);

/// `export --mskb`: one file, `<name>.cu` (MSKB's), holding the kernel and MSKB's `<name>_optimized` launcher
/// (export/mskb_launcher.h; X006 when a GEMM spec does not fit the task, X007 when a memory-bound kernel's
/// tensors and extents do not bind to the launcher's parameters).
ExportResult export_mskb(const SourceFile& spec, const std::string& task);

}  // namespace ucut::interop
