// emit/memory/memop_code.cpp — see memop_code.h: the C++ text both memory-bound emitters share.
#include "emit/memory/memop_code.h"

#include <fmt/format.h>

#include <algorithm>

#include "emit/abi_wrapper.h"
#include "emit/evt_builder.h"
#include "emit/template_paste.h"
#include "support/error.h"

namespace ucut::memory {

// Emitted names carry a prefix, so no spec name can clash with C++: t_ a tensor (its pointer, or its reader
// in the Map), v_ an input's value at one element, s_ a run-time scalar, n_ an extent.
std::string tensor_id(const std::string& name) { return "t_" + name; }
std::string value_id(const std::string& name) { return "v_" + name; }
std::string scalar_id(const std::string& name) { return "s_" + name; }
std::string extent_id(const Extent& e) { return e.fixed() ? std::to_string(e.size) : "n_" + e.symbol; }

std::string operand_code(const MemOpConfig& m, size_t i) {
  if (i < m.inputs.size()) return value_id(m.inputs[i].name.value);
  if (i < m.inputs.size() + m.scalars.size()) return scalar_id(m.scalars[i - m.inputs.size()].name.value);
  return fmt::format("float(n_{})", m.operand_names()[i]);  // a reduce's extent
}

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
      UC_UNREACHABLE() << "a `" << op_name(m.op.value) << "` chain holds no `" << info.name
                       << "` (check: C713)";
  }
}

namespace {
bool same_extents(const TensorDecl& a, const TensorDecl& b) {
  if (a.dims.size() != b.dims.size()) return false;
  for (size_t d = 0; d < a.dims.size(); ++d)
    if (a.dims[d].symbol != b.dims[d].symbol || a.dims[d].size != b.dims[d].size) return false;
  return true;
}

}  // namespace

InputRead input_read(const MemOpConfig& m, size_t i) {
  const TensorDecl& in = m.inputs[i];
  const TensorDecl& out = m.domain();
  const ColumnSlice* slice = m.slice_of(i);
  if (m.reversed_of(i)) {  // the domain's extents, row-major (check: C709)
    InputRead r;
    r.dense = false;
    r.reversed = true;
    return r;
  }
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

void write_family_opening(CppWriter& w, const SourceFile& src, const MemOpConfig& m,
                          std::initializer_list<std::string_view> includes,
                          std::initializer_list<std::string_view> templates) {
  write_provenance(w, src, m.name.value, memop_hash(m), gencode_for(m.arch.value));
  for (std::string_view inc : includes) w.line(fmt::format("#include {}", inc));
  w.line();
  w.open(fmt::format("namespace {}", memop_namespace(m)));
  w.line("using namespace cute;");
  w.line();
  paste_template(w, "kernel_prologue.inc");
  w.line();
  paste_template(w, "memop_runtime.inc");
  w.line();
  if (!m.reversed.empty()) {
    paste_template(w, "memop_reverse.inc");
    w.line();
  }
  for (std::string_view t : templates) {
    paste_template(w, t);
    w.line();
  }
  std::vector<CallerTensor> callers = m.caller_inputs();
  for (size_t c = 0; c < callers.size(); ++c)
    w.alias(fmt::format("ElementIn{}", c), cutlass_type(callers[c].dtype.value));
  w.alias("ElementOut", cutlass_type(m.output().dtype.value));
}

void write_body_members(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  for (size_t i = 0; i < m.inputs.size(); ++i)
    w.line(fmt::format("{} {};", reader_type(m, i, reads[i]), tensor_id(m.inputs[i].name.value)));
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("float {};", scalar_id(sc.name.value)));
}

