// export/torch_binding.h — the C++ half of a PyTorch extension around an emitted kernel: one function that
// takes torch tensors, checks each against the spec (device, element type, rank, extents, layout, alignment;
// messages name the argument and what it must be), allocates the outputs, fills ucut_gemm_args and runs the
// kernel on the current CUDA stream; and its pybind11 module. Serves `export --torch` and `export
// --kernelbench`.
//
// The function's arguments, in order: operand A and B (X and W for a convolution), the residual source C, one
// tensor per vector slot (bias, channel_scale), one f32 scale per FP8 `scaled` tensor, then keyword-only: one
// float per scalar slot (defaults from the spec) and a convolution's stride, padding, dilation (and
// output_padding). It returns the output, or a tuple of the output and every aux_store / reduction output in
// slot order. Matrices are PyTorch tensors of their logical shape ([M, K], [L, M, K]) stored as the spec
// says: row-major is contiguous, column-major the transpose of a contiguous tensor. Convolution tensors have
// PyTorch's logical shape
// ([N, C, H, W]; weights [K, C/groups, R, S], transposed [C, K, R, S]) in channels-last memory, which is the
// ABI's packed NHWC; outputs come back the same way.
#pragma once

#include <string>
#include <vector>

#include "ir/kernel_config.h"

namespace ucut::interop {

struct BindingArg {
  enum class Kind { tensor, scalar, geometry };
  std::string name;  // the Python and C++ parameter name
  Kind kind = Kind::tensor;
  std::string doc;           // "f32 [M, K] row-major"
  double default_value = 0;  // scalars: the spec's value; geometry: 1 (stride, dilation) or 0
  bool required = false;     // a keyword argument without a default (a family kernel's run-time scalar)
};

struct Binding {
  std::string function;              // ucut_<kernel>
  std::vector<BindingArg> args;      // in call order; scalars and geometry are keyword-only
  std::vector<std::string> returns;  // one line per output, in return order
  int spatial_dims = 0;              // convolutions: the values per geometry argument
  std::string cpp;                   // the binding's translation unit
};

/// The binding of a checked kernel that `export` accepts (export/exportable.h), calling
/// `<kernel_namespace>_api()`.
Binding torch_binding(const KernelConfig& cfg, const std::string& kernel_namespace);

/// torch.<dtype> for a spec element type ("float32", "bfloat16", "float8_e4m3fn").
std::string torch_dtype(DType t);

}  // namespace ucut::interop
