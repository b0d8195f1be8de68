// export/torch_text.cpp — see torch_text.h.
#include "export/torch_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "emit/template_paste.h"
#include "export/python_text.h"
#include "support/version.h"

namespace ucut::interop {

const char* at_type(DType t) {
  switch (t) {
    case DType::f64:
      return "at::kDouble";
    case DType::f32:
    case DType::tf32:
      return "at::kFloat";
    case DType::f16:
      return "at::kHalf";
    case DType::bf16:
      return "at::kBFloat16";
    case DType::e4m3:
      return "at::kFloat8_e4m3fn";
    case DType::e5m2:
      return "at::kFloat8_e5m2";
    case DType::i8:
      return "at::kChar";
    case DType::i32:
      return "at::kInt";
  }
  return "";
}

const char* layout_enum(Layout l) {
  switch (l) {
    case Layout::row:
      return "Layout::row";
    case Layout::col:
      return "Layout::col";
    case Layout::channels_last:
      return "Layout::channels_last";
  }
  return "";
}

std::string layout_words(Layout l) {
  switch (l) {
    case Layout::row:
      return "row-major";
    case Layout::col:
      return "column-major";
    case Layout::channels_last:
      return "channels-last";
  }
  return "";
}

std::string lit(std::string_view s) { return cpp_string_literal(s); }

/// A C++ double literal for a scalar's default.
std::string cpp_double(double v) {
  if (std::isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
  if (std::isnan(v)) return "NAN";
  std::string s = fmt::format("{}", v);
  return s.find_first_of(".e") == std::string::npos ? s + ".0" : s;
}

/// Extent i of `t` as the spec writes it: its symbol or its fixed size.
std::string extent_text(const TensorDecl& t, size_t i) {
  return t.dims[i].fixed() ? fmt::format("{}", t.dims[i].size) : t.dims[i].symbol;
}

/// PyTorch's dimension of spec extent i: a channels-last tensor [N, spatial..., C] is [N, C, spatial...] to
/// PyTorch.
int64_t torch_dim(const TensorDecl& t, size_t i) {
  if (t.layout.value != Layout::channels_last || i == 0) return static_cast<int64_t>(i);
  return i + 1 == t.dims.size() ? 1 : static_cast<int64_t>(i) + 1;
}

/// "[M, K]", or a channels-last tensor's PyTorch shape "[N, C, H, W]".
std::string shape_text(const TensorDecl& t) {
  std::vector<std::string> names(t.dims.size());
  for (size_t i = 0; i < t.dims.size(); ++i) names[static_cast<size_t>(torch_dim(t, i))] = extent_text(t, i);
  return fmt::format("[{}]", fmt::join(names, ", "));
}

std::string tensor_doc(const TensorDecl& t) {
  return fmt::format("{} {} {}", dtype_name(t.caller_dtype()), shape_text(t), layout_words(t.layout.value));
}

/// Names C++ and Python both reject, and the locals of the generated function.
std::set<std::string> reserved_names() {
  return {"fn_",      "args_",    "g_",        "guard_",   "m_",       "n_",         "k_",        "l_",
          "api_",     "auto",     "bool",      "case",     "char",     "const",      "default",   "delete",
          "do",       "double",   "enum",      "extern",   "float",    "friend",     "goto",      "inline",
          "int",      "long",     "namespace", "new",      "operator", "private",    "protected", "public",
          "register", "short",    "signed",    "sizeof",   "static",   "struct",     "switch",    "template",
          "this",     "throw",    "typedef",   "typename", "union",    "unsigned",   "using",     "virtual",
          "void",     "volatile", "at",        "c10",      "torch",    "ucut_torch", "std"};
}

std::vector<std::string> cpp_params(const Binding& b) {
  std::vector<std::string> p;
  for (const BindingArg& a : b.args) {
    switch (a.kind) {
      case BindingArg::Kind::tensor:
        p.push_back("const at::Tensor& " + a.name);
        break;
      case BindingArg::Kind::scalar:
        p.push_back("double " + a.name);
        break;
      case BindingArg::Kind::geometry:
        p.push_back("const std::vector<int64_t>& " + a.name);
        break;
    }
  }
  return p;
}


std::string signature_doc(const Binding& b) {
  std::vector<std::string> params;
  bool star = false;
  for (const BindingArg& a : b.args) {
    if (a.kind != BindingArg::Kind::tensor && !star) {
      params.push_back("*");
      star = true;
    }
    params.push_back(a.kind == BindingArg::Kind::tensor || a.required ? a.name
                     : a.kind == BindingArg::Kind::scalar
                         ? fmt::format("{}={}", a.name, python_float(a.default_value))
                         : fmt::format("{}={}", a.name, a.default_value));
  }
  std::string doc = fmt::format("{}({})", b.function, fmt::join(params, ", "));
  for (const BindingArg& a : b.args) doc += fmt::format("\n  {}: {}", a.name, a.doc);
  doc += b.returns.size() == 1 ? "\nreturns" : "\nreturns a tuple";
  for (const std::string& r : b.returns) doc += "\n  " + r;
  return doc;
}


void write_binding_opening(CppWriter& w, const Binding& b, const std::string& kernel_name,
                           const std::string& config_hash, const std::string& api_declaration) {
  w.comment(fmt::format(
      "Generated by ucutlass {} (`ucutlass export`) from kernel `{}`: its PyTorch binding. Do not "
      "edit: change the spec and export again.",
      UCUTLASS_VERSION, kernel_name));
  w.comment(fmt::format("config sha256 {}", config_hash));
  w.comment(signature_doc(b));
  for (const char* inc : {"<ATen/cuda/CUDAContext.h>", "<c10/cuda/CUDAGuard.h>", "<torch/extension.h>"})
    w.line(fmt::format("#include {}", inc));
  w.line();
  for (const char* inc : {"<cstdint>", "<tuple>", "<vector>"}) w.line(fmt::format("#include {}", inc));
  w.line();
  paste_template(w, "kernel_abi.h");
  w.line();
  w.line(fmt::format("extern \"C\" {};", api_declaration));
  w.line();
  paste_template(w, "ucut_torch_helpers.inc");
  w.line();
}

void write_module(CppWriter& w, const Binding& b) {
  std::vector<std::string> params;
  bool star = false;
  for (const BindingArg& a : b.args) {
    if (a.kind != BindingArg::Kind::tensor && !star) {
      params.push_back("pybind11::kw_only()");
      star = true;
    }
    std::string arg = fmt::format("pybind11::arg({})", lit(a.name));
    if (a.kind == BindingArg::Kind::scalar && !a.required) arg += " = " + cpp_double(a.default_value);
    if (a.kind == BindingArg::Kind::geometry)
      arg += fmt::format(" = std::vector<int64_t>({}, {})", b.spatial_dims, a.default_value);
    params.push_back(arg);
  }
  std::vector<std::string> lines = {fmt::format("{}, &{}", lit(b.function), b.function)};
  std::string doc = signature_doc(b), text;
  for (size_t at = 0; at < doc.size();) {  // the docstring, one C string literal per line
    size_t nl = doc.find('\n', at);
    if (nl == std::string::npos) nl = doc.size() - 1;
    text += (text.empty() ? "" : "\n    ") + lit(doc.substr(at, nl + 1 - at));
    at = nl + 1;
  }
  lines.push_back(text);
  lines.insert(lines.end(), params.begin(), params.end());
  w.open("PYBIND11_MODULE(TORCH_EXTENSION_NAME, module_)");
  w.line("module_.def(");
  for (size_t i = 0; i < lines.size(); ++i)
    w.line(fmt::format("    {}{}", lines[i], i + 1 == lines.size() ? ");" : ","));
  w.close();
}

}  // namespace ucut::interop
