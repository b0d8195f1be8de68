// problem/input_draw.h — how the harness draws each operand's values (docs/problems.md, "Inputs"): signed data by
// default, or the way the problem's framework draws them (KernelBench's torch.rand inputs and PyTorch's default
// layer init), which is what published speedups were checked on.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/enum_json.h"
#include "support/enum_names.h"

namespace ucut {

/// signed_mix: input set i draws from distribution i % 3 (uniform(-1, 1), normal(0, 1), mixed magnitudes): signed
///   data whose products cancel, the strict test of accumulation error and the harness's default;
/// rand: uniform [0, 1) (torch.rand); randn: normal(0, 1) (torch.randn);
/// param: uniform(-1/√K, 1/√K), K the GEMM's reduction length (a convolution's taps · channels per group):
///   PyTorch's default init of a Linear or Conv layer's weight and bias (bound 1/√fan_in).
enum class InputDraw { signed_mix, rand, randn, param };

constexpr auto enum_names(InputDraw) {
  return name_table<InputDraw>("input draw", {{InputDraw::signed_mix, "signed"}, {InputDraw::rand, "rand"},
                                              {InputDraw::randn, "randn"}, {InputDraw::param, "param"}});
}
UCUT_ENUM_JSON(InputDraw)

/// One draw per operand role: A, B, the residual C and the epilogue's vectors.
struct InputDraws {
  InputDraw a = InputDraw::signed_mix, b = InputDraw::signed_mix, c = InputDraw::signed_mix,
            vectors = InputDraw::signed_mix;

  bool all_signed() const;
  bool same_as(const InputDraws& o) const;
  /// "signed" when every role is, else "a=rand b=param c=signed vectors=param".
  std::string text() const;
};

/// The inverse of text(); nullopt for anything else.
std::optional<InputDraws> parse_input_draws(std::string_view text);

}  // namespace ucut
