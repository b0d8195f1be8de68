// ir/memop_library.cpp — see memop_library.h: the names of a library call's choices, the library it calls,
// its canonical fields and its IR dump lines.
#include "ir/memop_library.h"

#include <fmt/format.h>

#include "ir/canonical.h"
#include "ir/memop.h"
#include "support/error.h"

namespace ucut {

std::string_view sort_order_name(SortOrder o) {
  return o == SortOrder::ascending ? "ascending" : "descending";
}

std::optional<SortOrder> find_sort_order(std::string_view name) {
  for (SortOrder o : {SortOrder::ascending, SortOrder::descending})
    if (name == sort_order_name(o)) return o;
  return std::nullopt;
}

std::string_view fft_direction_name(FftDirection d) {
  return d == FftDirection::forward ? "forward" : "inverse";
}

std::optional<FftDirection> find_fft_direction(std::string_view name) {
  for (FftDirection d : {FftDirection::forward, FftDirection::inverse})
    if (name == fft_direction_name(d)) return d;
  return std::nullopt;
}

std::string_view library_name(const MemOpConfig& m) { return m.op.value == OpKind::fft ? "cufft" : "cub"; }

std::vector<std::string_view> library_keywords(OpKind op) {
  switch (op) {
    case OpKind::sort:
      return {"order"};
    case OpKind::topk:
      return {"k"};
    case OpKind::fft:
      return {"direction"};
    default:
      break;
  }
  UC_UNREACHABLE() << "library_keywords of " << op_name(op);
}

std::string_view library_usage(OpKind op) {
  switch (op) {
    case OpKind::sort:
      return "sort(data: f32[N], order = ascending)";
    case OpKind::topk:
      return "topk(input: f32[N], k = k) >> store(top_k_values: f32[k], top_k_indices: i32[k])";
    case OpKind::fft:
      return "fft(input_real: f32[N], input_img: f32[N], direction = forward) >> store(output_real: f32[N], "
             "output_img: f32[N])";
    default:
      break;
  }
  UC_UNREACHABLE() << "library_usage of " << op_name(op);
}

nlohmann::json canonical_library(const MemOpConfig& m) {
  const LibrarySpec& l = *m.library;
  nlohmann::json outputs = nlohmann::json::array();
  for (const TensorDecl& t : l.outputs) outputs.push_back(tensor_json(t));
  nlohmann::json j = {{"library", library_name(m)}, {"outputs", outputs}, {"in_place", l.in_place}};
  if (m.op.value == OpKind::sort) j["order"] = sort_order_name(l.order.value);
  if (m.op.value == OpKind::topk) j["k"] = l.k.value;
  if (m.op.value == OpKind::fft) j["direction"] = fft_direction_name(l.direction.value);
  return j;
}

std::string dump_library_ir(const SourceFile& src, const MemOpConfig& m) {
  const LibrarySpec& l = *m.library;
  std::string o = fmt::format("  library {}\n", library_name(m));
  if (m.op.value == OpKind::sort)
    o += fmt::format("    order {} {}\n", sort_order_name(l.order.value), span_text(src, l.order.span));
  if (m.op.value == OpKind::topk) o += fmt::format("    k {} {}\n", l.k.value, span_text(src, l.k.span));
  if (m.op.value == OpKind::fft)
    o += fmt::format("    direction {} {}\n", fft_direction_name(l.direction.value),
                     span_text(src, l.direction.span));
  for (const TensorDecl& t : l.outputs)
    o += fmt::format("    output {}{}\n", tensor_text(src, t), l.in_place ? " (in place)" : "");
  return o;
}

}  // namespace ucut
