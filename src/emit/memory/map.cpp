// emit/memory/map.cpp — the `map` family: one pass over the output's elements (memop_runtime.inc's
// ucut_map_kernel), each through the `>>` chain in f32 from its inputs' values there (a Map struct: an input
// with the output's extents is read densely, a broadcast or sliced one through strides, a `reverse(P)` one
// backwards along the rows: memop_reverse.inc). A transposing map (an output in the other layout) visits its
// first input's elements in tiles through shared memory instead (memop_transpose.inc's ucut_transpose_kernel),
// reading and writing whole rows of the tile. A rotary map (`rotary = base`, RoPE) turns each pair of its first
// input's values in f32 before the chain, a pair always within one vector (check: C725). The chain's stages
// call the device functors the GEMM epilogues use (ir/epilogues.def's and ir/expr_functions.def's functor
// columns), so a stage computes the same on both.
#include <fmt/format.h>

#include <algorithm>
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

/// "input -> relu -> expr((x * 0.5)) -> output": the chain in words, for the comment above it.
std::string description(const MemOpConfig& m) {
  std::string out = m.input().name.value;
  return out + chain_text(m);
}

/// A rotary map's vector and element functions: the first input's values turned in pairs (`rotate`, elements 2p
/// and 2p + 1 of a row, by the row's position · base^(−2p/D)), then the chain. A vector holds whole pairs (an even
/// kVector, C725); a single element reads its partner beside it.
void write_rotary(CppWriter& w, const MemOpConfig& m, const std::string& values) {
  const std::string first = tensor_id(m.input().name.value), value = value_id(m.input().name.value);
  w.line("int64_t rot_cols;       // D: the rows' length (even)");
  w.line("int64_t rot_rows;       // the positions: the extent before the rows");
  w.line("float rot_log2_base;    // log2 of the angles' base");
  w.comment("Turns the pair (a, b) at flat index i (even) of the first input by position · base^(−col/D).");
  w.open("CUTLASS_DEVICE void rotate(float& a, float& b, int64_t i) const");
  w.line("const int64_t col = i % rot_cols;");
  w.line("const float position = float((i / rot_cols) % rot_rows);");
  w.line("const float angle = position * exp2f(-float(col) / float(rot_cols) * rot_log2_base);");
  w.line("float s, c;");
  w.line("sincosf(angle, &s, &c);");
  w.line("const float a0 = a;");
  w.line("a = a0 * c - b * s;");
  w.line("b = a0 * s + b * c;");
  w.close();
  w.comment("Elements i .. i + kVector - 1 (i a multiple of kVector): whole pairs, turned, then the chain.");
  w.open("CUTLASS_DEVICE cutlass::Array<float, kVector> vector(int64_t i) const");
  for (const TensorDecl& in : m.inputs)
    w.line(fmt::format("{}cutlass::Array<float, kVector> {} = {}.vector(i);", &in == &m.input() ? "" : "const ",
                       value_id(in.name.value), tensor_id(in.name.value)));
  w.line("CUTLASS_PRAGMA_UNROLL");
  w.line(fmt::format("for (int j = 0; j < kVector; j += 2) rotate({0}[j], {0}[j + 1], i + j);", value));
  w.line("cutlass::Array<float, kVector> y;");
  w.line("CUTLASS_PRAGMA_UNROLL");
  w.line(fmt::format("for (int j = 0; j < kVector; ++j) y[j] = apply({});", values));
  w.line("return y;");
  w.close();
  w.comment("Element i alone: its pair partner read beside it (i ^ 1: rows start at even indices, D being even).");
  w.open("CUTLASS_DEVICE float element(int64_t i) const");
  w.line(fmt::format("float {} = {}.element(i), partner = {}.element(i ^ 1);", value, first, first));
  w.line(fmt::format("if (i & 1) rotate(partner, {0}, i - 1); else rotate({0}, partner, i);", value));
  std::string args = value;  // the first input's turned value, then the others' elements
  for (size_t k = 1; k < m.inputs.size(); ++k) args += fmt::format(", {}.element(i)", tensor_id(m.inputs[k].name.value));
  w.line(fmt::format("return apply({});", args));
  w.close();
}

/// The Map: the inputs' readers, the scalars and the chain, per element and per vector.
void write_map(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  w.comment(fmt::format("{}, each element in f32.", description(m)));
  w.open("struct Map");
  write_body_members(w, m, reads);
  std::string params, values, elements;
  for (const TensorDecl& in : m.inputs) {
    params += fmt::format("{}float {}", params.empty() ? "" : ", ", value_id(in.name.value));
    values += fmt::format("{}{}[j]", values.empty() ? "" : ", ", value_id(in.name.value));
    elements += fmt::format("{}{}.element(i)", elements.empty() ? "" : ", ", tensor_id(in.name.value));
  }
  w.line();
  w.comment("The chain at one element, from each input's value there.");
  w.open(fmt::format("CUTLASS_DEVICE float apply({}) const", params));
  w.line(fmt::format("float x = {};", value_id(m.input().name.value)));
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(m, op));
  w.line("return x;");
  w.close();
  if (m.rotary)
    write_rotary(w, m, values);
  else
    write_vector_and_element(w, m, fmt::format("apply({})", values), fmt::format("apply({})", elements));
  write_misaligned(w, m);
  w.close("};");
}

