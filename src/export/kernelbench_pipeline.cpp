// export/kernelbench_pipeline.cpp — see kernelbench_pipeline.h.
#include "export/kernelbench_pipeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "check/shape_rules.h"
#include "emit/cpp_writer.h"
#include "emit/template_paste.h"
#include "export/kernelbench_module.h"
#include "export/python_text.h"
#include "export/torch_binding.h"
#include "export/torch_extension.h"
#include "export/torch_modules.h"
#include "export/torch_text.h"
#include "ir/abi_slots.h"
#include "problem/conv_abi.h"
#include "problem/family_call.h"
#include "problem/match.h"
#include "suite/lower_pipeline.h"
#include "support/version.h"

namespace ucut::interop {
namespace {

/// Where in `spec` the departure `d` from the pipeline problem `want` (pipeline_departure) lies: the header for
/// another stage count, a stage's name for another kind, a family stage's operator, a GEMM or convolution stage's
/// operator, operand or epilogue stage (mismatch_span), or the operand read from elsewhere.
Span departure_span(const PipelineDeparture& d, const PipelineConfig& want, const PipelineConfig& spec) {
  using Part = PipelineDeparture::Part;
  if (d.part == Part::stages) return spec.header;
  const PipelineStage &ps = want.stages[d.stage], &ks = spec.stages[d.stage];
  switch (d.part) {
    case Part::kind: return ks.name().span;
    case Part::family: return ks.family->op.span;
    case Part::config: return mismatch_span(ps.config, ks.config);
    default: {
      const bool a = d.part == Part::operand_a;
      const StageInput& in = ks.inputs[a ? 0 : 1];
      return in.linked() || in.converted() ? in.link : (a ? ks.config.a.span : ks.config.b.span);
    }
  }
}

std::string cpp_sizes(const std::vector<int64_t>& v) { return fmt::format("{{{}}}", fmt::join(v, ", ")); }

/// A channels-last activation [n, spatial..., c] as PyTorch's logical [n, c, spatial...].
std::vector<int64_t> logical_activation(std::vector<int64_t> cl) {
  int64_t c = cl.back();
  cl.pop_back();
  cl.insert(cl.begin() + 1, c);
  return cl;
}

/// Writes ModelNew for a pipeline problem. The binding takes every tensor the pipeline reads from the caller,
/// stage by stage (a GEMM or convolution stage's A or X when it is the caller's, its B or W, its vectors in
/// slot order; a family stage's tensors in its ucut_memop_api order, those an earlier stage produces left
/// out), and returns the output in the last stage's stored order.
class PipelineWriter {
 public:
  PipelineWriter(const PipelineConfig& p, const EmittedKernel& kernel, const suite::Checked& c,
                 const suite::PipelineLowering& lowered, DiagEngine& diags)
      : p_(p),
        kernel_(kernel),
        c_(c),
        sp_(c.problem),
        harness_(lowered.problem),
        want_(*lowered.problem.pipeline),
        shape_(lowered.problem.shapes.front()),
        feeds_(lowered.feeds),
        diags_(diags) {}

  std::optional<std::string> write() {
    for (const suite::Input& in : sp_.inputs) inputs_.push_back(python_name(in.name, taken_));
    for (size_t i = 0; i < sp_.ops.size(); ++i) op_module(i);
    batch_norm_ = std::any_of(sp_.ops.begin(), sp_.ops.end(), [](const suite::Op& op) {
      return suite::op_form(op.kind) == suite::OpForm::batch_norm;
    });
    binding_.function = python_name("ucut_" + p_.name.value, cpp_taken_);
    for (size_t s = 0; s < p_.stages.size(); ++s) {
      bool ok = p_.stages[s].is_family() ? family_stage(s) : main_stage(s);
      if (!ok) return std::nullopt;
    }
    if (!output()) return std::nullopt;
    binding_.cpp = binding_source();
    return header() + imports_and_build() + model();
  }

