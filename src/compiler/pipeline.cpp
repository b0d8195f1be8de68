// compiler/pipeline.cpp — the stages in order; nothing else knows the order.
#include "compiler/pipeline.h"

#include "check/check.h"
#include "dsl/parser.h"
#include "emit/memory/registry.h"
#include "emit/pipeline.h"
#include "ir/lower.h"

namespace ucut {
namespace {

bool memory_family_kernel(const KernelAst& k) {
  std::optional<OpKind> op = find_op(k.op.name.value);
  return op && memory_family(op_family(*op));
}

}  // namespace

Compilation compile_spec(const SourceFile& src, StopAfter stop) {
  Compilation c;
  c.ast = parse_with_recovery(src, c.diags);
  if (!c.ast || stop == StopAfter::parse) return c;
  if (c.ast->pipeline) {
    c.pipeline = lower_pipeline(src, *c.ast, c.diags);
    if (!c.pipeline || stop == StopAfter::lower) return c;
    check(*c.pipeline, c.diags);
    if (c.diags.has_errors() || stop == StopAfter::check) return c;
    c.kernel = emit_pipeline(src, *c.pipeline);
    return c;
  }
  const KernelAst& kernel = c.ast->kernels.front();
  if (memory_family_kernel(kernel)) {
    c.memop = lower_memop(src, kernel, c.diags);
    if (!c.memop || stop == StopAfter::lower) return c;
    check(*c.memop, c.diags);
    if (c.diags.has_errors() || stop == StopAfter::check) return c;
    c.kernel = emit_memop(src, *c.memop);
    return c;
  }
  c.config = lower(src, kernel, c.diags);
  if (!c.config || stop == StopAfter::lower) return c;
  check(*c.config, c.diags);
  if (c.diags.has_errors() || stop == StopAfter::check) return c;
  const Backend* backend = backend_for(*c.config);
  if (backend) c.kernel = backend->emit(src, *c.config);
  return c;
}

}  // namespace ucut
