// export/torch_modules.cpp — see torch_modules.h.
#include "export/torch_modules.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "export/python_text.h"

namespace ucut::interop {
namespace {

const char* py_bool(bool b) { return b ? "True" : "False"; }

/// The N of a BatchNormNd or InstanceNormNd module for a value of shape `in` (chain.py's _norm_rank): 1 for
/// [N, C], else the dims after [N, C].
size_t norm_rank(const suite::Shape& in) { return std::max<size_t>(1, in.size() - 2); }

std::string conv_module(const suite::Op& op, const suite::Shape& x, bool transposed) {
  size_t r = x.size() - 2;
  return fmt::format(
      "nn.{}{}d({}, {}, {}, stride={}, padding={}, {}dilation={}, groups={}, bias={})",
      transposed ? "ConvTranspose" : "Conv", r, x[1], static_cast<int64_t>(op.number_or("out_channels", 0)),
      python_tuple(op.ints_or("kernel", r, 1)), python_tuple(op.ints_or("stride", r, 1)),
      python_tuple(op.ints_or("padding", r, 0)),
      transposed ? fmt::format("output_padding={}, ", python_tuple(op.ints_or("output_padding", r, 0))) : "",
      python_tuple(op.ints_or("dilation", r, 1)), static_cast<int64_t>(op.number_or("groups", 1)),
      py_bool(op.flag_or("bias", true)));
}

}  // namespace

std::optional<std::string> torch_module(const suite::Op& op, const suite::Shape& in) {
  const std::string eps = python_float(op.number_or("eps", 1e-5));
  switch (suite::op_form(op.kind)) {
    case suite::OpForm::linear:
      return fmt::format("nn.Linear({}, {}, bias={})", in.back(),
                         static_cast<int64_t>(op.number_or("out_features", 0)),
                         py_bool(op.flag_or("bias", true)));
    case suite::OpForm::conv:
      return conv_module(op, in, false);
    case suite::OpForm::conv_transpose:
      return conv_module(op, in, true);
    case suite::OpForm::batch_norm:
      return fmt::format("nn.BatchNorm{}d({}, eps={}, momentum={})", norm_rank(in), in[1], eps,
                         python_float(op.number_or("momentum", 0.1)));
    case suite::OpForm::group_norm:
      return fmt::format("nn.GroupNorm({}, {}, eps={})", static_cast<int64_t>(op.number_or("num_groups", 1)),
                         in[1], eps);
    case suite::OpForm::instance_norm:
      return fmt::format("nn.InstanceNorm{}d({}, eps={}, affine={})", norm_rank(in),
                         in[in.size() - norm_rank(in) - 1], eps, py_bool(op.flag_or("affine", false)));
    case suite::OpForm::layer_norm:
      return fmt::format("nn.LayerNorm({}, eps={})", python_tuple(*op.get("normalized_shape")->ints), eps);
    default:
      return std::nullopt;
  }
}

}  // namespace ucut::interop