 private:
  bool last(size_t s) const { return s + 1 == p_.stages.size(); }
  const suite::Shape& op_input(size_t i) const {
    return i == 0 ? sp_.inputs.front().shape : c_.analysis.after_op[i - 1];
  }

  bool refuse(const Span& at, std::string why) {
    diags_.report(RuleId::X002, at,
                  fmt::format("pipeline `{}` cannot be exported for suite problem {}: {}", p_.name.value,
                              sp_.stem, why),
                  "run it with `ucutlass run SPEC --problem` (the harness), which needs no framework glue");
    return false;
  }

  /// Op `i`'s module or parameter, created now (in chain order, as the reference's Model creates them).
  void op_module(size_t i) {
    const suite::Op& op = sp_.ops[i];
    if (auto m = torch_module(op, op_input(i))) {
      std::string attr = fmt::format("self.{}{}", suite::op_name(op.kind), i + 1);
      init_.push_back(fmt::format("{} = {}", attr, *m));
      modules_[i] = attr;
    } else if (const suite::Attr* param = op.get("param")) {
      std::string attr = fmt::format("self.param{}", i + 1);
      init_.push_back(fmt::format("{} = nn.Parameter(torch.randn({}))  # op {} ({})", attr,
                                  python_tuple(*param->ints), i + 1, suite::op_name(op.kind)));
      params_[i] = attr;
    }
  }

  /// One tensor argument of the binding: its Python expression in forward, its check, and its fill (C++ in
  /// which
  /// `$ptr` stands for the tensor's data pointer).
  void tensor(const std::string& stage, const std::string& what, const std::string& expr, DType dtype,
              const std::vector<int64_t>& sizes, Layout layout, const std::string& doc,
              const std::string& fill) {
    std::string name = python_name(fmt::format("{}_{}", stage, what), cpp_taken_);
    std::string shape = fmt::format("[{}]", fmt::join(sizes, ", "));
    binding_.args.push_back({name, BindingArg::Kind::tensor,
                             fmt::format("{} {} {}: {}", dtype_name(dtype), shape, layout_words(layout), doc),
                             0});
    exprs_.push_back(expr);
    checks_.push_back(fmt::format("check_operand(fn_, {}, {}, {}, {}, {}, {}, {}, {});", lit(name), name,
                                  at_type(dtype), lit(dtype_name(dtype)), cpp_sizes(sizes),
                                  layout_enum(layout), lit(shape), first()));
    std::string line = fill;
    line.replace(line.find("$ptr"), 4, name + ".data_ptr()");
    fills_.push_back(line);
  }
  std::string first() const { return binding_.args.front().name; }

  /// A vector's source as a Python expression (StageSource: the layer's bias, a parameter as its 1-D view).
  std::optional<std::string> vector_expr(const suite::StageSource& src, size_t main_op) {
    using Kind = suite::StageSource::Kind;
    switch (src.kind) {
      case Kind::layer_bias:
        return modules_.at(main_op) + ".bias";
      case Kind::param:
        return params_.at(src.index) + ".reshape(-1)";
      case Kind::negated_param:
        negated_glue_ = true;
        return fmt::format("(-{}).reshape(-1)", params_.at(src.index));
      default:
        return std::nullopt;
    }
  }

