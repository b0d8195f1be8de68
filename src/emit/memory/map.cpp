// emit/memory/map.cpp — the `map` family: one pass over the output's elements (memop_runtime.inc's
// ucut_map_kernel), each through the `>>` chain in f32 from its inputs' values there (a Map struct: an input
// with the output's extents is read densely, a broadcast or sliced one through strides). The chain's stages
// call the device functors the GEMM epilogues use (ir/epilogues.def's and ir/expr_functions.def's functor
// columns), so a stage computes the same on both.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/evt_builder.h"
#include "emit/memory/registry.h"
#include "emit/template_paste.h"
#include "support/error.h"

namespace ucut::memory {
namespace {

// Emitted names carry a prefix, so no spec name can clash with C++: t_ a tensor (its pointer, or its reader
// in the Map), v_ an input's value at one element, s_ a run-time scalar, n_ an extent.
std::string tensor_id(const std::string& name) { return "t_" + name; }
std::string value_id(const std::string& name) { return "v_" + name; }
std::string scalar_id(const std::string& name) { return "s_" + name; }
std::string extent_id(const Extent& e) { return e.fixed() ? std::to_string(e.size) : "n_" + e.symbol; }

/// The C++ name of operand i (`load(i)`): an input's value at the element, or a scalar.
std::string operand_code(const MemOpConfig& m, size_t i) {
  return i < m.inputs.size() ? value_id(m.inputs[i].name.value)
                             : scalar_id(m.scalars[i - m.inputs.size()].name.value);
}

/// The postfix program of an `expr(...)` stage as one C++ expression over the float `x` and the operands.
std::string expr_code(const MemOpConfig& m, const EpiExpr& e) {
  std::vector<std::string> stack;
  for (const ExprOp& op : e.postfix) {
    const ExprOpInfo& info = expr_info(op.code);
    if (op.code == ExprCode::x) {
      stack.push_back("x");
    } else if (op.code == ExprCode::constant) {
      stack.push_back(EvtBuilder::float_literal(op.value));
    } else if (op.code == ExprCode::load) {
      stack.push_back(operand_code(m, static_cast<size_t>(op.value)));
    } else {
      std::string args;
      for (size_t i = stack.size() - static_cast<size_t>(info.arity); i < stack.size(); ++i)
        args += (args.empty() ? "" : ", ") + stack[i];
      stack.resize(stack.size() - static_cast<size_t>(info.arity));
      stack.push_back(fmt::format("{}<float>{{}}({})", info.functor, args));
    }
  }
  UC_ASSERT(stack.size() == 1) << "expr `" << e.text << "` leaves " << stack.size() << " values";
  return stack.back();
}

/// One stage of the chain as a statement on the float `x`; the store is the kernel's own conversion.
std::string stage_code(const MemOpConfig& m, const EpiOp& op) {
  const EpiOpInfo& info = epi_info(op.kind);
  switch (info.category) {
    case EpiCategory::activation: {
      std::string functor = fmt::format("{}<float>", info.cutlass_functor);
      if (op.params.empty()) return fmt::format("x = {}{{}}(x);", functor);
      std::string args;
      for (size_t i = 0; i < op.params.size(); ++i) {
        bool scalar = !op.param_operands.empty() && op.param_operands[i] >= 0;
        args +=
            (args.empty() ? "" : ", ") + (scalar ? operand_code(m, static_cast<size_t>(op.param_operands[i]))
                                                 : EvtBuilder::float_literal(op.params[i]));
      }
      return fmt::format("x = {0}{{}}(x, {0}::Arguments{{{1}}});", functor, args);
    }
    case EpiCategory::expr:
      return fmt::format("x = {};", expr_code(m, *op.expr));
    case EpiCategory::cast:
      return fmt::format("x = float(cutlass::NumericConverter<{}, float>{{}}(x));",
                         cutlass_type(op.dtype.value));
    default:
      UC_UNREACHABLE() << "a `map` chain holds no `" << info.name << "` (check: C713)";
  }
}

/// "input -> relu -> expr((x * 0.5)) -> output": the chain in words, for the comment above it.
std::string description(const MemOpConfig& m) {
  std::string out = m.input().name.value;
  for (const EpiOp& op : m.chain) {
    if (op.kind == EpiKind::store) continue;
    out += " -> ";
    out += op.expr                    ? fmt::format("expr({})", op.expr->text)
           : op.kind == EpiKind::cast ? fmt::format("cast({})", dtype_name(op.dtype.value))
                                      : std::string(epi_info(op.kind).name);
  }
  return out + " -> " + m.output().name.value;
}

/// A stride or offset in elements: a product of extents and numbers, or zero.
struct Product {
  bool zero = false;
  std::vector<std::string> factors;
  std::string code() const {
    if (zero) return "0";
    std::string out;
    for (const std::string& f : factors) out += (out.empty() ? "" : " * ") + f;
    return out.empty() ? "1" : out;
  }
};

/// The dimensions of a tensor of `rank` in memory order, slowest first: a column-major matrix swaps its last
/// two.
std::vector<size_t> memory_order(size_t rank, Layout layout) {
  std::vector<size_t> order(rank);
  for (size_t d = 0; d < rank; ++d) order[d] = d;
  if (rank >= 2 && layout == Layout::col) std::swap(order[rank - 1], order[rank - 2]);
  return order;
}

/// How one input is read: densely (the output's element i is its element i), or through strides over the
/// output's extents (memory order), from `base`.
struct InputRead {
  bool dense = true;
  std::vector<Product> stride;  // per output dimension in the output's memory order
  Product base{true, {}};       // a slice's first element
  int fast = 1;                 // the stride along the output's fastest dimension: 1 or 0
};

bool same_extents(const TensorDecl& a, const TensorDecl& b) {
  if (a.dims.size() != b.dims.size()) return false;
  for (size_t d = 0; d < a.dims.size(); ++d)
    if (a.dims[d].symbol != b.dims[d].symbol || a.dims[d].size != b.dims[d].size) return false;
  return true;
}

InputRead input_read(const MemOpConfig& m, size_t i) {
  const TensorDecl& in = m.inputs[i];
  const TensorDecl& out = m.output();
  const ColumnSlice* slice = m.slice_of(i);
  bool same_layout = in.dims.size() < 2 || in.layout.value == out.layout.value;
  if (!slice && same_layout && same_extents(in, out)) return {};
  // The strides of the tensor the caller passes (a slice's: its last extent `blocks` times the input's), per
  // logical dimension.
  std::vector<std::string> extents;
  for (const Extent& e : in.dims) extents.push_back(extent_id(e));
  if (slice) extents.back() = fmt::format("{} * {}", slice->blocks.value, extents.back());
  std::vector<Product> own(in.dims.size());
  std::vector<std::string> running;
  std::vector<size_t> order = memory_order(in.dims.size(), in.layout.value);
  for (size_t k = order.size(); k-- > 0;) {
    own[order[k]].factors = running;
    running.push_back(extents[order[k]]);
  }
  InputRead r;
  r.dense = false;
  if (slice && slice->block.value > 0) {
    r.base = {false, {std::to_string(slice->block.value), extent_id(in.dims.back())}};
    for (const std::string& f : own.back().factors) r.base.factors.push_back(f);
  }
  // Right-aligned onto the output: a missing or size-1 extent repeats (stride 0).
  size_t lead = out.dims.size() - in.dims.size();
  for (size_t d : memory_order(out.dims.size(), out.layout.value)) {
    Product p;
    bool repeats = d < lead || (in.dims[d - lead].fixed() && in.dims[d - lead].size == 1 &&
                                !(out.dims[d].fixed() && out.dims[d].size == 1));
    if (repeats)
      p.zero = true;
    else
      p = own[d - lead];
    r.stride.push_back(p);
  }
  const Product& fastest = r.stride.back();
  UC_ASSERT(fastest.zero || fastest.factors.empty())
      << "input `" << in.name.value
      << "` is neither contiguous nor repeated along the output's rows (check: C713)";
  r.fast = fastest.zero ? 0 : 1;
  UC_ASSERT((r.fast == 1) == m.vector_read(i))
      << "input `" << in.name.value << "`: strides and vector reads disagree";
  return r;
}

/// The reader type of input i in the Map.
std::string reader_type(const MemOpConfig& m, size_t i, const InputRead& r) {
  std::string element(cutlass_type(m.inputs[i].dtype.value));
  if (r.dense) return fmt::format("ucut_dense_input<{}, kVector>", element);
  return fmt::format("ucut_strided_input<{}, kVector, {}, {}>", element, m.output().dims.size(), r.fast);
}

/// The Map: the inputs' readers, the scalars and the chain, per element and per vector.
void write_map(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  w.comment(fmt::format("{}, each element in f32.", description(m)));
  w.open("struct Map");
  for (size_t i = 0; i < m.inputs.size(); ++i)
    w.line(fmt::format("{} {};", reader_type(m, i, reads[i]), tensor_id(m.inputs[i].name.value)));
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("float {};", scalar_id(sc.name.value)));
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
  w.comment("Elements i .. i + kVector - 1 (i a multiple of kVector).");
  w.open("CUTLASS_DEVICE cutlass::Array<float, kVector> vector(int64_t i) const");
  for (const TensorDecl& in : m.inputs)
    w.line(fmt::format("const cutlass::Array<float, kVector> {} = {}.vector(i);", value_id(in.name.value),
                       tensor_id(in.name.value)));
  w.line("cutlass::Array<float, kVector> y;");
  w.line("CUTLASS_PRAGMA_UNROLL");
  w.line(fmt::format("for (int j = 0; j < kVector; ++j) y[j] = apply({});", values));
  w.line("return y;");
  w.close();
  w.open("CUTLASS_DEVICE float element(int64_t i) const");
  w.line(fmt::format("return apply({});", elements));
  w.close();
  w.comment("The first input that whole vectors cannot read (its name), or nullptr.");
  w.open("const char* misaligned() const");
  for (const TensorDecl& in : m.inputs)
    w.line(fmt::format("if (!{}.aligned()) return \"{}\";", tensor_id(in.name.value), in.name.value));
  w.line("return nullptr;");
  w.close();
  w.close("};");
}

/// run_map(caller's inputs, output, scalars, extents, stream, err, err_len): fills the Map and launches it.
void write_run(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const TensorDecl& out = m.output();
  std::vector<CallerTensor> callers = m.caller_inputs();
  std::string params;
  for (size_t c = 0; c < callers.size(); ++c)
    params += fmt::format("const ElementIn{}* {}, ", c, tensor_id(callers[c].name));
  params += fmt::format("ElementOut* {}, ", tensor_id(out.name.value));
  for (const ScalarDecl& sc : m.scalars) params += fmt::format("float {}, ", scalar_id(sc.name.value));
  for (const std::string& sym : m.extent_symbols()) params += fmt::format("int64_t n_{}, ", sym);
  std::string count, out_extents;
  for (size_t d : memory_order(out.dims.size(), out.layout.value)) {
    count += (count.empty() ? "" : " * ") + extent_id(out.dims[d]);
    out_extents += (out_extents.empty() ? "" : ", ") + extent_id(out.dims[d]);
  }
  w.comment(fmt::format("`{}` = the chain at its {} elements, on `stream`; 0, or nonzero (why: `err`).",
                        out.name.value, count));
  w.open(fmt::format("int run_map({}cudaStream_t stream, char* err, size_t err_len)", params));
  w.line("Map map;");
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const ColumnSlice* slice = m.slice_of(i);
    std::string pointer = tensor_id(slice ? slice->of.value : m.inputs[i].name.value);
    if (!reads[i].base.zero) pointer += " + " + reads[i].base.code();
    std::string strides;
    for (const Product& p : reads[i].stride) strides += (strides.empty() ? "" : ", ") + p.code();
    w.line(reads[i].dense ? fmt::format("map.{} = {{{}}};", tensor_id(m.inputs[i].name.value), pointer)
                          : fmt::format("map.{} = {{{}, {{{}}}, {{{}}}}};", tensor_id(m.inputs[i].name.value),
                                        pointer, out_extents, strides));
  }
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("map.{0} = {0};", scalar_id(sc.name.value)));
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
  write_provenance(w, src, m.name.value, hash, gencode);
  for (std::string_view inc :
       {"<algorithm>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>", "<cuda_runtime.h>",
        "<cutlass/cutlass.h>", "<cutlass/array.h>", "<cutlass/numeric_conversion.h>",
        "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"})
    w.line(fmt::format("#include {}", inc));
  w.line();
  w.open(fmt::format("namespace {}", ns));
  w.line("using namespace cute;");
  w.line();
  paste_template(w, "kernel_prologue.inc");
  w.line();
  paste_template(w, "memop_runtime.inc");
  w.line();
  std::vector<CallerTensor> callers = m.caller_inputs();
  for (size_t c = 0; c < callers.size(); ++c)
    w.alias(fmt::format("ElementIn{}", c), cutlass_type(callers[c].dtype.value));
  w.alias("ElementOut", cutlass_type(out.dtype.value));
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
