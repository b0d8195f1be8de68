// export/torch_extension.cpp — see torch_extension.h.
#include "export/torch_extension.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "export/python_text.h"
#include "support/version.h"

namespace ucut::interop {
namespace {

/// nvcc's -gencode flags for `gencode` ("arch=compute_80,code=[sm_80,compute_80]" as two flags: PyTorch runs
/// the compiler through a shell, where brackets would be a glob).
std::vector<std::string> gencode_flags(const std::string& gencode) {
  size_t code = gencode.find(",code=");
  std::string arch = gencode.substr(0, code), codes = gencode.substr(code + 6);
  if (codes.front() == '[') codes = codes.substr(1, codes.size() - 2);
  std::vector<std::string> out;
  for (size_t at = 0; at <= codes.size();) {
    size_t end = codes.find(',', at);
    if (end == std::string::npos) end = codes.size();
    out.push_back(fmt::format("-gencode={},code={}", arch, codes.substr(at, end - at)));
    at = end + 1;
  }
  return out;
}

/// A Python list of strings, one per line.
std::string quoted_list(const std::vector<std::string>& items) {
  std::string out = "[\n";
  for (const std::string& s : items) out += fmt::format("    \"{}\",\n", s);
  return out + "]";
}

/// The Python function: normalizes convolution geometry to lists and calls the extension.
std::string python_function(const Binding& b) {
  std::vector<std::string> params, call;
  bool star = false;
  for (const BindingArg& a : b.args) {
    if (a.kind != BindingArg::Kind::tensor && !star) {
      params.push_back("*");
      star = true;
    }
    switch (a.kind) {
      case BindingArg::Kind::tensor:
        params.push_back(a.name);
        call.push_back(a.name);
        break;
      case BindingArg::Kind::scalar:
        params.push_back(a.required ? a.name : fmt::format("{}={}", a.name, python_float(a.default_value)));
        call.push_back(fmt::format("{0}={0}", a.name));
        break;
      case BindingArg::Kind::geometry:
        params.push_back(fmt::format("{}={}", a.name, a.default_value));
        call.push_back(fmt::format("{0}=_ucut_ints({0}, \"{0}\")", a.name));
        break;
    }
  }
  std::string doc = fmt::format("{}({})\n", b.function, fmt::join(params, ", "));
  for (const BindingArg& a : b.args) doc += fmt::format("\n{}: {}", a.name, a.doc);
  doc += b.returns.size() == 1 ? "\n\nReturns " : "\n\nReturns a tuple:";
  for (const std::string& r : b.returns) doc += (b.returns.size() == 1 ? "" : "\n") + r;
  doc +=
      "\n\nRaises TypeError for a wrong element type, ValueError for a wrong device, shape, layout or\n"
      "alignment (naming the argument), RuntimeError when the kernel refuses the arguments or fails to "
      "launch.";
  std::string out;
  if (b.spatial_dims) {
    out += "def _ucut_ints(value, name):\n";
    out +=
        fmt::format("    \"\"\"An int or {} ints, as torch.nn.functional's convolutions take them.\"\"\"\n",
                    b.spatial_dims);
    out += "    if isinstance(value, int):\n";
    out += fmt::format("        return [value] * {}\n", b.spatial_dims);
    out += "    values = [int(v) for v in value]\n";
    out += fmt::format("    if len(values) != {}:\n", b.spatial_dims);
    out += fmt::format(
        "        raise ValueError(f\"{}: `{{name}}` must be an int or {} ints, got {{value!r}}\")\n",
        b.function, b.spatial_dims);
    out += "    return values\n\n\n";
  }
  out += fmt::format("def {}({}):\n", b.function, fmt::join(params, ", "));
  std::string literal = python_string_literal(doc), indented = "    ";
  for (size_t i = 0; i < literal.size(); ++i) {  // the docstring's lines indented, blank ones left empty
    indented += literal[i];
    if (literal[i] == '\n' && i + 1 < literal.size() && literal[i + 1] != '\n') indented += "    ";
  }
  out += indented + "\n";
  std::string ret = fmt::format("    return _ucut_load().{}({})\n", b.function, fmt::join(call, ", "));
  if (ret.size() > 111)  // one argument per line
    ret =
        fmt::format("    return _ucut_load().{}(\n        {})\n", b.function, fmt::join(call, ",\n        "));
  out += ret;
  return out;
}

}  // namespace

std::string extension_name(const std::string& kernel_name, const EmittedKernel& kernel) {
  return fmt::format("ucut_{}_{}", kernel_name, kernel.config_hash.substr(0, 12));
}

std::string kernelbench_prelude(Arch arch, const EmittedKernel& kernel, const std::string& binding_cpp,
                                const std::string& extension, const std::string& who, bool channels_last) {
  std::string s =
      "import os\n\nimport torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load_inline\n\n\n";
  s += python_build_settings(arch, kernel);
  s += fmt::format("\n_UCUT_CUDA_SOURCE = {}\n\n_UCUT_BINDING_SOURCE = {}\n\n", python_string_literal(kernel.code),
                   python_string_literal(binding_cpp));
  s += fmt::format(
      "# Built when this source runs (a compile error is KernelBench's compilation failure); PyTorch keeps the build\n"
      "# in $TORCH_EXTENSIONS_DIR, which KernelBench points at its build folder.\n"
      "_ucut_extension = load_inline(\n"
      "    name=\"{}\",\n"
      "    cpp_sources=[_UCUT_BINDING_SOURCE],\n"
      "    cuda_sources=[_UCUT_CUDA_SOURCE],\n"
      "    extra_include_paths=_ucut_cutlass_includes(\"ModelNew ({})\"),\n"
      "    extra_cuda_cflags=_UCUT_CUDA_FLAGS,\n"
      "    no_implicit_headers=True,\n"
      "    verbose=bool(os.environ.get(\"UCUT_VERBOSE_BUILD\")))\n\n\n",
      extension, who);
  if (channels_last)
    s += "def _ucut_channels_last(t):\n"
         "    \"\"\"t [N, C, ...] in channels-last memory: the kernel ABI's packed N(D)(H)WC.\"\"\"\n"
         "    return t.movedim(1, -1).contiguous().movedim(-1, 1)\n\n\n";
  return s;
}

std::string python_build_settings(Arch arch, const EmittedKernel& kernel) {
  std::vector<std::string> flags = {"-std=c++17", "-O3", "-DNDEBUG", "--expt-relaxed-constexpr"};
  for (std::string& g : gencode_flags(kernel.gencode)) flags.push_back(std::move(g));
  for (const char* f : {"-U__CUDA_NO_HALF_OPERATORS__", "-U__CUDA_NO_HALF_CONVERSIONS__",
                        "-U__CUDA_NO_BFLOAT16_CONVERSIONS__", "-U__CUDA_NO_HALF2_OPERATORS__", "-Xcudafe",
                        "--diag_suppress=esa_on_defaulted_function_ignored"})
    flags.push_back(f);
  return fmt::format(R"(def _ucut_cutlass_includes(who):
    """CUTLASS's include folders, from $CUTLASS_DIR: the folder that holds include/cutlass/cutlass.h."""
    root = os.environ.get("CUTLASS_DIR")
    if not root:
        raise RuntimeError(
            f"{{who}}: set CUTLASS_DIR to CUTLASS's source tree (the folder holding include/cutlass/cutlass.h, "
            "e.g. the nvidia-cutlass wheel's cutlass_library/source) to build the ucutlass kernel")
    include = os.path.join(root, "include")
    if not os.path.isfile(os.path.join(include, "cutlass", "cutlass.h")):
        raise RuntimeError(f"{{who}}: CUTLASS_DIR={{root!r}} holds no include/cutlass/cutlass.h")
    return [include, os.path.join(root, "tools", "util", "include")]


# nvcc flags: those `ucutlass build` compiles the kernel with, for {} only (PyTorch adds no arch flags of its own
# when one is given), and CUDA's half and bfloat16 operators, which PyTorch's default flags turn off.
_UCUT_CUDA_FLAGS = {}
)",
                     arch_info(arch).name, quoted_list(flags));
}

