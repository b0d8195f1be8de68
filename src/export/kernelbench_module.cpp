// export/kernelbench_module.cpp — see kernelbench_module.h.
#include "export/kernelbench_module.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

#include "check/shape_rules.h"
#include "export/python_text.h"
#include "export/torch_binding.h"
#include "export/torch_extension.h"
#include "export/torch_modules.h"
#include "ir/abi_slots.h"
#include "problem/match.h"
#include "problem/problem.h"
#include "suite/lower.h"
#include "support/version.h"

namespace ucut::interop {
namespace {

std::string shape_label(const GemmShape& s) {
  std::string e = s.is_conv() ? fmt::format("implicit GEMM {} x {} x {}", s.m, s.n, s.k)
                              : fmt::format("{} x {} x {}{}", s.m, s.n, s.k,
                                            s.batch > 1 ? fmt::format(" x {}", s.batch) : "");
  return s.label.empty() ? e : fmt::format("{}, {}", s.label, e);
}

std::string py_list(const suite::Shape& s) { return fmt::format("[{}]", fmt::join(s, ", ")); }

/// Writes ModelNew. The problem lowered, so its chain is one main op (linear, matmul, conv, conv_transpose)
/// and then the epilogue stages, each fed by the tensor its source names (suite/lower_chain.h).
class ModelWriter {
 public:
  ModelWriter(const KernelConfig& cfg, const EmittedKernel& kernel, const suite::Checked& c,
              const suite::Lowered& harness)
      : cfg_(cfg),
        kernel_(kernel),
        p_(c.problem),
        harness_(harness.problem),
        sources_(harness.sources),
        binding_(torch_binding(cfg, kernel.kernel_namespace)) {}

  std::string write() {
    for (const suite::Input& in : p_.inputs) inputs_.push_back(python_name(in.name, taken_));
    main_op();
    for (size_t i = 1; i < p_.ops.size(); ++i) later_op(i);
    for (const suite::StageSource& s : sources_) stage_tensor(s);
    return header() + imports_and_build() + model();
  }

 private:
  const suite::Op& main() const { return p_.ops.front(); }
  size_t rank() const { return p_.inputs.front().shape.size() - 2; }  // a convolution's spatial rank

  /// The main op's module (none for a matmul of two inputs) and its glue; its bias is the first vector stage.
  void main_op() {
    const suite::Op& op = main();
    const suite::Shape& x = p_.inputs.front().shape;
    const std::string& xn = inputs_.front();
    switch (suite::op_form(op.kind)) {
      case suite::OpForm::linear: {
        bool bias = op.flag_or("bias", true);
        int64_t k = x.back(), n = static_cast<int64_t>(op.number_or("out_features", 0));
        module_ = "self.linear";
        init_.push_back("self.linear = " + *torch_module(op, x));
        a_ = x.size() > 2 ? fmt::format("{}.reshape(-1, {}).contiguous()", xn, k) : xn + ".contiguous()";
        b_ = "self.linear.weight.t()";
        if (x.size() > 2) reshape_ = fmt::format("*{}.shape[:-1], {}", xn, n);
        glue_ = fmt::format(
            "{} is A [M, K] row-major{}; the Linear weight [N, K] is B [K, N] column-major, "
            "weight.t() (a view){}",
            xn, x.size() > 2 ? " (its leading dims flattened, a view)" : "",
            bias ? "; its bias is the first bias(col) vector" : "");
        break;
      }
      case suite::OpForm::matmul: {
        const std::string* other = op.get("other") ? &*op.get("other")->text : nullptr;
        std::string bn;
        const suite::Shape* b = nullptr;
        for (size_t i = 0; i < p_.inputs.size(); ++i)
          if (other && p_.inputs[i].name == *other) bn = inputs_[i], b = &p_.inputs[i].shape;
        if (const suite::Attr* param = op.get("param")) {  // created first, as the reference's Model does
          bn = new_param(0, *param->ints);
          b = &*param->ints;
        }
        bool ta = op.flag_or("transpose_self", false), tb = op.flag_or("transpose_other", false);
        bool flatten = b && b->size() == 2 && x.size() > 2;
        a_ = ta        ? xn + ".t()"
             : flatten ? fmt::format("{}.reshape(-1, {}).contiguous()", xn, x.back())
                       : xn + ".contiguous()";
        b_ = tb ? bn + ".t()" : bn + ".contiguous()";
        if (flatten) reshape_ = fmt::format("*{}.shape[:-1], {}", xn, b->back());
        glue_ = fmt::format("{} and {} are A and B as PyTorch stores them{}{}", xn, bn,
                            ta || tb ? " (a transposed operand is its .t(), a column-major view)" : "",
                            flatten ? fmt::format("; {}'s leading dims are flattened (a view)", xn) : "");
        break;
      }
      default: {  // conv, conv_transpose
        bool transposed = suite::op_form(op.kind) == suite::OpForm::conv_transpose;
        bool bias = op.flag_or("bias", true);
        size_t r = rank();
        module_ = transposed ? "self.conv_transpose" : "self.conv";
        init_.push_back(fmt::format("{} = {}", module_, *torch_module(op, x)));
        a_ = fmt::format("_ucut_channels_last({})", xn);
        b_ = fmt::format("_ucut_channels_last({}.weight)", module_);
        geometry_ = {{"stride", py_list(op.ints_or("stride", r, 1))},
                     {"padding", py_list(op.ints_or("padding", r, 0))},
                     {"dilation", py_list(op.ints_or("dilation", r, 1))}};
        if (transposed) geometry_.push_back({"output_padding", py_list(op.ints_or("output_padding", r, 0))});
        glue_ = fmt::format(
            "{} and the {} weight are made channels-last (movedim + contiguous: copies, timed), as the "
            "kernel ABI reads packed N(D)(H)WC; the output is returned NC..-shaped in channels-last "
            "memory{}",
            xn, transposed ? "ConvTranspose" : "Conv",
            bias ? "; the conv's bias is the first bias(col) vector" : "");
      }
    }
  }

