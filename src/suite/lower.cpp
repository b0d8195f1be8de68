// suite/lower.cpp — see lower.h. The main op becomes the harness operator and its shape; every later op one DSL
// epilogue stage (ir/epilogues.def), written in the DSL's chain syntax.
#include "suite/lower.h"

#include <fmt/format.h>

#include <numeric>
#include <optional>

#include "eval/input_draw.h"

namespace ucut::suite {
namespace {

std::string num(double v) { return fmt::format("{}", v); }

/// A value PyTorch broadcasts along one output dim only: its extents are 1 except at `dim` (counted in the
/// output's rank, aligned from the right), where it equals `extent`.
bool per_dim_vector(const Shape& p, const Shape& out, size_t dim, int64_t extent) {
  if (p.size() > out.size()) return false;
  size_t shift = out.size() - p.size();
  bool hit = false;
  for (size_t i = 0; i < p.size(); ++i) {
    if (i + shift == dim) {
      if (p[i] != extent) return false;
      hit = true;
    } else if (p[i] != 1) {
      return false;
    }
  }
  return hit;
}

struct Stage {
  std::optional<std::string> text;
  std::string why_not;
};

Stage ok(std::string t) { return Stage{std::move(t), ""}; }
Stage no(std::string why) { return Stage{std::nullopt, std::move(why)}; }

/// One later op as an epilogue stage; `channel_dim` is the output dim a per-channel vector runs along (the last
/// for GEMMs, 1 for convolutions), `out` the main op's output shape.
Stage epilogue_stage(const Op& op, const Shape& out, size_t channel_dim) {
  std::string name = op_name(op.kind);
  if (op.get("other")) return no(fmt::format("`{}` reads another tensor of the chain (`other`)", name));
  if (op_form(op.kind) == OpForm::binary) {
    if (const Attr* p = op.get("param")) {
      bool vector = per_dim_vector(*p->ints, out, channel_dim, out[channel_dim]);
      if (vector && op.kind == OpKind::add) return ok("bias(col)");
      if (vector && op.kind == OpKind::mul) return ok("channel_scale(col)");
      return no(fmt::format("`{}` with a parameter of shape [{}]: epilogues add or multiply per-channel vectors only",
                            name, fmt::join(*p->ints, ", ")));
    }
    double v = op.number_or("scalar", 0);
    switch (op.kind) {
      case OpKind::add: return ok(fmt::format("expr(x + {})", num(v)));
      case OpKind::sub: return ok(fmt::format("expr(x - {})", num(v)));
      case OpKind::mul: return ok(fmt::format("scale({})", num(v)));
      default: return ok(fmt::format("expr(x / {})", num(v)));
    }
  }
  switch (op.kind) {
    case OpKind::relu:
    case OpKind::sigmoid:
    case OpKind::tanh:
    case OpKind::silu:
    case OpKind::mish:
    case OpKind::hardswish: return ok(name);
    case OpKind::gelu: {
      const Attr* a = op.get("approximate");
      return ok(a && a->text && *a->text == "tanh" ? "gelu_tanh" : "gelu");
    }
    case OpKind::leaky_relu: return ok(fmt::format("leaky_relu({})", num(op.number_or("negative_slope", 0.01))));
    case OpKind::hardtanh:
      return ok(fmt::format("hardtanh({}, {})", num(op.number_or("min_val", -1)), num(op.number_or("max_val", 1))));
    case OpKind::softplus:
      return ok(fmt::format("softplus({}, {})", num(op.number_or("beta", 1)), num(op.number_or("threshold", 20))));
    case OpKind::clamp: {
      const Attr *lo = op.get("min"), *hi = op.get("max");
      if (lo && hi) return ok(fmt::format("clamp({}, {})", num(*lo->number), num(*hi->number)));
      return ok(lo ? fmt::format("expr(max(x, {}))", num(*lo->number)) : fmt::format("expr(min(x, {}))", num(*hi->number)));
    }
    case OpKind::minimum: return ok(fmt::format("expr(min(x, {}))", num(op.number_or("scalar", 0))));
    case OpKind::maximum: return ok(fmt::format("expr(max(x, {}))", num(op.number_or("scalar", 0))));
    case OpKind::exp: return ok("expr(exp(x))");
    case OpKind::hardsigmoid: return ok("expr(min(max(x / 6 + 0.5, 0), 1))");
    case OpKind::elu: {
      double a = op.number_or("alpha", 1);
      return ok(fmt::format("expr(max(x, 0) + min(0, {} * (exp(x) - 1)))", num(a)));
    }
    case OpKind::selu:  // PyTorch's fixed scale and alpha
      return ok("expr(1.0507009873554805 * (max(x, 0) + min(0, 1.6732632423543772 * (exp(x) - 1))))");
    default: return no(fmt::format("`{}` is not an elementwise epilogue stage", name));
  }
}

/// The epilogue of ops[first..]; nullopt with `why` when one of them has no stage.
std::optional<std::string> epilogue(const Problem& p, size_t first, const Shape& out, size_t channel_dim,
                                    std::string prefix, std::string* why) {
  std::string chain = std::move(prefix);
  for (size_t i = first; i < p.ops.size(); ++i) {
    Stage s = epilogue_stage(p.ops[i], out, channel_dim);
    if (!s.text) {
      *why = fmt::format("op {} ({}): {}", i + 1, op_name(p.ops[i].kind), s.why_not);
      return std::nullopt;
    }
    chain += (chain.empty() ? "" : " >> ") + *s.text;
  }
  return chain;
}

std::string header(const Checked& c, std::string_view op, std::string_view representation) {
  const Problem& p = c.problem;
  return fmt::format(
      "# Lowered by `ucutlass suite lower` from {}: {}\n# {}\nname = \"{}\"\nop = \"{}\"\n", p.path, p.title,
      representation, p.stem, op);
}

std::string label(const Checked& c) {
  const auto& kb = c.problem.kernelbench;
  return kb ? fmt::format("L{}/{}", kb->level, kb->id) : c.problem.stem;
}

/// How PyTorch draws an input of this init (a symmetric or triangular matrix is dense rand data to a GEMM).
InputDraw draw_of(const Input& in) { return in.init == InputInit::randn ? InputDraw::randn : InputDraw::rand; }

/// The framework's draws: A and the residual C are the module's input `x`, B is `b` (a layer's weight: param),
/// vectors are a layer's bias (param).
InputDraws framework_draws(const Problem& p, InputDraw b) {
  InputDraws d;
  d.a = d.c = draw_of(p.inputs.front());
  d.b = b;
  d.vectors = InputDraw::param;
  return d;
}

std::string tail(const Checked& c, std::string_view epilogue_text, std::string_view math, std::string_view shape,
                 const InputDraws& inputs) {
  double t = c.problem.tolerance;
  return fmt::format("math = \"{}\"\nepilogue = \"{}\"\ntolerance = {{ atol = {}, rtol = {} }}\n"
                     "framework_inputs = {{ a = \"{}\", b = \"{}\", c = \"{}\", vectors = \"{}\" }}\nshapes = [\n  {{ {}, "
                     "label = \"{}\" }},\n]\n",
                     math, epilogue_text, num(t), num(t), input_draw_name(inputs.a), input_draw_name(inputs.b),
                     input_draw_name(inputs.c), input_draw_name(inputs.vectors), shape, label(c));
}

std::variant<Lowered, std::string> lower_gemm(const Checked& c) {
  const Problem& p = c.problem;
  const Op& main = p.ops.front();
  const std::string t = p.precision;
  Shape out = c.analysis.after_op.front();
  std::string why;
  if (main.kind == OpKind::linear) {
    const Shape& x = p.inputs.front().shape;
    int64_t k = x.back(), n = out.back();
    int64_t m = std::accumulate(x.begin(), x.end() - 1, int64_t{1}, std::multiplies<>());
    auto chain = epilogue(p, 1, out, out.size() - 1, main.flag_or("bias", true) ? "bias(col)" : "", &why);
    if (!chain) return why;
    return Lowered{"gemm", header(c, "gemm", "x [M, K] row-major times the layer's weight [N, K], read as B [K, N] column-major.") +
                               fmt::format("a = \"{0} row\"\nb = \"{0} col\"\nd = \"{0} row\"\n", t) +
                               tail(c, *chain, "native", fmt::format("m = {}, n = {}, k = {}", m, n, k),
                                    framework_draws(p, InputDraw::param))};
  }
  // matmul with another input: A is the chain's first input (both operands keep PyTorch's storage).
  const Attr* other = main.get("other");
  if (!other) return std::string("a matmul by a learned parameter has no harness operand to generate");
  const Input* b_in = nullptr;
  for (const Input& in : p.inputs)
    if (in.name == *other->text) b_in = &in;
  if (!b_in) return std::string("the matmul's right operand is not an input");
  // A symmetric matrix is only data to a GEMM kernel; triangular inputs come with a triangular output (triu/tril).
  for (const Input* in : {&p.inputs.front(), b_in})
    if (in->init == InputInit::rand_triu || in->init == InputInit::rand_tril)
      return std::string("triangular operands: the harness generates dense random data");
  Shape a = p.inputs.front().shape, b = b_in->shape;
  bool ta = main.flag_or("transpose_self", false), tb = main.flag_or("transpose_other", false);
  std::string la = ta ? "col" : "row", lb = tb ? "col" : "row";
  auto chain = epilogue(p, 1, out, out.size() - 1, "", &why);
  if (!chain) return why;
  if (b.size() == 2) {  // A may carry batch dims: one GEMM over the flattened rows
    int64_t m = std::accumulate(a.begin(), a.end() - 1, int64_t{1}, std::multiplies<>());
    if (ta) m = a[1];
    int64_t k = ta ? a[0] : a.back(), n = tb ? b[0] : b[1];
    return Lowered{"gemm", header(c, "gemm", "A and B as PyTorch stores them (a transposed operand is column-major).") +
                               fmt::format("a = \"{0} {1}\"\nb = \"{0} {2}\"\nd = \"{0} row\"\n", t, la, lb) +
                               tail(c, *chain, "native", fmt::format("m = {}, n = {}, k = {}", m, n, k),
                                    framework_draws(p, draw_of(*b_in)))};
  }
  if (a.size() == 3 && b.size() == 3 && a[0] == b[0] && !ta && !tb)
    return Lowered{"batched_gemm", header(c, "batched_gemm", "A [L, M, K] and B [L, K, N], row-major.") +
                                       fmt::format("a = \"{0} row\"\nb = \"{0} row\"\nd = \"{0} row\"\n", t) +
                                       tail(c, *chain, "native",
                                            fmt::format("m = {}, n = {}, k = {}, batch = {}", a[1], b[2], a[2], a[0]),
                                            framework_draws(p, draw_of(*b_in)))};
  return std::string("only matrix · matrix, batch · matrix and batched matrix products lower");
}

std::variant<Lowered, std::string> lower_conv(const Checked& c) {
  const Problem& p = c.problem;
  const Op& main = p.ops.front();
  bool transposed = main.kind == OpKind::conv_transpose;
  const Shape& x = p.inputs.front().shape;
  size_t rank = x.size() - 2;
  Shape kernel = main.ints_or("kernel", rank, 1), stride = main.ints_or("stride", rank, 1),
        pad = main.ints_or("padding", rank, 0), dil = main.ints_or("dilation", rank, 1),
        outpad = main.ints_or("output_padding", rank, 0);
  int64_t cin = x[1], cout = static_cast<int64_t>(main.number_or("out_channels", 0));
  int64_t groups = static_cast<int64_t>(main.number_or("groups", 1));
  std::string op = fmt::format("{}{}d", transposed ? "conv_transpose" : "conv", rank);
  bool depthwise = false;
  if (groups > 1) {
    if (transposed || rank != 2) return std::string("grouped convolutions lower for forward 2-D ones only");
    depthwise = groups == cin && cout == cin;
    op = depthwise ? "depthwise_conv2d" : "grouped_conv2d";
  }
  static const std::vector<std::vector<std::string>> act_names = {{"w"}, {"h", "w"}, {"d", "h", "w"}};
  static const std::vector<std::vector<std::string>> filt_names = {{"s"}, {"r", "s"}, {"t", "r", "s"}};
  std::string shape = fmt::format("n = {}", x[0]);
  for (size_t i = 0; i < rank; ++i) shape += fmt::format(", {} = {}", act_names[rank - 1][i], x[i + 2]);
  shape += fmt::format(", c = {}", cin);
  if (!depthwise) shape += fmt::format(", k = {}", cout);
  if (groups > 1 && !depthwise) shape += fmt::format(", groups = {}", groups);
  for (size_t i = 0; i < rank; ++i) shape += fmt::format(", {} = {}", filt_names[rank - 1][i], kernel[i]);
  shape += fmt::format(", pad = [{}], stride = [{}], dilation = [{}]", fmt::join(pad, ", "), fmt::join(stride, ", "),
                       fmt::join(dil, ", "));
  if (transposed) shape += fmt::format(", output_padding = [{}]", fmt::join(outpad, ", "));
  Shape out = c.analysis.after_op.front();
  std::string why;
  auto chain = epilogue(p, 1, out, 1, main.flag_or("bias", true) ? "bias(col)" : "", &why);
  if (!chain) return why;
  // PyTorch's f32 convolutions run on TF32 tensor cores (cudnn.allow_tf32 defaults to true).
  std::string math = p.precision == "f32" ? "tf32" : "native";
  return Lowered{op, header(c, op,
                            "Channels-last: the harness makes X [N, spatial, C] and Y [N, spatial, K]; PyTorch's "
                            "module takes NCHW.") +
                         fmt::format("a = \"{0}\"\nb = \"{0}\"\nd = \"{0}\"\n", p.precision) +
                         tail(c, *chain, math, shape, framework_draws(p, InputDraw::param))};
}

}  // namespace

std::variant<Lowered, std::string> lower_to_harness(const Checked& c) {
  const Problem& p = c.problem;
  if (p.ops.empty()) return std::string("the chain is empty");
  switch (op_form(p.ops.front().kind)) {
    case OpForm::matmul:
    case OpForm::linear: return lower_gemm(c);
    case OpForm::conv:
    case OpForm::conv_transpose: return lower_conv(c);
    default:
      return fmt::format("the chain starts with `{}`, not a GEMM or a convolution", op_name(p.ops.front().kind));
  }
}

}  // namespace ucut::suite
