// suite/lower.cpp — see lower.h. The main op becomes the problem's operator and its shape; every later op one DSL
// epilogue stage (ir/epilogues.def), built as the syntax tree the chain's text would parse to (dsl/ast_build.h) and
// lowered with the problem's operands (problem/semantics.h).
#include "suite/lower.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <numeric>
#include <optional>

#include "dsl/ast_build.h"
#include "problem/read_shape.h"
#include "problem/semantics.h"
#include "support/diag_render.h"
#include "support/error.h"

namespace ucut::suite {
namespace {

/// Built syntax has no text to point into: every node sits at the start of the (empty) lowering source, and a
/// lowering error there is a bug of this file, reported with the suite problem's path.
const Span kBuilt{};

ExprPtr x() { return name_expr("x", kBuilt); }
ExprPtr num(double v) { return number_expr(v, kBuilt); }
ExprPtr fn(const char* name, std::vector<ExprPtr> args) { return call_expr(call_of(name, std::move(args), kBuilt)); }
std::vector<ExprPtr> args(ExprPtr a) {
  std::vector<ExprPtr> v;
  v.push_back(std::move(a));
  return v;
}
std::vector<ExprPtr> args(ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> v = args(std::move(a));
  v.push_back(std::move(b));
  return v;
}
ExprPtr max_of(ExprPtr a, ExprPtr b) { return fn("max", args(std::move(a), std::move(b))); }
ExprPtr min_of(ExprPtr a, ExprPtr b) { return fn("min", args(std::move(a), std::move(b))); }
/// `expr(e)`: an elementwise formula of the chain's value x.
Call expr(ExprPtr e) { return call_of("expr", args(std::move(e)), kBuilt); }
Call stage(const char* name) { return bare_call(name, kBuilt); }
Call stage(const char* name, std::vector<ExprPtr> a) { return call_of(name, std::move(a), kBuilt); }

/// max(x, 0) + min(0, alpha (e^x - 1)): ELU, and inside SELU.
ExprPtr elu(double alpha) {
  return binary_expr('+', max_of(x(), num(0)),
                     min_of(num(0), binary_expr('*', num(alpha), binary_expr('-', fn("exp", args(x())), num(1)))));
}

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
  std::optional<Call> call;
  std::string why_not;
};

Stage ok(Call c) { return Stage{std::move(c), ""}; }
Stage no(std::string why) { return Stage{std::nullopt, std::move(why)}; }

/// One later op as an epilogue stage; `channel_dim` is the output dim a per-channel vector runs along (the last
/// for GEMMs, 1 for convolutions), `out` the main op's output shape.
Stage epilogue_stage(const Op& op, const Shape& out, size_t channel_dim) {
  std::string name = op_name(op.kind);
  if (op.get("other")) return no(fmt::format("`{}` reads another tensor of the chain (`other`)", name));
  if (op_form(op.kind) == OpForm::binary) {
    if (const Attr* p = op.get("param")) {
      bool vector = per_dim_vector(*p->ints, out, channel_dim, out[channel_dim]);
      if (vector && op.kind == OpKind::add) return ok(stage("bias", args(name_expr("col", kBuilt))));
      if (vector && op.kind == OpKind::mul) return ok(stage("channel_scale", args(name_expr("col", kBuilt))));
      return no(fmt::format("`{}` with a parameter of shape [{}]: epilogues add or multiply per-channel vectors only",
                            name, fmt::join(*p->ints, ", ")));
    }
    double v = op.number_or("scalar", 0);
    switch (op.kind) {
      case OpKind::add: return ok(expr(binary_expr('+', x(), num(v))));
      case OpKind::sub: return ok(expr(binary_expr('-', x(), num(v))));
      case OpKind::mul: return ok(stage("scale", args(num(v))));
      default: return ok(expr(binary_expr('/', x(), num(v))));
    }
  }
  switch (op.kind) {
    case OpKind::relu:
    case OpKind::sigmoid:
    case OpKind::tanh:
    case OpKind::silu:
    case OpKind::mish:
    case OpKind::hardswish: return ok(stage(op_name(op.kind)));
    case OpKind::gelu: {
      const Attr* a = op.get("approximate");
      return ok(stage(a && a->text && *a->text == "tanh" ? "gelu_tanh" : "gelu"));
    }
    case OpKind::leaky_relu: return ok(stage("leaky_relu", args(num(op.number_or("negative_slope", 0.01)))));
    case OpKind::hardtanh:
      return ok(stage("hardtanh", args(num(op.number_or("min_val", -1)), num(op.number_or("max_val", 1)))));
    case OpKind::softplus:
      return ok(stage("softplus", args(num(op.number_or("beta", 1)), num(op.number_or("threshold", 20)))));
    case OpKind::clamp: {
      const Attr *lo = op.get("min"), *hi = op.get("max");
      if (lo && hi) return ok(stage("clamp", args(num(*lo->number), num(*hi->number))));
      return ok(expr(lo ? max_of(x(), num(*lo->number)) : min_of(x(), num(*hi->number))));
    }
    case OpKind::minimum: return ok(expr(min_of(x(), num(op.number_or("scalar", 0)))));
    case OpKind::maximum: return ok(expr(max_of(x(), num(op.number_or("scalar", 0)))));
    case OpKind::exp: return ok(expr(fn("exp", args(x()))));
    case OpKind::hardsigmoid:
      return ok(expr(min_of(max_of(binary_expr('+', binary_expr('/', x(), num(6)), num(0.5)), num(0)), num(1))));
    case OpKind::elu: return ok(expr(elu(op.number_or("alpha", 1))));
    case OpKind::selu:  // PyTorch's fixed scale and alpha
      return ok(expr(binary_expr('*', num(1.0507009873554805), elu(1.6732632423543772))));
    default: return no(fmt::format("`{}` is not an elementwise epilogue stage", name));
  }
}

/// The stages of ops[first..] after `prefix`; nullopt with `why` when one of them has no stage.
std::optional<std::vector<Call>> epilogue(const Problem& p, size_t first, const Shape& out, size_t channel_dim,
                                          std::vector<Call> prefix, std::string* why) {
  std::vector<Call> chain = std::move(prefix);
  for (size_t i = first; i < p.ops.size(); ++i) {
    Stage s = epilogue_stage(p.ops[i], out, channel_dim);
    if (!s.call) {
      *why = fmt::format("op {} ({}): {}", i + 1, op_name(p.ops[i].kind), s.why_not);
      return std::nullopt;
    }
    chain.push_back(std::move(*s.call));
  }
  return chain;
}

/// The layer's own bias, when it has one: `bias(col)` first in the chain.
std::vector<Call> layer_bias(const Op& main) {
  std::vector<Call> v;
  if (main.flag_or("bias", true)) v.push_back(stage("bias", args(name_expr("col", kBuilt))));
  return v;
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

TensorType operand(const std::string& dtype, const char* layout) {
  TensorType t;
  t.dtype = {dtype, kBuilt};
  if (*layout) t.modifiers.push_back(stage(layout));
  return t;
}

/// What lowering needs besides the chain: the operator, its operands' types, the math mode and how the framework
/// draws the inputs; the representation note goes into the provenance.
struct Declared {
  ucut::OpKind op;
  TensorType a, b, d;
  const char* math;
  std::vector<Call> chain;
  InputDraws inputs;
  std::string representation;
};

/// The problem of `decl` with `shapes`, its semantics lowered (the stages are built from the catalogue's own
/// names and the operands from the suite's precisions: a lowering error here is a bug of this file).
ucut::Problem finish(const Checked& c, Declared decl, std::vector<GemmShape> shapes) {
  const Problem& sp = c.problem;
  auto syntax = std::make_shared<ProblemSyntax>();
  syntax->a = std::move(decl.a);
  syntax->b = std::move(decl.b);
  syntax->d = std::move(decl.d);
  syntax->epilogue = std::move(decl.chain);
  syntax->provenance = fmt::format("# Lowered by `ucutlass suite lower` from {}: {}\n# {}\n", sp.path, sp.title,
                                   decl.representation);
  SourceFile src(sp.path + " (lowered)", "");
  DiagEngine diags;
  DeclarationSite site{sp.stem, {decl.op, kBuilt}, {decl.math, kBuilt}, kBuilt};
  auto semantics = lower_semantics(src, site, *syntax, diags);
  UC_ASSERT(semantics) << "suite problem " << sp.path << " lowers to a declaration that does not lower:\n"
                       << render_text(src, diags.diagnostics());
  ucut::Problem p;
  p.name = sp.stem;
  p.path = sp.path;
  p.syntax = std::move(syntax);
  p.semantics = std::move(*semantics);
  p.shapes = std::move(shapes);
  p.tolerance = Tolerance{sp.tolerance, sp.tolerance};
  p.tolerance_given = true;
  p.framework_inputs = decl.inputs;
  return p;
}

GemmShape gemm_shape(int64_t m, int64_t n, int64_t k, int64_t batch, std::string label) {
  GemmShape g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.batch = batch;
  g.label = std::move(label);
  return g;
}

std::variant<ucut::Problem, std::string> lower_gemm(const Checked& c) {
  const Problem& p = c.problem;
  const Op& main = p.ops.front();
  const std::string& t = p.precision;
  Shape out = c.analysis.after_op.front();
  std::string why;
  if (main.kind == OpKind::linear) {
    const Shape& x = p.inputs.front().shape;
    int64_t k = x.back(), n = out.back();
    int64_t m = std::accumulate(x.begin(), x.end() - 1, int64_t{1}, std::multiplies<>());
    auto chain = epilogue(p, 1, out, out.size() - 1, layer_bias(main), &why);
    if (!chain) return why;
    return finish(c,
                  {ucut::OpKind::gemm, operand(t, "row"), operand(t, "col"), operand(t, "row"), "native", std::move(*chain),
                   framework_draws(p, InputDraw::param),
                   "x [M, K] row-major times the layer's weight [N, K], read as B [K, N] column-major."},
                  {gemm_shape(m, n, k, 1, label(c))});
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
  auto chain = epilogue(p, 1, out, out.size() - 1, {}, &why);
  if (!chain) return why;
  if (b.size() == 2) {  // A may carry batch dims: one GEMM over the flattened rows
    int64_t m = std::accumulate(a.begin(), a.end() - 1, int64_t{1}, std::multiplies<>());
    if (ta) m = a[1];
    int64_t k = ta ? a[0] : a.back(), n = tb ? b[0] : b[1];
    return finish(c,
                  {ucut::OpKind::gemm, operand(t, ta ? "col" : "row"), operand(t, tb ? "col" : "row"), operand(t, "row"),
                   "native", std::move(*chain), framework_draws(p, draw_of(*b_in)),
                   "A and B as PyTorch stores them (a transposed operand is column-major)."},
                  {gemm_shape(m, n, k, 1, label(c))});
  }
  if (a.size() == 3 && b.size() == 3 && a[0] == b[0] && !ta && !tb)
    return finish(c,
                  {ucut::OpKind::batched_gemm, operand(t, "row"), operand(t, "row"), operand(t, "row"), "native",
                   std::move(*chain), framework_draws(p, draw_of(*b_in)), "A [L, M, K] and B [L, K, N], row-major."},
                  {gemm_shape(a[1], b[2], a[2], a[0], label(c))});
  return std::string("only matrix · matrix, batch · matrix and batched matrix products lower");
}

std::variant<ucut::Problem, std::string> lower_conv(const Checked& c) {
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
  using IrOp = ucut::OpKind;
  IrOp op = transposed ? (rank == 1 ? IrOp::conv_transpose1d : rank == 2 ? IrOp::conv_transpose2d : IrOp::conv_transpose3d)
                       : (rank == 1 ? IrOp::conv1d : rank == 2 ? IrOp::conv2d : IrOp::conv3d);
  bool depthwise = false;
  if (groups > 1) {
    if (transposed || rank != 2) return std::string("grouped convolutions lower for forward 2-D ones only");
    depthwise = groups == cin && cout == cin;
    op = depthwise ? IrOp::depthwise_conv2d : IrOp::grouped_conv2d;
  }
  ConvDecl d;
  d.dims = static_cast<int>(rank);
  d.n = x[0];
  d.c = cin;
  if (!depthwise) d.k = cout;
  if (groups > 1 && !depthwise) d.groups = groups;
  for (size_t i = 0; i < rank; ++i) {
    size_t slot = 3 - rank + i;
    d.in[slot] = x[i + 2];
    d.filter[slot] = kernel[i];
    d.pad[slot] = pad[i];
    d.stride[slot] = stride[i];
    d.dilation[slot] = dil[i];
    if (transposed) d.output_padding[slot] = outpad[i];
  }
  auto geometry = conv_shape(d, op);
  if (const auto* bad = std::get_if<GeometryFault>(&geometry)) return bad->message;
  Shape out = c.analysis.after_op.front();
  std::string why;
  auto chain = epilogue(p, 1, out, 1, layer_bias(main), &why);
  if (!chain) return why;
  // PyTorch's f32 convolutions run on TF32 tensor cores (cudnn.allow_tf32 defaults to true).
  const char* math = p.precision == "f32" ? "tf32" : "native";
  return finish(c,
                {op, operand(p.precision, ""), operand(p.precision, ""), operand(p.precision, ""), math,
                 std::move(*chain), framework_draws(p, InputDraw::param),
                 "Channels-last: the harness makes X [N, spatial, C] and Y [N, spatial, K]; PyTorch's module takes "
                 "NCHW."},
                {conv_gemm_shape(std::get<ConvShape>(geometry), label(c))});
}

}  // namespace

std::variant<ucut::Problem, std::string> lower_to_problem(const Checked& c) {
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
