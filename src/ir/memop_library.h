// ir/memop_library.h — the `library` family (ops.def rows sort, topk, fft, attention): one call of a library's
// kernel on the whole of its input, where the library is the right answer. `sort`: CUB's device radix sort of the keys,
// ascending or descending, in place (no store) or into the store's tensor. `topk`: the k largest values,
// largest first, ties by the smaller index, with their indices: a stable descending radix sort of (value,
// index) pairs (CUB), its first k pairs stored. `fft`: the complex DFT (cuFFT C2C, unnormalized) of planar
// real and imaginary inputs into planar outputs, computed in f32. `attention`: softmax(scale · Q·Kᵀ)·V fused in
// one kernel, CUTLASS's fused multi-head attention (xFormers' memory-efficient forward, CUTLASS examples/41: the
// scores and probabilities stay on chip, the softmax online), Q [.., M, D], K [.., N, D], V [.., N, E] into
// Y [.., M, E] over up to two leading extents (batch, heads), row-major, accumulated in f32 (f32 operands on
// 3xTF32 tensor cores, bf16 on bf16 ones). Which library a kernel calls is part of its IR (library_name), so
// reports and the emitted code can say it is a library call.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/kernel_config.h"
#include "support/source.h"

namespace ucut {

struct MemOpConfig;

/// `order = ascending | descending` of a `sort`.
enum class SortOrder { ascending, descending };
/// `direction = forward | inverse` of an `fft`: e^(−2πi·jk/N) or e^(+2πi·jk/N), neither scaled.
enum class FftDirection { forward, inverse };

std::string_view sort_order_name(SortOrder o);
std::optional<SortOrder> find_sort_order(std::string_view name);
std::string_view fft_direction_name(FftDirection d);
std::optional<FftDirection> find_fft_direction(std::string_view name);

/// Where, under the CUTLASS directory, the kernel of `attention` lives (kernel_forward.h, CUTLASS's fused
/// multi-head attention): its examples/41, shipped with the headers by the pinned package. Every build puts it on
/// the include path (build/nvcc.cpp).
inline constexpr const char* kCutlassAttentionDir = "examples/41_fused_multi_head_attention";

/// What a library call computes beside its operands. `order` is a sort's (default ascending), `direction` an
/// fft's (default forward), `k` a topk's: the extent symbol of its outputs that counts the values kept.
/// `scale` an attention's factor on the scores (default 1/sqrt(D), `scale.span` implied), `causal` whether
/// query i sees the keys 0 .. i only (default false).
/// `outputs` are the tensors `store(...)` names, in order (a topk's values and indices, an fft's real and
/// imaginary parts); a sort without a store writes its input in place, and then `outputs` holds that input.
/// MemOpConfig::chain holds one store, of outputs[0].
struct LibrarySpec {
  Spanned<SortOrder> order;
  Spanned<FftDirection> direction;
  Spanned<std::string> k;
  Spanned<double> scale;
  Spanned<bool> causal;
  std::vector<TensorDecl> outputs;
  bool in_place = false;  // a sort with no store: outputs[0] is the input
};

/// The library a call hands its work to: "cub" (sort, topk), "cufft" (fft) or "cutlass" (attention). Reports
/// print it.
std::string_view library_name(const MemOpConfig& m);
/// {"library", "order"|"direction"|"k"|"scale" and "causal", "outputs", "in_place"}: the call's semantic
/// fields, for canonical_memop.
nlohmann::json canonical_library(const MemOpConfig& m);
/// The call's lines of dump_memop_ir, with the line:col each field came from.
std::string dump_library_ir(const SourceFile& src, const MemOpConfig& m);
/// The keyword arguments each library operator takes (for lowering and its hints).
std::vector<std::string_view> library_keywords(OpKind op);
/// An attention's operand extents by role: `lead` the leading ones (batch, heads; 0 to 2, Q's), M queries, N
/// keys, D (the scores' reduction), E (the values'). Only for shapes check accepts (C721).
struct AttentionExtents {
  std::vector<Extent> lead;
  Extent m, n, d, e;
};
AttentionExtents attention_extents(const MemOpConfig& m);
/// The call written in full, MSKB's names (`topk(input: f32[N], k = k) >> store(...)`): the hints' example.
std::string_view library_usage(OpKind op);

}  // namespace ucut
