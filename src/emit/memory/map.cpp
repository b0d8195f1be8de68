// emit/memory/map.cpp — the `map` family: one pass over the input's elements (memop_runtime.inc's
// ucut_map_kernel), each element through the `>>` chain in f32. The chain's stages call the device functors
// the GEMM epilogues use (ir/epilogues.def's and ir/expr_functions.def's functor columns), so a stage
// computes the same on both.
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

/// The postfix program of an `expr(...)` stage as one C++ expression over the float `x`.
std::string expr_code(const EpiExpr& e) {
  std::vector<std::string> stack;
  for (const ExprOp& op : e.postfix) {
    const ExprOpInfo& info = expr_info(op.code);
    if (op.code == ExprCode::x) {
      stack.push_back("x");
    } else if (op.code == ExprCode::constant) {
      stack.push_back(EvtBuilder::float_literal(op.value));
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
std::string stage_code(const EpiOp& op) {
  const EpiOpInfo& info = epi_info(op.kind);
  switch (info.category) {
    case EpiCategory::activation: {
      std::string functor = fmt::format("{}<float>", info.cutlass_functor);
      if (op.params.empty()) return fmt::format("x = {}{{}}(x);", functor);
      std::string args;
      for (double p : op.params) args += (args.empty() ? "" : ", ") + EvtBuilder::float_literal(p);
      return fmt::format("x = {0}{{}}(x, {0}::Arguments{{{1}}});", functor, args);
    }
    case EpiCategory::expr:
      return fmt::format("x = {};", expr_code(*op.expr));
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

/// Elements per vector access: 16 bytes of the wider of the two types, within both tensors' declared `align`.
int vector_width(const MemOpConfig& m) {
  const TensorDecl& in = m.input();
  const TensorDecl& out = m.output();
  int widest = std::max(dtype_bits(in.dtype.value), dtype_bits(out.dtype.value)) / 8;
  return std::min({16 / widest, in.align.value, out.align.value});
}

}  // namespace

EmittedKernel emit_map(const SourceFile& src, const MemOpConfig& m) {
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  const TensorDecl& in = m.input();
  const TensorDecl& out = m.output();
  CppWriter w;
  write_provenance(w, src, m.name.value, hash, gencode);
  for (std::string_view inc : {"<algorithm>", "<cstdint>", "<cstdio>", "<cuda_runtime.h>",
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
  w.comment(fmt::format("{}, each element in f32.", description(m)));
  w.open("struct Chain");
  w.open("CUTLASS_DEVICE float operator()(float x) const");
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(op));
  w.line("return x;");
  w.close();
  w.close("};");
  w.line();
  w.alias("ElementIn", cutlass_type(in.dtype.value));
  w.alias("ElementOut", cutlass_type(out.dtype.value));
  int v = vector_width(m);
  w.line(fmt::format("constexpr int kVector = {};  // elements per access: {} bytes of `{}`, {} of `{}`", v,
                     v * dtype_bits(in.dtype.value) / 8, in.name.value, v * dtype_bits(out.dtype.value) / 8,
                     out.name.value));
  w.line();
  w.comment(
      fmt::format("out[i] = Chain{{}}(in[i]) for i < n (in: `{}`, out: `{}`) on `stream`; 0, or nonzero with "
                  "the reason\nin `err`.",
                  in.name.value, out.name.value));
  w.open(
      "int run_map(const ElementIn* in, ElementOut* out, int64_t n, cudaStream_t stream, char* err, size_t "
      "err_len)");
  w.line("return ucut_map_launch<ElementIn, ElementOut, kVector, Chain>(in, out, n, stream, err, err_len);");
  w.close();
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