void write_vector_and_element(CppWriter& w, const MemOpConfig& m, const std::string& lane, const std::string& element) {
  w.comment("Elements i .. i + kVector - 1 (i a multiple of kVector).");
  w.open("CUTLASS_DEVICE cutlass::Array<float, kVector> vector(int64_t i) const");
  for (const TensorDecl& in : m.inputs)
    w.line(fmt::format("const cutlass::Array<float, kVector> {} = {}.vector(i);", value_id(in.name.value),
                       tensor_id(in.name.value)));
  w.line("cutlass::Array<float, kVector> y;");
  w.line("CUTLASS_PRAGMA_UNROLL");
  w.line(fmt::format("for (int j = 0; j < kVector; ++j) y[j] = {};", lane));
  w.line("return y;");
  w.close();
  w.open("CUTLASS_DEVICE float element(int64_t i) const");
  w.line(fmt::format("return {};", element));
  w.close();
}

std::string reader_type(const MemOpConfig& m, size_t i, const InputRead& r) {
  std::string element(cutlass_type(m.inputs[i].dtype.value));
  if (r.dense) return fmt::format("ucut_dense_input<{}, kVector>", element);
  if (r.reversed) return fmt::format("ucut_reversed_input<{}, kVector>", element);
  return fmt::format("ucut_strided_input<{}, kVector, {}, {}>", element, m.domain().dims.size(), r.fast);
}

std::string reader_init(const MemOpConfig& m, size_t i, const InputRead& r) {
  std::string pointer = tensor_id(m.caller_name(i));
  if (r.dense) return fmt::format("{{{}}}", pointer);
  const TensorDecl& domain = m.domain();
  if (r.reversed) return fmt::format("{{{}, {}}}", pointer, extent_id(domain.dims.back()));
  if (!r.base.zero) pointer += " + " + r.base.code();
  std::string extents, strides;
  for (size_t d : memory_order(domain.dims.size(), domain.layout.value))
    extents += (extents.empty() ? "" : ", ") + extent_id(domain.dims[d]);
  for (const Product& p : r.stride) strides += (strides.empty() ? "" : ", ") + p.code();
  return fmt::format("{{{}, {{{}}}, {{{}}}}}", pointer, extents, strides);
}

void write_fill(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads, std::string_view var) {
  for (size_t i = 0; i < m.inputs.size(); ++i)
    w.line(fmt::format("{}.{} = {};", var, tensor_id(m.inputs[i].name.value), reader_init(m, i, reads[i])));
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("{0}.{1} = {1};", var, scalar_id(sc.name.value)));
}

std::string run_params(const MemOpConfig& m) {
  std::vector<CallerTensor> callers = m.caller_inputs();
  std::string params;
  for (size_t c = 0; c < callers.size(); ++c)
    params += fmt::format("const ElementIn{}* {}, ", c, tensor_id(callers[c].name));
  params += fmt::format("ElementOut* {}, ", tensor_id(m.output().name.value));
  for (const ScalarDecl& sc : m.scalars) params += fmt::format("float {}, ", scalar_id(sc.name.value));
  for (const std::string& sym : m.extent_symbols()) params += fmt::format("int64_t n_{}, ", sym);
  return params;
}

void write_misaligned(CppWriter& w, const MemOpConfig& m) {
  w.comment("The first input that whole vectors cannot read (its name), or nullptr.");
  w.open("const char* misaligned() const");
  for (const TensorDecl& in : m.inputs)
    w.line(fmt::format("if (!{}.aligned()) return \"{}\";", tensor_id(in.name.value), in.name.value));
  w.line("return nullptr;");
  w.close();
}

std::string chain_text(const MemOpConfig& m) {
  std::string out;
  for (const EpiOp& op : m.chain) {
    if (op.kind == EpiKind::store) continue;
    out += " -> ";
    out += op.expr                    ? fmt::format("expr({})", op.expr->text)
           : op.kind == EpiKind::cast ? fmt::format("cast({})", dtype_name(op.dtype.value))
                                      : std::string(epi_info(op.kind).name);
  }
  return out + " -> " + m.output().name.value;
}

}  // namespace ucut::memory