  bool main_stage(size_t s) {
    const PipelineStage& ks = p_.stages[s];
    const KernelConfig& spec = ks.config;
    const KernelConfig& want = want_.stages[s].config;
    const suite::StageFeed& feed = feeds_.stages[s];
    const suite::Op& op = sp_.ops[feed.op];
    const std::string& name = ks.name().value;
    const std::string at = fmt::format("args_.stage[{}]", s);
    GemmShape g = shape_.stages[s];
    const bool conv = g.is_conv();
    if (conv) g = conv_gemm_shape(g.conv);
    fills_.push_back(fmt::format("{}.m = {}, {}.n = {}, {}.k = {}, {}.batch = {};", at, g.m, at, g.n, at, g.k,
                                 at, g.batch));
    const std::string module = modules_.count(feed.op) ? modules_.at(feed.op) : "";
    if (conv) {
      const ConvShape& cs = g.conv;
      std::vector<int64_t> x = logical_activation(cs.input_activation());
      std::vector<int64_t> w = {cs.k, cs.group_c()};
      for (int i = 3 - cs.dims; i < 3; ++i) w.push_back(cs.filter[static_cast<size_t>(i)]);
      if (!ks.inputs[0].linked())
        tensor(name, "X", fmt::format("_ucut_channels_last({})", inputs_.front()), spec.a.caller_dtype(), x,
               Layout::channels_last, fmt::format("{}'s input X, channels-last", name),
               fmt::format("{}.a = {{$ptr, {}, 0}};", at, x[1]));
      tensor(name, "W", fmt::format("_ucut_channels_last({}.weight)", module), spec.b.caller_dtype(), w,
             Layout::channels_last, fmt::format("{}'s filter W ({}.weight), channels-last", name, module),
             fmt::format("{}.b = {{$ptr, {}, 0}};", at, w[1]));
      conv_glue_ = true;
      const ucut_conv_args a = conv_args(cs);
      fills_.push_back(fmt::format(
          "{}.conv = ucut_conv_args{{{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {{{}}}, {{{}}}, "
          "{{{}}}, {}}};",
          at, a.spatial_dims, a.n, a.d, a.h, a.w, a.c, a.k, a.t, a.r, a.s, a.z, a.p, a.q,
          fmt::join(a.pad, ", "), fmt::join(a.stride, ", "), fmt::join(a.dilation, ", "), a.groups));
    } else {
      const std::string& x = inputs_.front();
      const suite::Shape& xs = sp_.inputs.front().shape;
      std::vector<int64_t> a_sizes = {g.m, g.k}, b_sizes = {g.k, g.n};
      if (g.batch > 1) {
        a_sizes.insert(a_sizes.begin(), g.batch);
        b_sizes.insert(b_sizes.begin(), g.batch);
      }
      if (!ks.inputs[0].linked()) {
        std::string expr = xs.size() > 2 ? fmt::format("{}.reshape(-1, {}).contiguous()", x, xs.back())
                                         : x + ".contiguous()";
        int64_t ld = spec.a.layout.value == Layout::col ? g.m : g.k;
        tensor(name, "A", expr, spec.a.caller_dtype(), a_sizes, spec.a.layout.value,
               fmt::format("{}'s A", name), fmt::format("{}.a = {{$ptr, {}, {}}};", at, ld, g.m * g.k));
      }
      if (!ks.inputs[1].linked()) {
        std::string expr;
        if (suite::op_form(op.kind) == suite::OpForm::linear)
          expr = module + ".weight.t()";
        else if (params_.count(feed.op))
          expr = op.flag_or("transpose_other", false) ? params_.at(feed.op) + ".t()" : params_.at(feed.op);
        else
          return refuse(spec.b.span,
                        "its B is no learned matrix of the problem (a Linear weight or a `param`)");
        int64_t ld = spec.b.layout.value == Layout::col ? g.k : g.n;
        tensor(name, "B", expr, spec.b.caller_dtype(), b_sizes, spec.b.layout.value,
               fmt::format("{}'s B ({})", name, expr),
               fmt::format("{}.b = {{$ptr, {}, {}}};", at, ld, g.k * g.n));
      }
    }
    AbiSlots slots = abi_slots(spec), problem_slots = abi_slots(want);
    for (size_t j = 0; j < slots.vectors.size(); ++j) {
      const AbiSlots::Vector& v = slots.vectors[j];
      auto expr =
          v.stage < feed.epilogue.size() ? vector_expr(feed.epilogue[v.stage], feed.op) : std::nullopt;
      if (!expr) return refuse(spec.epilogue[v.stage].span, "no tensor of the problem feeds this vector");
      if (std::string(dtype_name(v.dtype)) != sp_.precision)
        *expr += fmt::format(".to(torch.{})", torch_dtype(v.dtype));
      const EpiOp& epi = spec.epilogue[v.stage];
      tensor(name, std::string(epi_info(epi.kind).name), *expr, v.dtype, {v.axis == Axis::row ? g.m : g.n},
             Layout::row, fmt::format("{}'s `{}` vector", name, epi_info(epi.kind).name),
             fmt::format("{}.vectors[{}] = $ptr;", at, j));
    }
    for (size_t j = 0; j < problem_slots.scalars.size(); ++j)
      fills_.push_back(fmt::format("{}.scalars[{}] = {}f;  // `{}`", at, j,
                                   python_float(problem_slots.scalars[j].default_value),
                                   problem_slots.scalars[j].name));
    if (last(s)) {
      int64_t ld = conv ? g.n : spec.output().layout.value == Layout::col ? g.m : g.n;
      fills_.push_back(fmt::format("{}.d = {{y_.data_ptr(), {}, {}}};", at, ld, conv ? 0 : g.m * g.n));
    }
    stage_words_.push_back(fmt::format("{} {}", name, op_name(spec.op.value)));
    return true;
  }

