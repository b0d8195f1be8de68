// emit/memory/reduce_axes.cpp — the `reduce` family, per-axis reductions (`over = ...`): the first input seen as
// [outer, length, inner] (the kept extents before the reduced run, the reduced ones, the kept ones after it; check:
// C706), one output per outer and inner index. Rows (nothing kept after the run) go to warps or CTAs
// (memop_reduce_axes.inc's ucut_reduce_rows_kernel), columns to threads side by side with the length split among a
// CTA's slices (ucut_reduce_columns_kernel). The Body is a full reduction's (reduce_body.h); a row's reads start from
// offsets computed once per row (Body::row).
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

/// How a row reads input i: its element i itself (dense), from the row's offset on (contiguous along the row, or one
/// element for the whole row), or through its strides element by element.
enum class RowRead { dense, contiguous, constant, strided };

/// Whether input i's strides over the reduced extents (the last `reduced` of the domain's, row-major) are zero
/// (constant), those of a row-major block of them (contiguous), or neither.
RowRead row_read(const MemOpConfig& m, const InputRead& r, size_t reduced) {
  if (r.dense) return RowRead::dense;
  const std::vector<Extent>& dims = m.domain().dims;
  bool zero = true, contiguous = true;
  std::vector<std::string> running;
  for (size_t k = 0; k < reduced; ++k) {
    const size_t d = dims.size() - 1 - k;
    const Product& p = r.stride[d];
    zero = zero && p.zero;
    contiguous = contiguous && !p.zero && p.factors == running;
    running.push_back(extent_id(dims[d]));
  }
  return zero ? RowRead::constant : contiguous ? RowRead::contiguous : RowRead::strided;
}

std::string product(const std::vector<Extent>& dims, size_t begin, size_t end) {
  std::string out;
  for (size_t d = begin; d < end; ++d) out += (out.empty() ? "" : " * ") + extent_id(dims[d]);
  return out.empty() ? "1" : out;
}

/// The Body's row reads: `Row` (the offsets of the inputs read from the row's offset), `row(first)`, and a vector and
/// an element of the row from them.
void write_row_reads(CppWriter& w, const MemOpConfig& m, const std::vector<RowRead>& kinds) {
  w.comment("What a row's reads share: the offset of each input read along the row from its first element.");
  w.open("struct Row");
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (kinds[i] == RowRead::contiguous || kinds[i] == RowRead::constant)
      w.line(fmt::format("int64_t {};", tensor_id(m.inputs[i].name.value)));
  w.close("};");
  std::string offsets;
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (kinds[i] == RowRead::contiguous || kinds[i] == RowRead::constant)
      offsets += (offsets.empty() ? "" : ", ") + fmt::format("{}.offset(first)", tensor_id(m.inputs[i].name.value));
  w.open("CUTLASS_DEVICE Row row(int64_t first) const");
  w.line(fmt::format("return Row{{{}}};", offsets));
  w.close();
  w.comment("Elements j .. j + kVector - 1 of the row from element `first` (j a multiple of kVector).");
  w.open("CUTLASS_DEVICE cutlass::Array<float, kVector> row_vector(const Row& row, int64_t first, int64_t j) const");
  std::string values, elements;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const std::string t = tensor_id(m.inputs[i].name.value), v = value_id(m.inputs[i].name.value);
    values += fmt::format("{}[k], ", v);
    switch (kinds[i]) {
      case RowRead::dense:
      case RowRead::strided:
        w.line(fmt::format("const cutlass::Array<float, kVector> {} = {}.vector(first + j);", v, t));
        elements += fmt::format("{}.element(first + j), ", t);
        break;
      case RowRead::contiguous:
        w.line(fmt::format("const cutlass::Array<float, kVector> {} = ucut_vector_at({}, row.{} + j);", v, t, t));
        elements += fmt::format("ucut_element_at({}, row.{} + j), ", t, t);
        break;
      case RowRead::constant:
        w.line(fmt::format("cutlass::Array<float, kVector> {};", v));
        w.line(fmt::format("{}.fill(ucut_element_at({}, row.{}));", v, t, t));
        elements += fmt::format("ucut_element_at({}, row.{}), ", t, t);
        break;
    }
  }
  w.line("cutlass::Array<float, kVector> y;");
  w.line("CUTLASS_PRAGMA_UNROLL");
  w.line(fmt::format("for (int k = 0; k < kVector; ++k) y[k] = value({}first + j + k);", values));
  w.line("return y;");
  w.close();
  w.open("CUTLASS_DEVICE float row_element(const Row& row, int64_t first, int64_t j) const");
  w.line(fmt::format("return value({}first + j);", elements));
  w.close();
}