std::vector<ExportedFile> torch_extension(const std::string& kernel_name, Arch arch, const EmittedKernel& kernel,
                                          const Binding& b) {
  std::string stem = b.function;
  std::string cu = stem + "_kernel.cu", cpp = stem + "_binding.cpp";
  std::string py = fmt::format(
      R"("""{0}: the ucutlass kernel `{1}` as a PyTorch function.

Generated by ucutlass {2} (`ucutlass export --torch`); do not edit: change the spec and export again.
The first call builds the extension {3} with torch.utils.cpp_extension.load from
  {4}  (the emitted CUTLASS kernel, its spec at the top) and
  {5}  (the binding),
nvcc for {6} and CUTLASS's headers from $CUTLASS_DIR (UCUT_VERBOSE_BUILD=1 shows the build); PyTorch keeps the
build in $TORCH_EXTENSIONS_DIR. The kernel runs on the current CUDA stream.
"""
import os

from torch.utils.cpp_extension import load

_UCUT_HERE = os.path.dirname(os.path.abspath(__file__))


{7}
_ucut_extension = None


def _ucut_load():
    """The extension, built on first use."""
    global _ucut_extension
    if _ucut_extension is None:
        _ucut_extension = load(
            name="{3}",
            sources=[os.path.join(_UCUT_HERE, "{5}"),
                     os.path.join(_UCUT_HERE, "{4}")],
            extra_include_paths=_ucut_cutlass_includes("{0}"),
            extra_cuda_cflags=_UCUT_CUDA_FLAGS,
            verbose=bool(os.environ.get("UCUT_VERBOSE_BUILD")))
    return _ucut_extension


{8})",
      stem, kernel_name, UCUTLASS_VERSION, extension_name(kernel_name, kernel), cu, cpp, arch_info(arch).name,
      python_build_settings(arch, kernel), python_function(b));
  return {{cu, kernel.code}, {cpp, b.cpp}, {stem + ".py", py}};
}

}  // namespace ucut::interop
