// export/mskb_map_launcher.cpp — `export --mskb` of a memory-bound kernel (ir/memop.h): MSKB's launcher bound
// to the spec by name. A pointer parameter is the spec's tensor of its name (an input, or the tensor a slice
// views, of any constness; the output not const), an int parameter an extent symbol, a float or bf16 one a
// run-time scalar; the launcher passes them to the emitted kernel's run function (emit/memory/map.cpp's
// run_map, reduce.cpp's run_reduce, rownorm.cpp's run_rownorm, scan.cpp's run_scan, window.cpp's run_window (a
// window's int parameters are its inputs' extents and the names its size, stride and pad read), sparse.cpp's
// run_sparse (a sparse spec's caller tensors are its matrix's arrays and its dense operand, its extents those its
// format needs, ir/memop_sparse.h), library.cpp's run_library.
// Anything of the signature the spec lacks, or of the spec the signature lacks, is X007.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "emit/memory/memop_api.h"
#include "export/mskb_launcher.h"
#include "mskb/signature.h"
#include "support/error.h"

namespace ucut::interop {
namespace {

/// The spec type a launcher's C type passes.
DType spec_type(mskb::CType t) {
  switch (t) {
    case mskb::CType::f32:
      return DType::f32;
    case mskb::CType::bf16:
      return DType::bf16;
    case mskb::CType::i32:
      return DType::i32;
  }
  UC_UNREACHABLE() << "CType " << static_cast<int>(t);
}

/// The launcher parameter each of the spec's names binds to: the caller's tensors, the output, the scalars
/// (with their C type) and the extent symbols.
struct Binding {
  std::map<std::string, const mskb::Param*> params;
};

/// Where the extent `symbol` first appears: an input's extent, else the output's.
Span first_use(const MemOpConfig& m, const std::string& symbol) {
  std::vector<const TensorDecl*> tensors;
  for (const TensorDecl& t : m.inputs) tensors.push_back(&t);
  tensors.push_back(&m.output());
  for (const TensorDecl* t : tensors)
    for (const Extent& e : t->dims)
      if (e.symbol == symbol) return e.span;
  return m.header;
}

/// Binds `launcher`'s parameters to `m` by name: each parameter's own name, or the name the FP32 signature
/// (`names`) gives it at the same place (MSKB's BF16 launchers call some outputs `out` where FP32 says
/// `output`). Reports X007 at the spec's construct, or at its header when the spec lacks the parameter.
std::optional<Binding> bind(const MemOpConfig& m, const mskb::Signature& launcher,
                            const mskb::Signature& names, DiagEngine& diags) {
  Binding b;
  const std::vector<const TensorDecl*> outs = m.outputs();
  const std::vector<CallerTensor> callers = m.caller_inputs();
  const std::vector<std::string> extents = m.extent_symbols();
  const std::string hint =
      fmt::format("name the spec's tensors, scalars and extents as `{}` names its parameters: `{}`",
                  launcher.name, launcher.declaration(launcher.name));
  bool ok = true;
  auto fail = [&](Span where, std::string message) {
    diags.report(RuleId::X007, where, std::move(message), hint);
    ok = false;
  };
  for (size_t i = 0; i < launcher.params.size(); ++i) {
    const mskb::Param& p = launcher.params[i];
    const std::string& other = names.params[i].name;
    auto named = [&](const std::string& n) { return n == p.name || n == other; };
    if (p.pointer) {
      auto caller =
          std::find_if(callers.begin(), callers.end(), [&](const CallerTensor& t) { return named(t.name); });
      auto output = std::find_if(outs.begin(), outs.end(), [&](const TensorDecl* t) { return named(t->name.value); });
      bool is_output = caller == callers.end() && output != outs.end();
      if (caller == callers.end() && !is_output) {
        fail(m.header, fmt::format("`{}`'s parameter `{}` ({}) has no tensor of that name in the spec",
                                   launcher.name, p.name, p.spelling));
        continue;
      }
      DType dtype = is_output ? (*output)->dtype.value : caller->dtype.value;
      Span at = is_output ? (*output)->dtype.span : caller->dtype.span;
      const std::string& name = is_output ? (*output)->name.value : caller->name;
      if (spec_type(p.type) != dtype)
        fail(at, fmt::format("`{}` is {}, but `{}` passes `{}` as {}", name, dtype_name(dtype), launcher.name,
                             p.name, mskb::ctype_spelling(p.type)));
      if (is_output && p.is_const)
        fail((*output)->name.span, fmt::format("`{}` passes `{}` as a read-only input, but it is the spec's output",
                                        launcher.name, p.name));
      b.params[name] = &p;
    } else if (p.type == mskb::CType::i32) {
      auto e = std::find_if(extents.begin(), extents.end(), named);
      if (e == extents.end()) {
        fail(m.input().span,
             fmt::format("`{}`'s size `{}` is no extent of the spec's tensors", launcher.name, p.name));
        continue;
      }
      b.params[*e] = &p;
    } else {
      auto sc = std::find_if(m.scalars.begin(), m.scalars.end(),
                             [&](const ScalarDecl& d) { return named(d.name.value); });
      if (sc == m.scalars.end()) {
        fail(m.header, fmt::format("`{}`'s run-time scalar `{}` has no scalar of that name in the spec",
                                   launcher.name, p.spelling));
        continue;
      }
      if (spec_type(p.type) != sc->dtype.value)
        fail(sc->dtype.span,
             fmt::format("`{}` is {}, but `{}` passes `{}` as {}", sc->name.value,
                         dtype_name(sc->dtype.value), launcher.name, p.name, mskb::ctype_spelling(p.type)));
      b.params[sc->name.value] = &p;
    }
  }
  for (const CallerTensor& t : callers)
    if (!b.params.count(t.name))
      fail(t.span, fmt::format("the input `{}` is no parameter of `{}`", t.name, launcher.name));
  for (const ScalarDecl& sc : m.scalars)
    if (!b.params.count(sc.name.value))
      fail(sc.span, fmt::format("the scalar `{}` is no parameter of `{}`", sc.name.value, launcher.name));
  for (const std::string& sym : extents)
    if (!b.params.count(sym))
      fail(first_use(m, sym), fmt::format("the extent `{}` is no parameter of `{}`", sym, launcher.name));
  for (const TensorDecl* out : outs)
    if (ok && !b.params.count(out->name.value))
      fail(m.header, fmt::format("`{}` passes no output tensor `{}`", launcher.name, out->name.value));
  if (!ok) return std::nullopt;
  return b;
}

/// The launcher's alias of the kernel's namespace: `kernel`, unless a parameter has that name (conv_1d's weights).
std::string namespace_alias(const mskb::Signature& sig) {
  bool taken = std::any_of(sig.params.begin(), sig.params.end(), [](const mskb::Param& p) { return p.name == "kernel"; });
  return taken ? "ucut_kernel" : "kernel";
}

/// The arguments of the kernel's run_map (emit/memory/map.cpp): the caller's inputs, the output, the scalars
/// (in f32) and the extents, each from the launcher parameter bound to it; `ns` the kernel's namespace alias.
std::string run_arguments(const MemOpConfig& m, const Binding& b, const std::string& ns) {
  std::vector<std::string> args;
  std::vector<CallerTensor> callers = m.caller_inputs();
  for (size_t c = 0; c < callers.size(); ++c)
    args.push_back(fmt::format("reinterpret_cast<const {}::ElementIn{}*>({})", ns, c,
                               b.params.at(callers[c].name)->name));
  const std::vector<const TensorDecl*> outs = m.outputs();
  for (size_t o = 0; o < outs.size(); ++o)
    args.push_back(fmt::format("reinterpret_cast<{}::ElementOut{}*>({})", ns, o == 0 ? "" : std::to_string(o),
                               b.params.at(outs[o]->name.value)->name));
  for (const ScalarDecl& sc : m.scalars) {
    const mskb::Param& p = *b.params.at(sc.name.value);
    args.push_back(p.type == mskb::CType::bf16 ? fmt::format("__bfloat162float({})", p.name) : p.name);
  }
  for (const std::string& sym : m.extent_symbols())
    args.push_back(fmt::format("int64_t({})", b.params.at(sym)->name));
  std::string out;
  for (const std::string& a : args) out += a + ", ";
  return out;
}

}  // namespace

std::optional<std::map<std::string, size_t>> mskb_parameter_binding(const MemOpConfig& m,
                                                                    const mskb::Signature& launcher,
                                                                    const mskb::Signature& fp32, DiagEngine& diags) {
  std::optional<Binding> b = bind(m, launcher, fp32, diags);
  if (!b) return std::nullopt;
  std::map<std::string, size_t> out;
  for (const auto& [name, param] : b->params) out[name] = size_t(param - launcher.params.data());
  return out;
}

std::optional<MskbLauncher> mskb_launcher(const std::string& task_name, const MemOpConfig& m,
                                          const EmittedKernel& kernel, DiagEngine& diags) {
  const mskb::Task* task = mskb::find_task(task_name);
  if (!task) {
    diags.report(RuleId::X007, m.header, fmt::format("there is no MSKB task called `{}`", task_name),
                 "'ucutlass mskb list' prints every task");
    return std::nullopt;
  }
  // A `_bf16` name picks the BF16 launcher; a task's own name, the launcher of the spec's output type.
  mskb::Precision precision = task_name == mskb::launcher_name(*task, mskb::Precision::bf16) ||
                                      (task_name == task->name && m.output().dtype.value == DType::bf16)
                                  ? mskb::Precision::bf16
                                  : mskb::Precision::fp32;
  mskb::Signature sig = mskb::task_signature(*task, precision);
  auto binding = bind(m, sig, mskb::task_signature(*task, mskb::Precision::fp32), diags);
  if (!binding) return std::nullopt;
  std::string name = mskb::launcher_name(*task, precision), symbol = name + "_optimized";
  const std::string ns = namespace_alias(sig);
  MskbLauncher out;
  out.file = name + ".cu";
  out.source = fmt::format(
      "// MSKB launcher {} (ucutlass export --mskb {}): the emitted kernel `{}`, then the launcher with "
      "MSKB's\n"
      "// signature, its parameters bound to the spec's tensors, scalars and extents by name. Build it alone "
      "(nvcc,\n"
      "// CUTLASS include paths) or drop it into an MSKB test.\n",
      symbol, task_name, m.name.value);
  // A library call says so, and which library, where a reader (and a report) finds it: the file's first lines.
  if (m.library)
    out.source += fmt::format("// library: {} (the kernel hands its whole operation to the library: a library call)\n",
                              library_name(m));
  out.source += kernel.code;
  out.source += fmt::format(R"(
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>

extern "C" {0} {{
  namespace {5} = {1};
  char err[512] = {{0}};
  if ({5}::{4}({2}nullptr, err, sizeof err) != 0) {{
    std::fprintf(stderr, "{3}: %s\n", err);
    std::abort();
  }}
  cudaDeviceSynchronize();
}}
)",
                            sig.declaration(symbol), kernel.kernel_namespace, run_arguments(m, *binding, ns),
                            symbol, memop_run_function(m), ns);
  return out;
}

}  // namespace ucut::interop
