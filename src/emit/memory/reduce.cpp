// emit/memory/reduce.cpp — the `reduce` family, full reductions: one pass over the elements of the first
// input (memop_reduce.inc's ucut_reduce_kernel: cub::BlockReduce per CTA, a deterministic last-CTA finish),
// each element's value `of` the inputs there (times its Simpson weight with `weights = simpson`) combined by
// the op; the chain applied to the result, which is stored. The inputs are read as a map reads them
// (memop_code.h), over the first input's extents.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/memory/memop_code.h"
#include "emit/memory/reduce_body.h"
#include "emit/memory/registry.h"
#include "support/error.h"

namespace ucut::memory {
namespace {

/// The launch shape: the spec's tunables (ir/memop.h MemTunables: threads per CTA, vectors per thread and
/// trip, the grid policy) and the most CTAs, fixed: the partials' array is this long.
struct ReduceLaunch {
  int threads;
  int items;
  bool persistent;
  int max_blocks = 2048;
};

ReduceLaunch reduce_launch(const MemTunables& t) {
  return {t.block.value, t.items.value, t.grid.value == GridPolicy::persistent};
}

/// run_reduce(caller's inputs, output, scalars, extents, stream, err, err_len): fills the Body and launches.
void write_run(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const TensorDecl& out = m.output();
  const TensorDecl& domain = m.domain();
  std::string params = run_params(m);
  std::string count;
  for (size_t d : memory_order(domain.dims.size(), domain.layout.value))
    count += (count.empty() ? "" : " * ") + extent_id(domain.dims[d]);
  w.comment(
      fmt::format("`{}` = the reduction of the {} elements, on `stream`; 0, or nonzero (why: `err`).\n"
                  "One launch at a time per process: the launches share `workspace`.",
                  out.name.value, count));
  w.open(fmt::format("int run_reduce({}cudaStream_t stream, char* err, size_t err_len)", params));
  write_body_fill(w, m, reads);
  w.line(fmt::format("body.count = {};", count));
  w.line("ucut_reduce_workspace<ReduceOp::Acc, kMaxBlocks>* work = nullptr;");
  w.open(
      "if (cudaError_t e = cudaGetSymbolAddress(reinterpret_cast<void**>(&work), workspace); e != "
      "cudaSuccess)");
  w.line("ucut_set_error(err, err_len, \"reduce: no workspace\", cudaGetErrorString(e));");
  w.line("return 1;");
  w.close();
  w.line(fmt::format(
      "return ucut_reduce_launch<ElementOut, kVector, kThreads, kItems, kPersistent, kMaxBlocks, ReduceOp, "
      "Body>(body, "
      "work, {}, body.count, stream, err, err_len);",
      tensor_id(out.name.value)));
  w.close();
}

}  // namespace

EmittedKernel emit_reduce(const SourceFile& src, const MemOpConfig& m) {
  UC_ASSERT(m.reduce) << "emit_reduce on a `" << op_name(m.op.value) << "`";
  UC_ASSERT(!is_arg_op(m.reduce->op.value)) << "a full reduction has no index to store (check: C706)";
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  std::vector<InputRead> reads;
  for (size_t i = 0; i < m.inputs.size(); ++i) reads.push_back(input_read(m, i));
  const ReduceLaunch launch = reduce_launch(m.tune);
  CppWriter w;
  write_family_opening(w, src, m,
                       {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>",
                        "<cuda_runtime.h>", "<cub/block/block_reduce.cuh>", "<cub/thread/thread_load.cuh>",
                        "<cutlass/cutlass.h>", "<cutlass/array.h>", "<cutlass/numeric_conversion.h>",
                        "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
                       {"memop_reduce.inc"});
  w.alias("ReduceOp", reduce_accumulator(m.reduce->op.value));
  const int v = m.tune.vector.value;
  w.line(fmt::format("constexpr int kVector = {};  // elements per access: {} bytes of `{}`", v,
                     v * dtype_bits(m.input().dtype.value) / 8, m.input().name.value));
  w.line(fmt::format("constexpr int kThreads = {};  // threads per block", launch.threads));
  w.line(fmt::format("constexpr int kItems = {};  // vectors per thread and loop trip", launch.items));
  w.line(fmt::format("constexpr bool kPersistent = {};  // {}", launch.persistent,
                     launch.persistent ? "at most the blocks the GPU holds at once"
                                       : "enough blocks to cover the input once"));
  w.line(fmt::format("constexpr int kMaxBlocks = {};  // the partials' array: the most blocks of a launch",
                     launch.max_blocks));
  w.line();
  write_reduce_body(w, m, reads);
  w.line();
  w.comment("The partials and the ticket of this kernel (zero-initialized; see memop_reduce.inc).");
  w.line("__device__ ucut_reduce_workspace<ReduceOp::Acc, kMaxBlocks> workspace;");
  w.line();
  write_run(w, m, reads);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
