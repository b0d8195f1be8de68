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
#include "emit/memory/registry.h"
#include "emit/template_paste.h"
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

std::string_view op_functor(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::mean:
      return "ucut_reduce_sum";
    case ReduceOp::max:
      return "ucut_reduce_max";
    case ReduceOp::min:
      return "ucut_reduce_min";
  }
  UC_UNREACHABLE() << "ReduceOp " << static_cast<int>(op);
}

/// "sum of (X * Y) -> sqrt -> loss": the reduction in words, for the comment above it.
std::string description(const MemOpConfig& m) {
  const ReduceSpec& r = *m.reduce;
  std::string out =
      fmt::format("{} of {}", reduce_op_name(r.op.value), r.of ? r.of->text : m.input().name.value);
  if (r.weights.value != ReduceWeights::none)
    out += fmt::format(" weighted {}", reduce_weights_name(r.weights.value));
  for (const EpiOp& op : m.chain) {
    if (op.kind == EpiKind::store) continue;
    out += " -> ";
    out += op.expr                    ? fmt::format("expr({})", op.expr->text)
           : op.kind == EpiKind::cast ? fmt::format("cast({})", dtype_name(op.dtype.value))
                                      : std::string(epi_info(op.kind).name);
  }
  return out + " -> " + m.output().name.value;
}

/// The extent symbols the body reads (`load` of a size, a mean's count, Simpson's weights): the inputs'.
std::vector<std::string> body_extents(const MemOpConfig& m) {
  std::vector<std::string> names = m.operand_names();
  return {names.begin() + static_cast<std::ptrdiff_t>(m.inputs.size() + m.scalars.size()), names.end()};
}

/// The Body: the inputs' readers, the scalars and extents, the value of one element and of a vector, and the
/// finish (a mean's division, the chain) on the combined value.
void write_body(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const ReduceSpec& r = *m.reduce;
  w.comment(fmt::format("{}, in f32.", description(m)));
  w.open("struct Body");
  for (size_t i = 0; i < m.inputs.size(); ++i)
    w.line(fmt::format("{} {};", reader_type(m, i, reads[i]), tensor_id(m.inputs[i].name.value)));
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("float {};", scalar_id(sc.name.value)));
  for (const std::string& sym : body_extents(m)) w.line(fmt::format("int64_t n_{};", sym));
  w.line("int64_t count;  // the elements reduced");
  std::string params, values, elements;
  for (const TensorDecl& in : m.inputs) {
    params += fmt::format("float {}, ", value_id(in.name.value));
    values += fmt::format("{}[j], ", value_id(in.name.value));
    elements += fmt::format("{}.element(i), ", tensor_id(in.name.value));
  }
  w.line();
  if (r.weights.value == ReduceWeights::simpson) {
    w.comment(
        "Composite Simpson's weight of element i: 1, 4, 2, 4, ..., 2, 4, 1 up to `last`, the largest index\n"
        "with an even distance from 0; past it (the last element when the count is even) 0.");
    w.open("CUTLASS_DEVICE float weight(int64_t i) const");
    w.line("const int64_t last = ((count - 3) & ~int64_t(1)) + 2;");
    w.line("if (count < 3 || i > last) return 0.0f;");
    w.line("if (i == 0 || i == last) return 1.0f;");
    w.line("return (i & 1) ? 4.0f : 2.0f;");
    w.close();
  }
  w.comment("The value of element i, from each input's value there.");
  w.open(fmt::format("CUTLASS_DEVICE float value({}int64_t i) const", params));
  w.line(fmt::format("const float x = {};", value_id(m.input().name.value)));
  std::string of = r.of ? expr_code(m, *r.of) : "x";
  w.line(r.weights.value == ReduceWeights::simpson ? fmt::format("return ({}) * weight(i);", of)
                                                   : fmt::format("return {};", of));
  w.close();
  w.comment("Elements i .. i + kVector - 1 (i a multiple of kVector).");
  w.open("CUTLASS_DEVICE cutlass::Array<float, kVector> vector(int64_t i) const");
  for (const TensorDecl& in : m.inputs)
    w.line(fmt::format("const cutlass::Array<float, kVector> {} = {}.vector(i);", value_id(in.name.value),
                       tensor_id(in.name.value)));
  w.line("cutlass::Array<float, kVector> y;");
  w.line("CUTLASS_PRAGMA_UNROLL");
  w.line(fmt::format("for (int j = 0; j < kVector; ++j) y[j] = value({}i + j);", values));
  w.line("return y;");
  w.close();
  w.open("CUTLASS_DEVICE float element(int64_t i) const");
  w.line(fmt::format("return value({}i);", elements));
  w.close();
  w.comment("The combined value through the chain.");
  w.open("CUTLASS_DEVICE float finish(float x) const");
  if (r.op.value == ReduceOp::mean) w.line("x = x / float(count);");
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(m, op));
  w.line("return x;");
  w.close();
  write_misaligned(w, m);
  w.close("};");
}