  /// A family stage's tensor as Python: the framework's tensor, packed in the order its declaration reads its
  /// dims and viewed with the declared extents.
  std::string family_expr(const suite::FamilyOperand& o, const std::vector<int64_t>& declared) {
    using Kind = suite::FamilyOperand::Kind;
    std::string base = o.kind == Kind::input    ? inputs_.at(o.index)
                       : o.kind == Kind::param  ? params_.at(o.index)
                       : o.kind == Kind::weight ? modules_.at(o.index) + ".weight"
                                                : modules_.at(o.index) + ".bias";
    std::vector<size_t> identity(o.order.size());
    std::iota(identity.begin(), identity.end(), size_t{0});
    if (o.order != identity) {
      base += fmt::format(".permute({}).contiguous()", fmt::join(o.order, ", "));
      permuted_glue_ = true;
    }
    return fmt::format("{}.reshape({})", base, fmt::join(declared, ", "));
  }

  bool family_stage(size_t s) {
    const PipelineStage& ks = p_.stages[s];
    const MemOpConfig& m = *ks.family;
    const suite::StageFeed& feed = feeds_.stages[s];
    const std::string& name = ks.name().value;
    const std::string at = fmt::format("args_.memop[{}]", s);
    FamilyCall call = family_call(*want_.stages[s].family, shape_.symbols, shape_.scalars);
    if (!call.ok()) return refuse(m.op.span, "the problem's shape " + call.error);
    std::set<size_t> linked;
    for (const FamilyLink& l : ks.links) linked.insert(l.caller);
    std::vector<CallerTensor> callers = m.caller_inputs();
    for (size_t c = 0; c < callers.size(); ++c) {
      if (linked.count(c)) {
        fills_.push_back(
            fmt::format("{}.inputs[{}] = nullptr;  // `{}`: an earlier stage's output, bound by the pipeline",
                        at, c, callers[c].name));
        continue;
      }
      auto o = feed.operands.find(callers[c].name);
      if (o == feed.operands.end())
        return refuse(callers[c].span, fmt::format("no tensor of the problem feeds `{}`", callers[c].name));
      std::string expr = family_expr(o->second, call.inputs[c]);
      tensor(name, callers[c].name, expr, callers[c].dtype.value, call.inputs[c], Layout::row,
             fmt::format("{}'s `{}` ({})", name, callers[c].name, expr),
             fmt::format("{}.inputs[{}] = $ptr;", at, c));
    }
    for (size_t j = 0; j < call.scalars.size(); ++j)
      fills_.push_back(fmt::format("{}.scalars[{}] = {}f;  // `{}`", at, j, python_float(call.scalars[j]),
                                   m.scalars[j].name.value));
    std::vector<std::string> symbols = m.extent_symbols();
    for (size_t j = 0; j < call.extents.size(); ++j)
      fills_.push_back(fmt::format("{}.extents[{}] = {};  // {}", at, j, call.extents[j], symbols[j]));
    if (last(s)) fills_.push_back(fmt::format("{}.outputs[0] = y_.data_ptr();", at));
    stage_words_.push_back(fmt::format("{} {}", name, op_name(m.op.value)));
    return true;
  }

