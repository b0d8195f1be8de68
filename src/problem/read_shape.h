// problem/read_shape.h — one entry of a problem file's `shapes` (docs/problems.md): a GEMM's m, n, k (and batch), a
// grouped GEMM's problem list, or a convolution's geometry with its implicit GEMM. Mistakes are reported through
// the problem file's rules (H002 unknown key, H004 a value out of range, H006 geometry that cannot be).
#pragma once

#include <optional>
#include <string>
#include <toml++/toml.h>
#include <variant>

#include "ir/types.h"
#include "problem/shape.h"
#include "support/toml_reader.h"

namespace ucut {

/// One entry of a kernel problem's `shapes` for operator `op`, at table `s`; `where` names it ("shape 2 of
/// `conv2d`"). nullopt after reporting why.
std::optional<GemmShape> read_shape(TomlReader& toml, const toml::table& s, OpKind op, const std::string& where);

/// Why a convolution's geometry table cannot be read: the rule, the key at fault ("" for the table as a whole), and
/// what to say.
struct GeometryFault {
  RuleId rule;
  std::string key;
  std::string message, hint;
};

/// A convolution as a problem declares it: forward convolutions and filter gradients by the forward geometry, a
/// transposed convolution by its own input (n, spatial, c channels), k output channels and output padding; a
/// depthwise convolution may leave out k (= c) and groups. Spatial arrays in [d, h, w] order, unused ones 1 (0 for
/// padding).
struct ConvDecl {
  int dims = 0;
  int64_t n = 0, c = 0;
  std::optional<int64_t> k, groups;
  std::array<int64_t, 3> in{1, 1, 1}, filter{1, 1, 1}, pad{0, 0, 0}, stride{1, 1, 1}, dilation{1, 1, 1},
      output_padding{0, 0, 0};
};

/// The geometry of `d` for convolution operator `op` (a transposed convolution as the data gradient of its forward
/// convolution), or why it cannot be: extents outside 1..2^31 - 1, groups that do not fit the operator or divide the
/// channels, output padding not below the stride, an empty output.
std::variant<ConvShape, GeometryFault> conv_shape(const ConvDecl& d, OpKind op);

/// Reads `{ n, (d, h,) w, c, k, (t, r,) s, pad, stride, dilation, groups, output_padding }` for convolution
/// operator `op` into conv_shape: pad, stride, dilation and output_padding are arrays of one integer per spatial
/// dimension (default 0, 1, 1, 0).
std::variant<ConvShape, GeometryFault> conv_geometry(const toml::table& s, OpKind op);

}  // namespace ucut