/// run_reduce(caller's inputs, output, scalars, extents, stream, err, err_len): fills the Body and launches.
void write_run(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const TensorDecl& out = m.output();
  const TensorDecl& domain = m.domain();
  std::string params = run_params(m);
  std::string count, extents;
  for (size_t d : memory_order(domain.dims.size(), domain.layout.value)) {
    count += (count.empty() ? "" : " * ") + extent_id(domain.dims[d]);
    extents += (extents.empty() ? "" : ", ") + extent_id(domain.dims[d]);
  }
  w.comment(
      fmt::format("`{}` = the reduction of the {} elements, on `stream`; 0, or nonzero (why: `err`).\n"
                  "One launch at a time per process: the launches share `workspace`.",
                  out.name.value, count));
  w.open(fmt::format("int run_reduce({}cudaStream_t stream, char* err, size_t err_len)", params));
  w.line("Body body;");
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const ColumnSlice* slice = m.slice_of(i);
    std::string pointer = tensor_id(slice ? slice->of.value : m.inputs[i].name.value);
    if (!reads[i].base.zero) pointer += " + " + reads[i].base.code();
    std::string strides;
    for (const Product& p : reads[i].stride) strides += (strides.empty() ? "" : ", ") + p.code();
    w.line(reads[i].dense ? fmt::format("body.{} = {{{}}};", tensor_id(m.inputs[i].name.value), pointer)
                          : fmt::format("body.{} = {{{}, {{{}}}, {{{}}}}};",
                                        tensor_id(m.inputs[i].name.value), pointer, extents, strides));
  }
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("body.{0} = {0};", scalar_id(sc.name.value)));
  for (const std::string& sym : body_extents(m)) w.line(fmt::format("body.n_{0} = n_{0};", sym));
  w.line(fmt::format("body.count = {};", count));
  w.line("ucut_reduce_workspace<kMaxBlocks>* work = nullptr;");
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
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  std::vector<InputRead> reads;
  for (size_t i = 0; i < m.inputs.size(); ++i) reads.push_back(input_read(m, i));
  const ReduceLaunch launch = reduce_launch(m.tune);
  CppWriter w;
  write_provenance(w, src, m.name.value, hash, gencode);
  for (std::string_view inc :
       {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>", "<cuda_runtime.h>",
        "<cub/block/block_reduce.cuh>", "<cutlass/cutlass.h>", "<cutlass/array.h>",
        "<cutlass/numeric_conversion.h>", "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"})
    w.line(fmt::format("#include {}", inc));
  w.line();
  w.open(fmt::format("namespace {}", ns));
  w.line("using namespace cute;");
  w.line();
  paste_template(w, "kernel_prologue.inc");
  w.line();
  paste_template(w, "memop_runtime.inc");
  w.line();
  paste_template(w, "memop_reduce.inc");
  w.line();
  std::vector<CallerTensor> callers = m.caller_inputs();
  for (size_t c = 0; c < callers.size(); ++c)
    w.alias(fmt::format("ElementIn{}", c), cutlass_type(callers[c].dtype.value));
  w.alias("ElementOut", cutlass_type(m.output().dtype.value));
  w.alias("ReduceOp", op_functor(m.reduce->op.value));
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
  write_body(w, m, reads);
  w.line();
  w.comment("The partials and the ticket of this kernel (zero-initialized; see memop_reduce.inc).");
  w.line("__device__ ucut_reduce_workspace<kMaxBlocks> workspace;");
  w.line();
  write_run(w, m, reads);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
