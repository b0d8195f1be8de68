// export/torch_text.h — what every PyTorch binding (export/torch_binding.h, export/torch_family_binding.h) writes
// alike: ATen names of spec types and layouts, a tensor's PyTorch shape and description, the names a binding must
// not take, and, from a Binding's argument list, the C++ parameters, the signature docstring and the pybind11 module.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "emit/cpp_writer.h"
#include "export/torch_binding.h"
#include "ir/kernel_config.h"

namespace ucut::interop {

const char* at_type(DType t);          // "at::kFloat"
const char* layout_enum(Layout l);     // the helpers' "Layout::row"
std::string layout_words(Layout l);    // "row-major"
std::string lit(std::string_view s);   // a C++ string literal
std::string cpp_double(double v);      // a C++ double literal
/// Extent i of `t` as the spec writes it: its symbol or its fixed size.
std::string extent_text(const TensorDecl& t, size_t i);
/// PyTorch's dimension of spec extent i: a channels-last tensor [N, spatial..., C] is [N, C, spatial...] to PyTorch.
int64_t torch_dim(const TensorDecl& t, size_t i);
/// "[M, K]", or a channels-last tensor's PyTorch shape "[N, C, H, W]".
std::string shape_text(const TensorDecl& t);
/// "f32 [M, K] row-major".
std::string tensor_doc(const TensorDecl& t);
/// Names C++ and Python both reject, and the locals of the generated functions.
std::set<std::string> reserved_names();

/// The C++ parameters of the binding's function, in order.
std::vector<std::string> cpp_params(const Binding& b);
/// `fn(a, b, *, s=1.0)`, each argument's description, and what it returns.
std::string signature_doc(const Binding& b);
/// The binding's opening: what generated it (kernel, config hash), its signature, the includes, the kernel ABI, the
/// declaration of the kernel's C entry (`api_declaration`, made extern "C") and the checking helpers.
void write_binding_opening(CppWriter& w, const Binding& b, const std::string& kernel_name,
                           const std::string& config_hash, const std::string& api_declaration);
/// PYBIND11_MODULE defining the function with its docstring and keyword arguments.
void write_module(CppWriter& w, const Binding& b);

}  // namespace ucut::interop