  /// Op `i`'s learned parameter of `shape`, created now (in chain order, as the reference's Model creates
  /// them).
  std::string new_param(size_t i, const suite::Shape& shape) {
    std::string attr = fmt::format("self.param{}", i + 1);
    init_.push_back(fmt::format("{} = nn.Parameter(torch.randn({}))  # op {} ({})", attr, python_tuple(shape),
                                i + 1, suite::op_name(p_.ops[i].kind)));
    params_[i] = attr;
    return attr;
  }

  /// A later op: its learned parameter, if any.
  void later_op(size_t i) {
    if (const suite::Attr* param = p_.ops[i].get("param")) new_param(i, *param->ints);
  }

  /// The next stage's tensor: a vector's expression (per stage, nullopt for none) or the residual C.
  void stage_tensor(const suite::StageSource& s) {
    using Kind = suite::StageSource::Kind;
    std::optional<std::string> vector;
    switch (s.kind) {
      case Kind::none:
        break;
      case Kind::layer_bias:
        vector = module_ + ".bias";
        break;
      case Kind::param:
        vector = params_.at(s.index) + ".reshape(-1)";
        break;
      case Kind::negated_param:
        vector = fmt::format("(-{}).reshape(-1)", params_.at(s.index));
        negated_glue_ = true;
        break;
      case Kind::input: {
        const std::string& in = inputs_.at(s.index);
        c_ = !geometry_.empty() ? fmt::format("_ucut_channels_last({})", in)
             : !reshape_.empty()
                 ? fmt::format("{}.reshape(-1, {}).contiguous()", in, p_.inputs[s.index].shape.back())
                 : in + ".contiguous()";
        c_glue_ = fmt::format("; {} is the residual C{}", in,
                              geometry_.empty() ? "" : ", made channels-last like the input (a copy)");
        break;
      }
    }
    if (s.kind == Kind::param || s.kind == Kind::negated_param) param_glue_ = true;
    stage_vectors_.push_back(vector);
  }

  /// The vector slot of stage `stage` in the problem's precision, or converted to the spec's vector type.
  std::string vector_expr(const AbiSlots::Vector& v) const {
    const std::optional<std::string>& e = stage_vectors_.at(v.stage);
    std::string expr = e ? *e : "None";
    if (std::string(dtype_name(v.dtype)) != p_.precision)
      expr += fmt::format(".to(torch.{})", torch_dtype(v.dtype));
    return expr;
  }

