// suite/lower.cpp — see lower.h. The main op becomes the problem's operator and its shape, the later ops its
// epilogue chain (suite/lower_chain.h), lowered with the problem's operands (problem/semantics.h).
#include "suite/lower.h"

#include <fmt/format.h>

#include <numeric>

#include "dsl/ast_build.h"
#include "problem/read_shape.h"
#include "problem/semantics.h"
#include "support/diag_render.h"
#include "support/error.h"
#include "suite/lower_pipeline.h"

namespace ucut::suite {
namespace {

/// Built syntax has no text to point into: every node sits at the start of the (empty) lowering source, and a
/// lowering error there is a bug of this file, reported with the suite problem's path.
const Span kBuilt{};

std::string label(const Checked& c) {
  const auto& kb = c.problem.kernelbench;
  return kb ? fmt::format("L{}/{}", kb->level, kb->id) : c.problem.stem;
}

/// How PyTorch draws an input of this init (a symmetric or triangular matrix is dense rand data to a GEMM).
InputDraw draw_of(const Input& in) { return in.init == InputInit::randn ? InputDraw::randn : InputDraw::rand; }

/// The framework's draws: A is the module's input `x`, B is `b` (a layer's weight: param; a matmul's other
/// input or randn parameter), C the input the chain adds (else `x`'s draw, unused), vectors a layer's bias
/// (param).
InputDraws framework_draws(const Problem& p, InputDraw b, const Chain& chain) {
  InputDraws d;
  d.a = draw_of(p.inputs.front());
  d.c = draw_of(p.inputs[chain.residual_input.value_or(0)]);
  d.b = b;
  d.vectors = InputDraw::param;
  return d;
}

TensorType operand(const std::string& dtype, const char* layout) {
  TensorType t;
  t.dtype = {dtype, kBuilt};
  if (*layout) t.modifiers.push_back(bare_call(layout, kBuilt));
  return t;
}

/// What lowering needs besides the chain: the operator, its operands' types, the math mode and how the framework
/// draws the inputs; the representation note goes into the provenance.
struct Declared {
  ucut::OpKind op;
  TensorType a, b, d;
  const char* math;
  InputDraws inputs;
  std::string representation;
};

/// The chain's context for a main op of `op` (the IR operator) writing `out`: C is declared like D.
ChainContext chain_context(const Checked& c, ucut::OpKind op, std::vector<size_t> main_inputs) {
  const Op& main = c.problem.ops.front();
  ChainContext ctx;
  ctx.out = c.analysis.after_op.front();
  bool conv = op_spatial_dims(op) > 0;
  ctx.channel_dim = conv ? 1 : ctx.out.size() - 1;
  ctx.layer_bias = op_form(main.kind) != OpForm::matmul && main.flag_or("bias", true);
  ctx.main_inputs = std::move(main_inputs);
  ctx.c_dtype = c.problem.precision;
  ctx.c_extents = conv ? conv_extent_names(op, 'd') : op == ucut::OpKind::batched_gemm ? "L,M,N" : "M,N";
  ctx.c_layout = conv ? "" : "row";
  return ctx;
}

/// The problem of `decl` and `chain` with `shapes`, its semantics lowered (the stages are built from the
/// catalogue's own names and the operands from the suite's precisions: a lowering error here is a bug of this
/// file), with each stage's source.
Lowered finish(const Checked& c, Declared decl, Chain chain, std::vector<GemmShape> shapes) {
  const Problem& sp = c.problem;
  auto syntax = std::make_shared<ProblemSyntax>();
  syntax->a = std::move(decl.a);
  syntax->b = std::move(decl.b);
  syntax->d = std::move(decl.d);
  syntax->epilogue = std::move(chain.stages);
  syntax->provenance = fmt::format("# Lowered by `ucutlass suite lower` from {}: {}\n# {}\n", sp.path, sp.title,
                                   decl.representation);
  for (const std::string& note : chain.notes) syntax->provenance += fmt::format("# {}\n", note);
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
  return Lowered{std::move(p), std::move(chain.sources)};
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

std::variant<Lowered, std::string> lower_gemm(const Checked& c) {
  const Problem& p = c.problem;
  const Op& main = p.ops.front();
  const std::string& t = p.precision;
  const Shape& out = c.analysis.after_op.front();
  if (main.kind == OpKind::linear) {
    const Shape& x = p.inputs.front().shape;
    int64_t k = x.back(), n = out.back();
    int64_t m = std::accumulate(x.begin(), x.end() - 1, int64_t{1}, std::multiplies<>());
    auto chain = lower_chain(p, chain_context(c, ucut::OpKind::gemm, {0}));
    if (const auto* why = std::get_if<std::string>(&chain)) return *why;
    Chain& ch = std::get<Chain>(chain);
    InputDraws draws = framework_draws(p, InputDraw::param, ch);
    return finish(
        c,
        {ucut::OpKind::gemm, operand(t, "row"), operand(t, "col"), operand(t, "row"), "native", draws,
         "x [M, K] row-major times the layer's weight [N, K], read as B [K, N] column-major."},
        std::move(ch), {gemm_shape(m, n, k, 1, label(c))});
  }
  // matmul: A is the chain's first input, B another input or a learned parameter (randn, docs/suites.md);
  // both keep PyTorch's storage.
  std::vector<size_t> reads = {0};
  Shape b;
  InputDraw b_draw = InputDraw::randn;
  const Attr* param = main.get("param");
  if (param) {
    b = *param->ints;
  } else {
    const std::string& other = *main.get("other")->text;
    size_t i = 0;
    while (i < p.inputs.size() && p.inputs[i].name != other) ++i;
    if (i == p.inputs.size()) return std::string("the matmul's right operand is not an input");
    reads.push_back(i);
    b = p.inputs[i].shape;
    b_draw = draw_of(p.inputs[i]);
  }
  // A symmetric matrix is only data to a GEMM kernel; triangular inputs come with a triangular output (triu/tril).
  for (size_t i : reads)
    if (p.inputs[i].init == InputInit::rand_triu || p.inputs[i].init == InputInit::rand_tril)
      return std::string("triangular operands: the harness generates dense random data");
  Shape a = p.inputs.front().shape;
  bool ta = main.flag_or("transpose_self", false), tb = main.flag_or("transpose_other", false);
  bool batched = a.size() == 3 && b.size() == 3 && a[0] == b[0] && !ta && !tb;
  if (b.size() != 2 && !batched)
    return std::string("only matrix · matrix, batch · matrix and batched matrix products lower");
  ucut::OpKind op = batched ? ucut::OpKind::batched_gemm : ucut::OpKind::gemm;
  auto chain = lower_chain(p, chain_context(c, op, reads));
  if (const auto* why = std::get_if<std::string>(&chain)) return *why;
  Chain& ch = std::get<Chain>(chain);
  InputDraws draws = framework_draws(p, b_draw, ch);
  std::string b_is = param ? " B is the matmul's parameter (randn)." : "";
  if (batched)
    return finish(c,
                  {op, operand(t, "row"), operand(t, "row"), operand(t, "row"), "native", draws,
                   "A [L, M, K] and B [L, K, N], row-major." + b_is},
                  std::move(ch), {gemm_shape(a[1], b[2], a[2], a[0], label(c))});
  // A may carry batch dims: one GEMM over the flattened rows
  int64_t m = std::accumulate(a.begin(), a.end() - 1, int64_t{1}, std::multiplies<>());
  if (ta) m = a[1];
  int64_t k = ta ? a[0] : a.back(), n = tb ? b[0] : b[1];
  return finish(
      c,
      {op, operand(t, ta ? "col" : "row"), operand(t, tb ? "col" : "row"), operand(t, "row"), "native", draws,
       "A and B as PyTorch stores them (a transposed operand is column-major)." + b_is},
      std::move(ch), {gemm_shape(m, n, k, 1, label(c))});
}

std::variant<Lowered, std::string> lower_conv(const Checked& c) {
  const Problem& p = c.problem;
  auto conv = conv_of(p.ops.front(), p.inputs.front().shape);
  if (const auto* why = std::get_if<std::string>(&conv)) return *why;
  const auto& [op, d] = std::get<ConvOf>(conv);
  auto geometry = conv_shape(d, op);
  if (const auto* bad = std::get_if<GeometryFault>(&geometry)) return bad->message;
  auto chain = lower_chain(p, chain_context(c, op, {0}));
  if (const auto* why = std::get_if<std::string>(&chain)) return *why;
  Chain& ch = std::get<Chain>(chain);
  InputDraws draws = framework_draws(p, InputDraw::param, ch);
  // PyTorch's f32 convolutions run on TF32 tensor cores (cudnn.allow_tf32 defaults to true).
  const char* math = p.precision == "f32" ? "tf32" : "native";
  return finish(
      c,
      {op, operand(p.precision, ""), operand(p.precision, ""), operand(p.precision, ""), math, draws,
       "Channels-last: the harness makes X [N, spatial, C] and Y [N, spatial, K]; PyTorch's module takes "
       "NCHW."},
      std::move(ch), {conv_gemm_shape(std::get<ConvShape>(geometry), label(c))});
}

}  // namespace

std::variant<ConvOf, std::string> conv_of(const Op& main, const Shape& x) {
  bool transposed = main.kind == OpKind::conv_transpose;
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
  return ConvOf{op, d};
}

std::variant<Lowered, std::string> lower_with_sources(const Checked& c) {
  const Problem& p = c.problem;
  if (p.ops.empty()) return std::string("the chain is empty");
  if (is_pipeline_chain(p))
    return std::string("its chain goes on past what an epilogue computes (a reduction, a norm, a softmax, a pooling, "
                       "another GEMM or convolution, or a read-back folded through a tensor): a pipeline problem "
                       "(suite/lower_pipeline.h), not one kernel's");
  switch (op_form(p.ops.front().kind)) {
    case OpForm::matmul:
    case OpForm::linear: return lower_gemm(c);
    case OpForm::conv:
    case OpForm::conv_transpose: return lower_conv(c);
    default:
      return fmt::format("the chain starts with `{}`, not a GEMM or a convolution", op_name(p.ops.front().kind));
  }
}

std::variant<ucut::Problem, std::string> lower_to_problem(const Checked& c) {
  if (is_pipeline_chain(c.problem)) return lower_pipeline_problem(c);
  auto lowered = lower_with_sources(c);
  if (auto* l = std::get_if<Lowered>(&lowered)) return std::move(l->problem);
  return std::get<std::string>(lowered);
}

}  // namespace ucut::suite
