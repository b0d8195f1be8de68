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

std::string_view library_name(const MemOpConfig& m) {
  switch (m.op.value) {
    case OpKind::fft:
      return "cufft";
    case OpKind::attention:
      return "cutlass";
    default:
      return "cub";
  }
}

std::vector<std::string_view> library_keywords(OpKind op) {
  switch (op) {
    case OpKind::sort:
      return {"order"};
    case OpKind::topk:
      return {"k"};
    case OpKind::fft:
      return {"direction"};
    case OpKind::attention:
      return {"scale", "causal"};
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
    case OpKind::attention:
      return "attention(Q: f32[q_seq_len, dim_qk], K: f32[kv_seq_len, dim_qk], V: f32[kv_seq_len, dim_v]) >> "
             "store(Y: f32[q_seq_len, dim_v])";
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
  if (m.op.value == OpKind::attention) {
    if (!l.scale.span.implied) j["scale"] = l.scale.value;  // absent: 1/sqrt(D)
    j["causal"] = l.causal.value;
  }
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
  if (m.op.value == OpKind::attention) {
    o += l.scale.span.implied ? fmt::format("    scale 1/sqrt(D) {}\n", span_text(src, l.scale.span))
                              : fmt::format("    scale {} {}\n", l.scale.value, span_text(src, l.scale.span));
    o += fmt::format("    causal {} {}\n", l.causal.value, span_text(src, l.causal.span));
  }
  for (const TensorDecl& t : l.outputs)
    o += fmt::format("    output {}{}\n", tensor_text(src, t), l.in_place ? " (in place)" : "");
  return o;
}

AttentionExtents attention_extents(const MemOpConfig& m) {
  UC_ASSERT(m.op.value == OpKind::attention && m.inputs.size() == 3) << "attention_extents of a checked attention";
  const std::vector<Extent>&q = m.inputs[0].dims, &k = m.inputs[1].dims, &v = m.inputs[2].dims;
  const size_t r = q.size();
  AttentionExtents a;
  a.lead.assign(q.begin(), q.end() - 2);
  a.m = q[r - 2];
  a.d = q[r - 1];
  a.n = k[r - 2];
  a.e = v[r - 1];
  return a;
}

}  // namespace ucut
