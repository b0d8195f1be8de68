// emit/memory/reduce_body.cpp — see reduce_body.h: the Body of a `reduce` kernel, full or per-axis.
#include "emit/memory/reduce_body.h"

#include <fmt/format.h>

#include "support/error.h"

namespace ucut::memory {
namespace {

/// "sum of (X * Y) -> sqrt -> loss": the reduction in words, for the comment above it.
std::string description(const MemOpConfig& m) {
  const ReduceSpec& r = *m.reduce;
  std::string out =
      fmt::format("{} of {}", reduce_op_name(r.op.value), r.of ? r.of->text : m.input().name.value);
  if (r.weights.value != ReduceWeights::none)
    out += fmt::format(" weighted {}", reduce_weights_name(r.weights.value));
  for (size_t i = 0; i < r.over.size(); ++i) out += (i ? ", " : " over ") + r.over[i].value;
  return out + chain_text(m);
}

/// The extent symbols the body reads (`load` of a size, a mean's count, Simpson's weights): the inputs'.
std::vector<std::string> body_extents(const MemOpConfig& m) {
  std::vector<std::string> names = m.operand_names();
  return {names.begin() + static_cast<std::ptrdiff_t>(m.inputs.size() + m.scalars.size()), names.end()};
}

}  // namespace

std::string reduce_accumulator(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::mean:
      return "ucut_reduce_value<ucut_reduce_sum>";
    case ReduceOp::max:
      return "ucut_reduce_value<ucut_reduce_max>";
    case ReduceOp::min:
      return "ucut_reduce_value<ucut_reduce_min>";
    case ReduceOp::argmax:  // memop_reduce_axes.inc's: an index along `over` (check: C706)
      return "ucut_reduce_argmax";
    case ReduceOp::argmin:
      return "ucut_reduce_argmin";
    case ReduceOp::logsumexp:  // a (max, sum of exps) pair
      return "ucut_reduce_logsumexp";
  }
  UC_UNREACHABLE() << "ReduceOp " << static_cast<int>(op);
}

void write_reduce_body(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads,
                       const std::function<void(CppWriter&)>& more) {
  const ReduceSpec& r = *m.reduce;
  w.comment(fmt::format("{}, in f32.", description(m)));
  w.open("struct Body");
  write_body_members(w, m, reads);
  for (const std::string& sym : body_extents(m)) w.line(fmt::format("int64_t n_{};", sym));
  w.line("int64_t count;  // the elements reduced");
  std::string params, values, elements;
  for (const TensorDecl& in : m.inputs) {
    params += fmt::format("float {}, ", value_id(in.name.value));
    values += fmt::format("{}[j], ", value_id(in.name.value));
    elements += fmt::format("{}.element(i), ", tensor_id(in.name.value));
  }
  w.line();
  if (r.weights.value == ReduceWeights::simpson) {
    w.comment(
        "Composite Simpson's weight of element i: 1, 4, 2, 4, ..., 2, 4, 1 up to `last`, the largest index\n"
        "with an even distance from 0; past it (the last element when the count is even) 0.");
    w.open("CUTLASS_DEVICE float weight(int64_t i) const");
    w.line("const int64_t last = ((count - 3) & ~int64_t(1)) + 2;");
    w.line("if (count < 3 || i > last) return 0.0f;");
    w.line("if (i == 0 || i == last) return 1.0f;");
    w.line("return (i & 1) ? 4.0f : 2.0f;");
    w.close();
  }
  w.comment("The value of element i, from each input's value there.");
  w.open(fmt::format("CUTLASS_DEVICE float value({}int64_t i) const", params));
  w.line(fmt::format("const float x = {};", value_id(m.input().name.value)));
  std::string of = r.of ? expr_code(m, *r.of) : "x";
  w.line(r.weights.value == ReduceWeights::simpson ? fmt::format("return ({}) * weight(i);", of)
                                                   : fmt::format("return {};", of));
  w.close();
  write_vector_and_element(w, m, fmt::format("value({}i + j)", values), fmt::format("value({}i)", elements));
  w.comment("The combined value through the chain.");
  w.open("CUTLASS_DEVICE float finish(float x) const");
  if (r.op.value == ReduceOp::mean) w.line("x = x / float(count);");
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(m, op));
  w.line("return x;");
  w.close();
  if (more) more(w);
  write_misaligned(w, m);
  w.close("};");
}

void write_body_fill(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  w.line("Body body;");
  write_fill(w, m, reads, "body");
  for (const std::string& sym : body_extents(m)) w.line(fmt::format("body.n_{0} = n_{0};", sym));
}

}  // namespace ucut::memory