/// run_reduce(caller's inputs, output, scalars, extents, stream, err, err_len): fills the Body and launches the rows or
/// the columns kernel over [outer, length, inner].
void write_run(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads, const ReduceAxes& axes) {
  const std::vector<Extent>& dims = m.domain().dims;
  const std::string outer = product(dims, 0, axes.reduced.front());
  const std::string length = product(dims, axes.reduced.front(), axes.reduced.back() + 1);
  const std::string inner = product(dims, axes.reduced.back() + 1, dims.size());
  const std::string out = tensor_id(m.output().name.value);
  w.comment(fmt::format("`{}` = the reductions of {} elements each, {}, on `stream`; 0, or nonzero (why: `err`).",
                        m.output().name.value, length,
                        axes.suffix() ? fmt::format("{} rows of them", outer)
                                      : fmt::format("{} by {} columns {} apart", outer, inner, inner)));
  w.open(fmt::format("int run_reduce({}cudaStream_t stream, char* err, size_t err_len)", run_params(m)));
  write_body_fill(w, m, reads);
  w.line(fmt::format("body.count = {};", length));
  if (axes.suffix())
    w.line(fmt::format(
        "return ucut_reduce_rows_launch<ElementOut, kVector, kThreads, kItems, kPersistent, ReduceOp, Body>(body, {}, "
        "{}, {}, kRows, stream, err, err_len);",
        out, outer, length));
  else
    w.line(fmt::format(
        "return ucut_reduce_columns_launch<ElementOut, kVector, kThreads, kPersistent, ReduceOp, Body>(body, {}, {}, "
        "{}, {}, stream, err, err_len);",
        out, outer, length, inner));
  w.close();
}

}  // namespace

EmittedKernel emit_reduce_axes(const SourceFile& src, const MemOpConfig& m) {
  UC_ASSERT(m.reduce && !m.reduce->over.empty()) << "emit_reduce_axes without `over`";
  const ReduceAxes axes = reduce_axes(m);
  UC_ASSERT(axes.adjacent() && !axes.kept.empty()) << "the reduced extents are one run, some kept (check: C706)";
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  std::vector<InputRead> reads;
  std::vector<RowRead> kinds;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    reads.push_back(input_read(m, i));
    kinds.push_back(row_read(m, reads.back(), axes.reduced.size()));
  }
  CppWriter w;
  write_family_opening(w, src, m,
                       {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>",
                        "<cuda_runtime.h>", "<cub/block/block_reduce.cuh>", "<cub/thread/thread_load.cuh>",
                        "<cub/warp/warp_reduce.cuh>",
                        "<cutlass/cutlass.h>", "<cutlass/array.h>", "<cutlass/numeric_conversion.h>",
                        "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
                       {"memop_reduce.inc", "memop_reduce_axes.inc"});  // the combining functors, the kernels
  w.alias("ReduceOp", reduce_accumulator(m.reduce->op.value));
  const int v = m.tune.vector.value;
  w.line(fmt::format("constexpr int kVector = {};  // elements per access: {} bytes of `{}`", v,
                     v * dtype_bits(m.input().dtype.value) / 8, m.input().name.value));
  w.line(fmt::format("constexpr int kThreads = {};  // threads per block", m.tune.block.value));
  const bool persistent = m.tune.grid.value == GridPolicy::persistent;
  if (axes.suffix()) {
    w.line(fmt::format("constexpr int kItems = {};  // vectors per thread and loop trip", m.tune.items.value));
    const int rows = m.tune.rows.value;
    w.line(fmt::format("constexpr int kRows = {};  // {}", rows,
                       rows == kMemAutoRows ? "rows per block: picked from the row length at run time"
                                            : "rows per block"));
  }
  w.line(fmt::format("constexpr bool kPersistent = {};  // {}", persistent,
                     persistent ? "at most the blocks the GPU holds at once" : "enough blocks to cover the outputs"));
  w.line();
  if (axes.suffix())
    write_reduce_body(w, m, reads, [&](CppWriter& body) { write_row_reads(body, m, kinds); });
  else
    write_reduce_body(w, m, reads);
  w.line();
  write_run(w, m, reads, axes);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