  /// The kernel's arguments: the operands, the vectors in slot order, then the problem's scalars and the
  /// convolution's geometry by keyword.
  std::vector<std::string> kernel_args() const {
    AbiSlots spec_slots = abi_slots(cfg_), problem_slots = abi_slots(harness_.semantics);
    std::vector<std::string> args = {a_, b_};
    if (!c_.empty()) args.push_back(c_);
    for (const AbiSlots::Vector& v : spec_slots.vectors) args.push_back(vector_expr(v));
    size_t scalar = 0;
    for (const BindingArg& a : binding_.args) {
      if (a.kind == BindingArg::Kind::scalar)
        args.push_back(
            fmt::format("{}={}", a.name, python_float(problem_slots.scalars.at(scalar++).default_value)));
      if (a.kind == BindingArg::Kind::geometry)
        for (const auto& [name, value] : geometry_)
          if (name == a.name) args.push_back(fmt::format("{}={}", name, value));
    }
    return args;
  }

  std::string header() const {
    std::string kb = p_.kernelbench
                         ? fmt::format("KernelBench level {} problem {} ({})", p_.kernelbench->level,
                                       p_.kernelbench->id, p_.kernelbench->file)
                         : "a suite problem";
    std::vector<std::string> paragraphs = {
        fmt::format(
            "Generated by ucutlass {} (`ucutlass export --kernelbench`) from suite problem {} and kernel "
            "`{}`. Do not edit: change the spec and export again.",
            UCUTLASS_VERSION, p_.stem, cfg_.name.value),
        fmt::format("The problem: {}, {}.", kb, p_.title),
        fmt::format(
            "The kernel: {} {} x {} -> {}, math {}, epilogue {}, for {}; built when this source runs by "
            "torch.utils.cpp_extension.load_inline from the CUDA source below (its spec at the top) with "
            "CUTLASS's headers from $CUTLASS_DIR.",
            op_name(cfg_.op.value), dtype_name(cfg_.a.caller_dtype()), dtype_name(cfg_.b.caller_dtype()),
            dtype_name(cfg_.output().dtype.value), multiply_precision(cfg_), chain_text(),
            arch_info(cfg_.arch.value).name),
        "ModelNew creates the parameters the reference Model creates, with the same modules in the same "
        "order, "
        "so KernelBench's seeded comparison compares equal weights; it takes the reference's init inputs and "
        "ignores them, since the kernel is compiled for this problem's sizes and constants.",
        fmt::format("Layout glue, in forward and so timed with it: {}{}{}{}.", glue_, c_glue_,
                    param_glue_ ? "; a per-channel parameter is passed as its 1-D view" : "",
                    negated_glue_ ? " (a subtracted one negated: a copy, as the kernel adds it)" : "")};
    if (precision_change(harness_, cfg_))
      paragraphs.push_back(
          fmt::format("Precision: the kernel multiplies in {} but the problem states exact {} (X005).",
                      multiply_precision(cfg_), p_.precision));
    std::string h;
    for (const std::string& p : paragraphs) h += python_comment(p);
    return h;
  }

  std::string chain_text() const {
    std::vector<std::string> stages;
    for (size_t i = 0; i + 1 < cfg_.epilogue.size(); ++i)
      stages.push_back(std::string(epi_info(cfg_.epilogue[i].kind).name));
    return stages.empty() ? "store" : fmt::format("{} >> store", fmt::join(stages, " >> "));
  }

  std::string imports_and_build() const {
    return kernelbench_prelude(cfg_.arch.value, kernel_, binding_.cpp, extension_name(cfg_.name.value, kernel_), p_.stem,
                               !geometry_.empty());
  }

  std::string model() const {
    std::string s = "class ModelNew(nn.Module):\n";
    s += fmt::format("    \"\"\"{}: {}, one ucutlass kernel.\"\"\"\n\n", p_.stem, p_.title);
    s += "    def __init__(self, *init_inputs):\n        super().__init__()\n";
    for (const std::string& l : init_) s += "        " + l + "\n";
    s += fmt::format("\n    def forward(self, {}):\n", fmt::join(inputs_, ", "));
    s += fmt::format("        y = _ucut_extension.{}(\n            {})\n", binding_.function,
                     fmt::join(kernel_args(), ",\n            "));
    s += reshape_.empty() ? "        return y\n" : fmt::format("        return y.reshape({})\n", reshape_);
    return s;
  }