/// The launch of a transposing map (memop_transpose.inc): the first input's memory is `batch` matrices of
/// rows × cols, cols contiguous; the output's the same matrices transposed.
std::string transpose_launch(const MemOpConfig& m) {
  const TensorDecl& in = m.input();
  std::vector<size_t> order = memory_order(in.dims.size(), in.layout.value);
  std::string batch;
  for (size_t k = 0; k + 2 < order.size(); ++k) batch += (batch.empty() ? "" : " * ") + extent_id(in.dims[order[k]]);
  return fmt::format(
      "return ucut_transpose_launch<ElementOut, kVector, kBlock, kPersistent, Map>(map, {}, {}, {}, {}, stream, "
      "err, err_len);",
      tensor_id(m.output().name.value), batch.empty() ? "1" : batch, extent_id(in.dims[order[order.size() - 2]]),
      extent_id(in.dims[order.back()]));
}

/// run_map(caller's inputs, output, scalars, extents, stream, err, err_len): fills the Map and launches it.
void write_run(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const TensorDecl& out = m.output();
  std::string params = run_params(m);
  std::string count;
  for (size_t d : memory_order(out.dims.size(), out.layout.value))
    count += (count.empty() ? "" : " * ") + extent_id(out.dims[d]);
  w.comment(fmt::format("`{}` = the chain at its {} elements{}, on `stream`; 0, or nonzero (why: `err`).",
                        out.name.value, count,
                        m.transposes() ? fmt::format(", each from `{}`'s transposed place", m.input().name.value)
                                       : ""));
  w.open(fmt::format("int run_map({}cudaStream_t stream, char* err, size_t err_len)", params));
  w.line("Map map;");
  write_fill(w, m, reads, "map");
  if (m.rotary) {
    const TensorDecl& in = m.input();
    const ScalarOrNumber& base = *m.rotary;
    w.line(fmt::format("map.rot_cols = {};", extent_id(in.dims.back())));
    w.line(fmt::format("map.rot_rows = {};", extent_id(in.dims[in.dims.size() - 2])));
    const std::string value =
        base.scalar.empty() ? EvtBuilder::float_literal(base.value) : scalar_id(base.scalar);
    w.line(fmt::format("map.rot_log2_base = log2f({});", value));
    w.open(fmt::format("if (map.rot_cols % 2 != 0 || !({} > 0.0f))", value));
    w.line(fmt::format("ucut_set_error(err, err_len, \"map\", \"a rotation turns pairs of a row of `{}` (an even "
                       "length) by angles of a positive base\");",
                       in.name.value));
    w.line("return 1;");
    w.close();
  }
  if (m.transposes())
    w.line(transpose_launch(m));
  else
    w.line(fmt::format(
        "return ucut_map_launch<ElementOut, kVector, kBlock, kItems, kPersistent, Map>(map, {}, {}, "
        "stream, err, err_len);",
        tensor_id(out.name.value), count));
  w.close();
}

}  // namespace

EmittedKernel emit_map(const SourceFile& src, const MemOpConfig& m) {
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  const TensorDecl& out = m.output();
  std::vector<InputRead> reads;
  for (size_t i = 0; i < m.inputs.size(); ++i) reads.push_back(input_read(m, i));
  CppWriter w;
  const std::initializer_list<std::string_view> includes = {
      "<algorithm>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>", "<cuda_runtime.h>", "<cutlass/cutlass.h>",
      "<cutlass/array.h>", "<cutlass/numeric_conversion.h>", "<cutlass/epilogue/thread/activation.h>",
      "<cute/tensor.hpp>"};
  if (m.transposes())
    write_family_opening(w, src, m, includes, {"memop_transpose.inc"});
  else
    write_family_opening(w, src, m, includes, {});
  const MemTunables& t = m.tune;
  w.line(fmt::format("constexpr int kVector = {};  // elements per access: {} bytes of `{}`", t.vector.value,
                     t.vector.value * dtype_bits(out.dtype.value) / 8, out.name.value));
  w.line(fmt::format("constexpr int kBlock = {};  // threads per block", t.block.value));
  w.line(fmt::format("constexpr int kItems = {};  // vectors per thread and loop trip", t.items.value));
  w.line(fmt::format("constexpr bool kPersistent = {};  // {}", t.grid.value == GridPolicy::persistent,
                     t.grid.value == GridPolicy::persistent ? "at most the blocks the GPU holds at once"
                                                            : "enough blocks to cover the output once"));
  w.line();
  write_map(w, m, reads);
  w.line();
  write_run(w, m, reads);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