  /// The output: allocated by the binding in the last stage's stored order; forward permutes it to PyTorch's
  /// dims (the feeds say which stored extents each is) and reshapes it to Model's output shape.
  bool output() {
    const TensorDecl& out = want_.stages.back().output();
    if (out.layout.value == Layout::col)
      return refuse(p_.stages.back().output().span,
                    "its output is column-major, which no reshape makes Model's");
    std::vector<int64_t> sizes;
    for (const Extent& e : out.dims) {
      if (e.fixed()) {
        sizes.push_back(e.size);
        continue;
      }
      auto v = shape_.symbols.find(e.symbol);
      if (v == shape_.symbols.end())
        return refuse(p_.stages.back().output().span,
                      fmt::format("the problem's shape gives no `{}`", e.symbol));
      sizes.push_back(v->second);
    }
    out_sizes_ = sizes;
    out_dtype_ = p_.stages.back().output().dtype.value;
    const std::vector<std::string>& stored = feeds_.stored;
    std::vector<size_t> perm;
    for (const std::vector<std::string>& dim : feeds_.dims)
      for (const std::string& sym : dim) {
        auto it = std::find(stored.begin(), stored.end(), sym);
        if (it != stored.end()) perm.push_back(static_cast<size_t>(it - stored.begin()));
      }
    for (size_t i = 0; i < stored.size(); ++i)
      if (std::find(perm.begin(), perm.end(), i) == perm.end()) perm.push_back(i);
    std::vector<size_t> identity(perm.size());
    std::iota(identity.begin(), identity.end(), size_t{0});
    if (perm.size() != sizes.size())
      return refuse(p_.stages.back().output().span, "its output's extents are not the problem's");
    std::string y = "out";
    if (perm != identity) y += fmt::format(".permute({}).contiguous()", fmt::join(perm, ", "));
    reshape_ = fmt::format("{}.reshape({})", y, python_tuple(c_.analysis.output));
    output_glue_ = perm != identity;
    return true;
  }

  std::string binding_source() {
    binding_.returns.push_back(fmt::format("y: {} [{}], the output in the last stage's stored order",
                                           dtype_name(out_dtype_), fmt::join(out_sizes_, ", ")));
    CppWriter w;
    write_binding_opening(w, binding_, p_.name.value, kernel_.config_hash,
                          fmt::format("const ucut_pipeline_api* {}_api(void)", kernel_.kernel_namespace));
    paste_template(w, "ucut_torch_pipeline.inc");
    w.line();
    w.comment(fmt::format("{}: see the signature above.", binding_.function));
    w.open(fmt::format("at::Tensor {}(\n    {})", binding_.function,
                       fmt::join(cpp_params(binding_), ",\n    ")));
    w.line("using namespace ucut_torch;");
    w.line(fmt::format("static const char* const fn_ = {};", lit(binding_.function)));
    w.line(fmt::format("static const ucut_pipeline_api& api_ = *{}_api();", kernel_.kernel_namespace));
    for (const std::string& c : checks_) w.line(c);
    w.line(fmt::format("const c10::cuda::CUDAGuard guard_({}.device());", first()));
    w.line(fmt::format("at::Tensor y_ = at::empty({}, {}.options().dtype({}));", cpp_sizes(out_sizes_),
                       first(), at_type(out_dtype_)));
    w.line("ucut_pipeline_args args_{};");
    w.line(fmt::format("args_.count = {};", p_.stages.size()));
    for (const std::string& f : fills_) w.line(f);
    w.line(fmt::format("run_pipeline(fn_, api_, args_, {});", first()));
    w.line("return y_;");
    w.close();
    w.line();
    write_module(w, binding_);
    return w.str();
  }

