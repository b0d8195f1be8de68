// emit/memory/registry.cpp — see registry.h: the family of the config's operator picks its emitter.
#include "emit/memory/registry.h"

#include "emit/memory/memop_api.h"

#include "support/error.h"

namespace ucut {

namespace memory {
EmittedKernel emit_map(const SourceFile& src, const MemOpConfig& m);     // map.cpp
EmittedKernel emit_reduce(const SourceFile& src, const MemOpConfig& m);  // reduce.cpp
EmittedKernel emit_reduce_axes(const SourceFile& src, const MemOpConfig& m);  // reduce_axes.cpp
EmittedKernel emit_rownorm(const SourceFile& src, const MemOpConfig& m);  // rownorm.cpp
EmittedKernel emit_scan(const SourceFile& src, const MemOpConfig& m);    // scan.cpp
EmittedKernel emit_window(const SourceFile& src, const MemOpConfig& m);  // window.cpp
EmittedKernel emit_library(const SourceFile& src, const MemOpConfig& m);  // library.cpp
EmittedKernel emit_sparse(const SourceFile& src, const MemOpConfig& m);  // sparse.cpp
}

namespace {

EmittedKernel emit_family(const SourceFile& src, const MemOpConfig& m) {
  switch (op_family(m.op.value)) {
    case OpFamily::map:
      return memory::emit_map(src, m);
    case OpFamily::reduce:  // per-axis when `over` keeps an extent
      return m.reduce->over.empty() || reduce_axes(m).kept.empty() ? memory::emit_reduce(src, m)
                                                                     : memory::emit_reduce_axes(src, m);
    case OpFamily::rownorm:
      return memory::emit_rownorm(src, m);
    case OpFamily::scan:
      return memory::emit_scan(src, m);
    case OpFamily::window:
      return memory::emit_window(src, m);
    case OpFamily::library:
      return memory::emit_library(src, m);
    case OpFamily::sparse:
      return memory::emit_sparse(src, m);
    case OpFamily::gemm:
    case OpFamily::conv:
      break;
  }
  UC_UNREACHABLE() << "emit_memop on operator " << op_name(m.op.value);
}

}  // namespace

EmittedKernel emit_memop(const SourceFile& src, const MemOpConfig& m) {
  EmittedKernel k = emit_family(src, m);
  k.code += memop_api_block(src, m, k.kernel_namespace);
  return k;
}

}  // namespace ucut
