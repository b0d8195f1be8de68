// emit/memory/rownorm.cpp — the `rownorm` family: its first input normalized along `over` (memop_rownorm.inc: a
// CTA or a logical warp per row when `over` is contiguous, per-column statistics otherwise; cub::BlockReduce and
// cub::WarpReduce combine f32 statistics in a fixed order), the chain applied to each normalized element, reading
// the other inputs as a map reads them (memop_code.h) over the first input's extents; the result stored.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/evt_builder.h"
#include "emit/memory/memop_code.h"
#include "emit/memory/registry.h"
#include "support/error.h"

namespace ucut::memory {
namespace {

std::string_view norm_functor(NormKind k) {
  switch (k) {
    case NormKind::softmax:
      return "ucut_norm_softmax";
    case NormKind::log_softmax:
      return "ucut_norm_log_softmax";
    case NormKind::layer:
      return "ucut_norm_layer";
    case NormKind::rms:
      return "ucut_norm_rms";
    case NormKind::l1:
      return "ucut_norm_l1";
    case NormKind::l2:
      return "ucut_norm_l2";
  }
  UC_UNREACHABLE() << "NormKind " << static_cast<int>(k);
}

/// "layer of input over (N) -> expr(x * weight + bias) -> output": the kernel in words, for the comment above it.
std::string description(const MemOpConfig& m) {
  std::string over;
  for (const Spanned<std::string>& sym : m.norm->over) over += (over.empty() ? "" : ", ") + sym.value;
  std::string out =
      fmt::format("{} of {} over ({})", norm_kind_name(m.norm->norm.value), m.input().name.value, over);
  return out + chain_text(m);
}

/// "n_N * n_C": the product of the first input's extents `dims` (indices), "1" for none.
std::string extent_product(const MemOpConfig& m, const std::vector<size_t>& dims) {
  std::string out;
  for (size_t d : dims) out += (out.empty() ? "" : " * ") + extent_id(m.input().dims[d]);
  return out.empty() ? "1" : out;
}

/// The Body: the inputs' readers, the scalars, epsilon, the first input's vectors and the chain on normalized ones.
void write_body(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  w.comment(fmt::format("{}; statistics and chain in f32.", description(m)));
  w.open("struct Body");
  write_body_members(w, m, reads);
  std::string params, values;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    params += fmt::format(", float {}", value_id(m.inputs[i].name.value));
    values += fmt::format(", {}[j]", i == 0 ? std::string("x") : value_id(m.inputs[i].name.value));
  }
  w.line();
  const std::optional<ScalarOrNumber>& eps = m.norm->eps;
  w.comment("The epsilon under the norm's square root (none: 0).");
  w.open("CUTLASS_DEVICE float eps() const");
  w.line(fmt::format("return {};", !eps                  ? std::string("0.0f")
                                   : eps->scalar.empty() ? EvtBuilder::float_literal(eps->value)
                                                         : scalar_id(eps->scalar)));
  w.close();
  w.comment("The first input's elements i .. i + kVector - 1 (i a multiple of kVector).");
  w.open("CUTLASS_DEVICE cutlass::Array<float, kVector> input(int64_t i) const");
  w.line(fmt::format("return {}.vector(i);", tensor_id(m.input().name.value)));
  w.close();
  w.comment("The chain at one element: `x` normalized, each input's value there (the first input's unnormalized).");
  w.open(fmt::format("CUTLASS_DEVICE float apply(float x{}) const", params));
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(m, op));
  w.line("return x;");
  w.close();
  w.comment("The chain at elements i .. i + kVector - 1: y normalized from the first input's x.");
  w.open(
      "CUTLASS_DEVICE cutlass::Array<float, kVector> chain(const cutlass::Array<float, kVector>& y, "
      "const cutlass::Array<float, kVector>& x, int64_t i) const");
  for (size_t i = 1; i < m.inputs.size(); ++i)
    w.line(fmt::format("const cutlass::Array<float, kVector> {} = {}.vector(i);",
                       value_id(m.inputs[i].name.value), tensor_id(m.inputs[i].name.value)));
  if (m.inputs.size() == 1) w.line("(void)i;");
  w.line("cutlass::Array<float, kVector> out;");
  w.line("CUTLASS_PRAGMA_UNROLL");
  w.line(fmt::format("for (int j = 0; j < kVector; ++j) out[j] = apply(y[j]{});", values));
  w.line("return out;");
  w.close();
  write_misaligned(w, m);
  w.close("};");
}

/// run_rownorm(caller's inputs, output, scalars, extents, stream, err, err_len): fills the Body and launches.
void write_run(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const TensorDecl& out = m.output();
  const NormAxes axes = norm_axes(m);
  w.comment(fmt::format("`{}` = the normalized `{}` through the chain, on `stream`; 0, or nonzero (why: `err`).",
                        out.name.value, m.input().name.value));
  w.open(fmt::format("int run_rownorm({}cudaStream_t stream, char* err, size_t err_len)", run_params(m)));
  w.line("Body body;");
  write_fill(w, m, reads, "body");
  w.line(fmt::format("const int64_t outer = {};  // the kept extents before `over`", extent_product(m, axes.outer)));
  w.line(fmt::format("const int64_t length = {};  // the elements normalized together", extent_product(m, axes.over)));
  w.line(fmt::format("const int64_t inner = {};  // the kept extents after `over`: their stride",
                     extent_product(m, axes.inner)));
  w.line(fmt::format(
      "return ucut_rownorm_launch<Norm, ElementOut, kVector, kThreads, kItems, kRows, kPersistent, Body>(body, {}, "
      "outer, length, inner, stream, err, err_len);",
      tensor_id(out.name.value)));
  w.close();
}

}  // namespace

EmittedKernel emit_rownorm(const SourceFile& src, const MemOpConfig& m) {
  UC_ASSERT(m.norm) << "emit_rownorm on a `" << op_name(m.op.value) << "`";
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  std::vector<InputRead> reads;
  for (size_t i = 0; i < m.inputs.size(); ++i) reads.push_back(input_read(m, i));
  CppWriter w;
  write_family_opening(w, src, m,
                       {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>",
                        "<cuda_runtime.h>", "<cub/block/block_reduce.cuh>", "<cub/warp/warp_reduce.cuh>",
                        "<cutlass/cutlass.h>", "<cutlass/array.h>", "<cutlass/numeric_conversion.h>",
                        "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
                       {"memop_rownorm.inc"});
  w.alias("Norm", norm_functor(m.norm->norm.value));
  const MemTunables& t = m.tune;
  const bool persistent = t.grid.value == GridPolicy::persistent;
  w.line(fmt::format("constexpr int kVector = {};  // elements per access: {} bytes of `{}`", t.vector.value,
                     t.vector.value * dtype_bits(m.input().dtype.value) / 8, m.input().name.value));
  w.line(fmt::format("constexpr int kThreads = {};  // threads per block", t.block.value));
  w.line(fmt::format("constexpr int kItems = {};  // vectors per thread a row keeps in registers", t.items.value));
  w.line(fmt::format("constexpr int kRows = {};  // rows per block (contiguous `over`)", t.rows.value));
  w.line(fmt::format("constexpr bool kPersistent = {};  // {}", persistent,
                     persistent ? "at most the blocks the GPU holds at once" : "enough blocks to cover the rows once"));
  w.line();
  write_body(w, m, reads);
  w.line();
  write_run(w, m, reads);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