  std::string header() const {
    std::string kb = sp_.kernelbench
                         ? fmt::format("KernelBench level {} problem {} ({})", sp_.kernelbench->level,
                                       sp_.kernelbench->id, sp_.kernelbench->file)
                         : "a suite problem";
    std::vector<std::string> glue = {
        "each tensor is passed as the pipeline's stage reads it: the first GEMM's input with its leading "
        "dims "
        "flattened (a view), a Linear weight as its column-major .t() (a view), a vector as its 1-D view"};
    if (conv_glue_)
      glue.push_back("a convolution's input and weight made channels-last (movedim + contiguous: copies)");
    if (negated_glue_) glue.push_back("a subtracted parameter negated (a copy: the kernel adds it)");
    if (permuted_glue_)
      glue.push_back(
          "a tensor a family stage reads in another dim order than PyTorch's packed in that order (a copy)");
    glue.push_back(output_glue_
                       ? "the output permuted back to PyTorch's dims (a copy) and reshaped to Model's"
                       : "the output reshaped to Model's (a view)");
    std::vector<std::string> paragraphs = {
        fmt::format(
            "Generated by ucutlass {} (`ucutlass export --kernelbench`) from suite problem {} and pipeline "
            "`{}`. Do not edit: change the spec and export again.",
            UCUTLASS_VERSION, sp_.stem, p_.name.value),
        fmt::format("The problem: {}, {}.", kb, sp_.title),
        fmt::format(
            "The pipeline: {} stages ({}) for {}, run through its C entry (ucut_pipeline_api) on PyTorch's "
            "current CUDA stream, intermediates in a workspace from PyTorch's allocator; built when this "
            "source runs by torch.utils.cpp_extension.load_inline from the CUDA source below (its spec at "
            "the "
            "top) with CUTLASS's headers from $CUTLASS_DIR.",
            p_.stages.size(), fmt::join(stage_words_, ", "), arch_info(p_.arch.value).name),
        "ModelNew creates the modules and parameters the reference Model creates, in the same order, so "
        "KernelBench's "
        "seeded comparison compares equal weights; it takes the reference's init inputs and ignores them, "
        "since the "
        "pipeline is compiled for this problem's sizes and constants.",
        fmt::format("Layout glue, in forward and so timed with it: {}.", fmt::join(glue, "; "))};
    if (batch_norm_)
      paragraphs.push_back(
          "Training mode, as KernelBench calls Model: the batch norm normalizes with the batch's statistics "
          "(biased "
          "variance), as nn.BatchNorm does in training; its running averages are not updated.");
    if (precision_change(harness_, p_))
      paragraphs.push_back(fmt::format(
          "Precision: a GEMM or convolution stage multiplies in TF32 but the problem states exact {} (X005).",
          sp_.precision));
    std::string h;
    for (const std::string& p : paragraphs) h += python_comment(p);
    return h;
  }

  std::string imports_and_build() const {
    return kernelbench_prelude(p_.arch.value, kernel_, binding_.cpp, extension_name(p_.name.value, kernel_), sp_.stem,
                               conv_glue_);
  }

  std::string model() const {
    std::string s = "class ModelNew(nn.Module):\n";
    s += fmt::format("    \"\"\"{}: {}, one ucutlass pipeline of {} stages.\"\"\"\n\n", sp_.stem, sp_.title,
                     p_.stages.size());
    s += "    def __init__(self, *init_inputs):\n        super().__init__()\n";
    for (const std::string& l : init_) s += "        " + l + "\n";
    s += fmt::format("\n    def forward(self, {}):\n", fmt::join(inputs_, ", "));
    s += fmt::format("        out = _ucut_extension.{}(\n            {})\n", binding_.function,
                     fmt::join(exprs_, ",\n            "));
    s += fmt::format("        return {}\n", reshape_);
    return s;
  }

