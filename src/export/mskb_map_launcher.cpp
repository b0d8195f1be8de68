// export/mskb_map_launcher.cpp — `export --mskb` of a memory-bound kernel (ir/memop.h): MSKB's launcher bound
// to the spec by name. A pointer parameter is the spec's tensor of its name (the input const, the output
// not), an int parameter an extent symbol of the input; the launcher passes the element count (the extents'
// product) to the emitted kernel's run function (emit/memory/map.cpp). Anything of the signature the spec
// lacks, or of the spec the signature lacks, is X007.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "export/mskb_launcher.h"
#include "mskb/signature.h"
#include "support/error.h"

namespace ucut::interop {
namespace {

/// The spec type a launcher's C type passes (int arrays have none among the map's tensors).
std::optional<DType> spec_type(mskb::CType t) {
  switch (t) {
    case mskb::CType::f32:
      return DType::f32;
    case mskb::CType::bf16:
      return DType::bf16;
    case mskb::CType::i32:
      return std::nullopt;
  }
  UC_UNREACHABLE() << "CType " << static_cast<int>(t);
}

/// How each launcher parameter reaches the kernel: a tensor, an extent, or (reported) nothing.
struct Binding {
  std::map<std::string, std::string> extents;  // extent symbol -> launcher parameter
  std::string input, output;                   // launcher parameters
};

/// Binds `launcher`'s parameters to `m` by name: each parameter's own name, or the name the FP32 signature
/// (`names`) gives it at the same place (MSKB's BF16 launchers call some outputs `out` where FP32 says
/// `output`). Reports X007 at the spec's construct, or at its header when the spec lacks the parameter.
std::optional<Binding> bind(const MemOpConfig& m, const mskb::Signature& launcher,
                            const mskb::Signature& names, DiagEngine& diags) {
  Binding b;
  const TensorDecl& in = m.input();
  const TensorDecl& out = m.output();
  const std::string hint =
      fmt::format("name the spec's tensors and extents as `{}` names its parameters: `{}`", launcher.name,
                  launcher.declaration(launcher.name));
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
      const TensorDecl* t = named(in.name.value) ? &in : named(out.name.value) ? &out : nullptr;
      if (!t) {
        fail(m.header, fmt::format("`{}`'s parameter `{}` ({}) has no tensor of that name in the spec",
                                   launcher.name, p.name, p.spelling));
        continue;
      }
      if (spec_type(p.type) != t->dtype.value)
        fail(t->dtype.span,
             fmt::format("`{}` is {}, but `{}` passes `{}` as {}", t->name.value, dtype_name(t->dtype.value),
                         launcher.name, p.name, mskb::ctype_spelling(p.type)));
      if (p.is_const != (t == &in))
        fail(t->name.span,
             fmt::format("`{}` passes `{}` as {}, but it is the spec's {}", launcher.name, p.name,
                         p.is_const ? "a read-only input" : "an output", t == &in ? "input" : "output"));
      (t == &in ? b.input : b.output) = p.name;
    } else if (p.type == mskb::CType::i32) {
      auto e = std::find_if(in.dims.begin(), in.dims.end(), [&](const Extent& d) { return named(d.symbol); });
      if (e == in.dims.end()) {
        fail(in.span, fmt::format("`{}`'s size `{}` is no extent of the input `{}`", launcher.name, p.name,
                                  in.name.value));
        continue;
      }
      b.extents[e->symbol] = p.name;
    } else {
      fail(m.header, fmt::format("`{}`'s parameter `{}` is a run-time scalar, and a `{}` kernel takes none",
                                 launcher.name, p.spelling, op_name(m.op.value)));
    }
  }
  for (const Extent& e : in.dims)
    if (!e.fixed() && !b.extents.count(e.symbol))
      fail(e.span, fmt::format("the extent `{}` of `{}` is no parameter of `{}`", e.symbol, in.name.value,
                               launcher.name));
  if (ok && (b.input.empty() || b.output.empty()))
    fail(m.header,
         fmt::format("`{}` passes no {} tensor", launcher.name, b.input.empty() ? "input" : "output"));
  if (!ok) return std::nullopt;
  return b;
}

/// `int64_t(N) * 1024 * ...`: the input's element count from the launcher's sizes and the fixed extents.
std::string element_count(const TensorDecl& in, const Binding& b) {
  std::string out;
  for (const Extent& e : in.dims)
    out += (out.empty() ? "" : " * ") + (e.fixed() ? fmt::format("int64_t({})", e.size)
                                                   : fmt::format("int64_t({})", b.extents.at(e.symbol)));
  return out;
}

}  // namespace

std::optional<MskbLauncher> mskb_launcher(const std::string& task_name, const MemOpConfig& m,
                                          const EmittedKernel& kernel, DiagEngine& diags) {
  const mskb::Task* task = mskb::find_task(task_name);
  if (!task) {
    diags.report(RuleId::X007, m.header, fmt::format("there is no MSKB task called `{}`", task_name),
                 "'ucutlass mskb list' prints every task");
    return std::nullopt;
  }
  // A `_bf16` name picks the BF16 launcher; a task's own name, the launcher of the spec's input type.
  mskb::Precision precision = task_name == mskb::launcher_name(*task, mskb::Precision::bf16) ||
                                      (task_name == task->name && m.input().dtype.value == DType::bf16)
                                  ? mskb::Precision::bf16
                                  : mskb::Precision::fp32;
  mskb::Signature sig = mskb::task_signature(*task, precision);
  auto binding = bind(m, sig, mskb::task_signature(*task, mskb::Precision::fp32), diags);
  if (!binding) return std::nullopt;
  std::string name = mskb::launcher_name(*task, precision), symbol = name + "_optimized";
  MskbLauncher out;
  out.file = name + ".cu";
  out.source = fmt::format(
      "// MSKB launcher {} (ucutlass export --mskb {}): the emitted kernel `{}`, then the launcher with "
      "MSKB's\n"
      "// signature, its parameters bound to the spec's tensors and extents by name. Build it alone (nvcc, "
      "CUTLASS\n"
      "// include paths) or drop it into an MSKB test.\n",
      symbol, task_name, m.name.value);
  out.source += kernel.code;
  out.source += fmt::format(R"(
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>

extern "C" {0} {{
  namespace kernel = {1};
  char err[512] = {{0}};
  if (kernel::run_map(reinterpret_cast<const kernel::ElementIn*>({2}), reinterpret_cast<kernel::ElementOut*>({3}),
                      {4}, nullptr, err, sizeof err) != 0) {{
    std::fprintf(stderr, "{5}: %s\n", err);
    std::abort();
  }}
  cudaDeviceSynchronize();
}}
)",
                            sig.declaration(symbol), kernel.kernel_namespace, binding->input, binding->output,
                            element_count(m.input(), *binding), symbol);
  return out;
}

}  // namespace ucut::interop