  const KernelConfig& cfg_;
  const EmittedKernel& kernel_;
  const suite::Problem& p_;
  const Problem& harness_;
  const std::vector<suite::StageSource>& sources_;
  Binding binding_;
  std::set<std::string> taken_ = {"self"};
  std::vector<std::string> inputs_;
  std::string module_;
  std::vector<std::string> init_;
  std::map<size_t, std::string> params_;  // op index -> its parameter's attribute
  std::vector<std::optional<std::string>>
      stage_vectors_;  // per lowered epilogue stage, its vector's expression
  std::string a_, b_, c_, reshape_, glue_, c_glue_;
  bool param_glue_ = false, negated_glue_ = false;
  std::vector<std::pair<std::string, std::string>> geometry_;
};

}  // namespace

Span mismatch_span(const KernelConfig& want, const KernelConfig& spec) {
  if (want.op.value != spec.op.value) return spec.op.span;
  for (auto [w, s] :
       {std::pair{&want.a, &spec.a}, std::pair{&want.b, &spec.b}, std::pair{&want.output(), &spec.output()}})
    if (w->dtype.value != s->caller_dtype() || w->layout.value != s->layout.value) return s->span;
  for (size_t i = 0; i < spec.epilogue.size(); ++i)
    if (i >= want.epilogue.size() || want.epilogue[i].kind != spec.epilogue[i].kind)
      return spec.epilogue[i].span;
  for (size_t i = 0; i < spec.epilogue.size(); ++i)
    if (want.epilogue[i].params != spec.epilogue[i].params) return spec.epilogue[i].span;
  return spec.epilogue.front().span;
}

std::optional<std::string> kernelbench_module(const KernelConfig& cfg, const EmittedKernel& kernel,
                                              const suite::Checked& problem, DiagEngine& diags) {
  const suite::Problem& p = problem.problem;
  auto lowered = suite::lower_with_sources(problem);
  if (const auto* why = std::get_if<std::string>(&lowered)) {
    diags.report(
        RuleId::X002, cfg.header,
        fmt::format("suite problem {} cannot be exported for KernelBench: {}", p.stem, *why),
        "export a problem that `ucutlass suite lower` lowers; it says why it lowers none of the others");
    return std::nullopt;
  }
  const suite::Lowered& built = std::get<suite::Lowered>(lowered);
  const Problem* harness = &built.problem;
  if (auto why = semantic_mismatch(*harness, cfg)) {
    diags.report(
        RuleId::X003, mismatch_span(harness->semantics, cfg),
        fmt::format("kernel `{}` does not compute suite problem {}: {}", cfg.name.value, p.stem, *why),
        fmt::format(
            "`ucutlass suite lower {} --out DIR` writes the problem as the harness reads it: the spec "
            "must compute its `op`, `a`, `b`, `d` and `epilogue`",
            p.path));
    return std::nullopt;
  }
  for (const GemmShape& s : harness->shapes)
    if (auto why = shape_violation(cfg, s))
      diags.report(RuleId::X004, why->primary,
                   fmt::format("kernel `{}` cannot run suite problem {}'s shape ({}): {} ({})", cfg.name.value, p.stem,
                               shape_label(s), why->message, rule_info(why->rule).code),
                   why->hint->text);
  if (diags.has_errors()) return std::nullopt;
  if (precision_change(*harness, cfg))
    diags.report(
        RuleId::X005, cfg.math.span,
        fmt::format("kernel `{}` multiplies in {} but suite problem {} states exact {}: KernelBench's check "
                    "(atol = rtol = {}) will likely fail",
                    cfg.name.value, multiply_precision(cfg), p.stem, p.precision, p.tolerance),
        "use `math = tf32x3` (3xTF32, FP32-level accuracy) or native f32 for an exact-f32 problem");
  return ModelWriter(cfg, kernel, problem, built).write();
}

}  // namespace ucut::interop