  const PipelineConfig& p_;
  const EmittedKernel& kernel_;
  const suite::Checked& c_;
  const suite::Problem& sp_;
  const Problem& harness_;
  const PipelineConfig& want_;
  const GemmShape& shape_;
  const suite::PipelineFeeds& feeds_;
  DiagEngine& diags_;
  std::set<std::string> taken_ = {"self", "out"}, cpp_taken_ = reserved_names();
  std::vector<std::string> inputs_, init_, exprs_, checks_, fills_, stage_words_;
  std::map<size_t, std::string> modules_, params_;  // op index -> its module's or parameter's attribute
  Binding binding_;
  std::vector<int64_t> out_sizes_;
  DType out_dtype_ = DType::f32;
  std::string reshape_;
  bool conv_glue_ = false, negated_glue_ = false, permuted_glue_ = false, output_glue_ = false,
       batch_norm_ = false;
};

}  // namespace

std::optional<std::string> kernelbench_pipeline_module(const PipelineConfig& p, const EmittedKernel& kernel,
                                                       const suite::Checked& problem, DiagEngine& diags) {
  const suite::Problem& sp = problem.problem;
  if (!suite::is_pipeline_chain(sp)) {
    diags.report(
        RuleId::X003, p.header,
        fmt::format("pipeline `{}` does not compute suite problem {}: the problem is one GEMM or convolution "
                    "and its epilogue, a single kernel's",
                    p.name.value, sp.stem),
        fmt::format("export a `kernel` spec; `ucutlass suite lower {} --out DIR` writes its semantics",
                    sp.path));
    return std::nullopt;
  }
  auto lowered = suite::lower_pipeline_with_feeds(problem);
  if (const auto* why = std::get_if<std::string>(&lowered)) {
    diags.report(
        RuleId::X002, p.header,
        fmt::format("suite problem {} cannot be exported for KernelBench: {}", sp.stem, *why),
        "export a problem that `ucutlass suite lower` lowers; it says why it lowers none of the others");
    return std::nullopt;
  }
  const suite::PipelineLowering& built = std::get<suite::PipelineLowering>(lowered);
  const Problem& harness = built.problem;
  if (auto d = pipeline_departure(harness, p)) {
    diags.report(
        RuleId::X003, departure_span(*d, *harness.pipeline, p),
        fmt::format("pipeline `{}` does not compute suite problem {}: {}", p.name.value, sp.stem, d->why),
        fmt::format("`ucutlass suite lower {} --out DIR` writes the pipeline problem and its semantics (a "
                    "pipeline spec): the spec must have its stages, operators, types, chains and links",
                    sp.path));
    return std::nullopt;
  }
  for (const GemmShape& s : harness.shapes)
    if (auto why = shape_violation(p, s))
      diags.report(RuleId::X004, why->primary,
                   fmt::format("pipeline `{}` cannot run suite problem {}'s shape ({}): {} ({})",
                               p.name.value, sp.stem, s.label, why->message, rule_info(why->rule).code),
                   why->hint ? why->hint->text
                             : "change the spec's alignment or stage so it runs the problem's shape");
  if (diags.has_errors()) return std::nullopt;
  if (precision_change(harness, p)) {
    Span at = p.header;
    for (size_t s = 0; s < p.stages.size(); ++s)
      if (!p.stages[s].is_family() && p.stages[s].config.math.value == MathMode::tf32) {
        at = p.stages[s].config.math.span;
        break;
      }
    diags.report(
        RuleId::X005, at,
        fmt::format("pipeline `{}` multiplies in tf32 but suite problem {} states exact {}: KernelBench's "
                    "check (atol = rtol = {}) will likely fail",
                    p.name.value, sp.stem, sp.precision, sp.tolerance),
        "use `math = tf32x3` (3xTF32, FP32-level accuracy) or native f32 in the GEMM stages");
  }
  return PipelineWriter(p, kernel, problem, built, diags).write();
}

}  // namespace ucut::interop
