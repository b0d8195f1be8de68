// export/torch_binding.cpp — see torch_binding.h. The checks and the call live in the embedded helpers
// (templates/ucut_torch_helpers.inc); this file writes the per-kernel part: the parameter list, which checks
// run on which tensor with which extents, the outputs and the ucut_gemm_args they fill.
#include "export/torch_binding.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <map>
#include <set>

#include "emit/cpp_writer.h"
#include "export/python_text.h"
#include "export/torch_text.h"
#include "ir/abi_slots.h"
#include "ir/canonical.h"

namespace ucut::interop {
namespace {

class Writer {
 public:
  Writer(const KernelConfig& cfg, const std::string& ns) : cfg_(cfg), ns_(ns), slots_(abi_slots(cfg)) {}

  Binding write() {
    b_.function = "ucut_" + cfg_.name.value;
    b_.spatial_dims = op_spatial_dims(cfg_.op.value);
    name_everything();
    CppWriter w;
    write_binding_opening(w, b_, cfg_.name.value, config_hash(cfg_),
                          fmt::format("const ucut_kernel_api* {}_api(void)", ns_));
    write_function(w);
    w.line();
    write_module(w, b_);
    b_.cpp = w.str();
    return b_;
  }

 private:
  const TensorDecl& out() const { return cfg_.output(); }
  bool conv() const { return cfg_.conv(); }
  std::string name_of(const TensorDecl& t) const { return names_.at(&t); }

  void tensor_arg(const TensorDecl& t) {
    names_[&t] = python_name(t.name.value, taken_);
    b_.args.push_back({names_[&t], BindingArg::Kind::tensor, tensor_doc(t), 0});
  }

  /// Arguments in call order, and the C++ names of the outputs.
  void name_everything() {
    taken_ = reserved_names();
    tensor_arg(cfg_.a);
    tensor_arg(cfg_.b);
    if (const EpiOp* src = cfg_.source_stage()) tensor_arg(*src->tensor);
    for (const AbiSlots::Vector& v : slots_.vectors) {
      const EpiOp& op = cfg_.epilogue[v.stage];
      std::string name = python_name(epi_info(op.kind).name, taken_);
      vector_names_.push_back(name);
      std::string along = conv() ? "output channel" : v.axis == Axis::row ? "row (M)" : "column (N)";
      b_.args.push_back(
          {name, BindingArg::Kind::tensor,
           fmt::format("{} [{}], one per {}", dtype_name(v.dtype), vector_extent(v.axis), along), 0});
    }
    for (const TensorDecl* t : {&cfg_.a, &cfg_.b, &out()}) {
      if (!t->scaled.value) continue;
      std::string name = python_name("scale_" + t->name.value, taken_);
      scale_names_.push_back({t, name});
      b_.args.push_back({name, BindingArg::Kind::tensor,
                         fmt::format("float32 [1] on the device: {}'s FP8 scale", t->name.value), 0});
    }
    for (const AbiSlots::Scalar& s : slots_.scalars) {
      std::string name = python_name(s.name, taken_);
      scalar_names_.push_back(name);
      const EpiOp& op = cfg_.epilogue[s.stage];
      b_.args.push_back({name, BindingArg::Kind::scalar,
                         fmt::format("float, `{}`'s {}", epi_info(op.kind).name,
                                     op.kind == EpiKind::residual ? "beta" : "factor"),
                         s.default_value});
    }
    if (conv()) {
      std::vector<std::pair<const char*, double>> geometry = {{"stride", 1}, {"padding", 0}, {"dilation", 1}};
      if (op_conv_kind(cfg_.op.value) == ConvKind::dgrad) geometry.push_back({"output_padding", 0});
      for (auto [name, def] : geometry) {
        taken_.insert(name);
        b_.args.push_back({name, BindingArg::Kind::geometry,
                           fmt::format("int or {} ints, as torch.nn.functional's", b_.spatial_dims), def});
      }
    }
    names_[&out()] = python_name(out().name.value, taken_);
    b_.returns.push_back(fmt::format("{}: {}", names_[&out()], tensor_doc(out())));
    for (const AbiSlots::Aux& a : slots_.aux) {
      const EpiOp& op = cfg_.epilogue[a.stage];
      const TensorDecl& t = *op.tensor;
      names_[&t] = python_name(t.name.value, taken_);
      if (is_reduction(op.kind))
        b_.returns.push_back(fmt::format("{}: {} [{}{}], `{}` of each {}", names_[&t],
                                         dtype_name(t.dtype.value), cfg_.batched() ? "L, " : "",
                                         vector_extent(reduction_axis(op.kind)), epi_info(op.kind).name,
                                         conv()                                 ? "output channel"
                                         : reduction_axis(op.kind) == Axis::row ? "row"
                                                                                : "column"));
      else
        b_.returns.push_back(fmt::format("{}: {}", names_[&t], tensor_doc(t)));
    }
  }

  /// The extent a vector runs along: M or N, a convolution's output channels K.
  std::string vector_extent(Axis axis) const {
    if (conv()) return "K";
    return axis == Axis::row ? "M" : "N";
  }

  std::string return_type() const {
    if (slots_.aux.empty()) return "at::Tensor";
    std::vector<std::string> t(1 + slots_.aux.size(), "at::Tensor");
    return fmt::format("std::tuple<{}>", fmt::join(t, ", "));
  }

  void check_tensor(CppWriter& w, const TensorDecl& t) const {
    w.line(fmt::format("check_tensor(fn_, {}, {}, {}, {}, {}, {});", lit(name_of(t)), name_of(t),
                       at_type(t.caller_dtype()), lit(dtype_name(t.caller_dtype())), t.dims.size(),
                       lit(shape_text(t))));
  }

  void check_layout(CppWriter& w, const TensorDecl& t) const {
    w.line(fmt::format("check_layout(fn_, {}, {}, {}, {});", lit(name_of(t)), name_of(t),
                       layout_enum(t.layout.value), lit(shape_text(t))));
  }

  /// Extents the spec fixes (`W: f32[C,3,3,1]`) must be those sizes.
  void check_fixed(CppWriter& w, const TensorDecl& t) const {
    for (size_t i = 0; i < t.dims.size(); ++i)
      if (t.dims[i].fixed())
        w.line(fmt::format("check_extent(fn_, {}, {}, {}, {}, {}, \"the spec's fixed extent\");",
                           lit(name_of(t)), name_of(t), torch_dim(t, i), "\"size\"", t.dims[i].size));
  }

  void check_alignment(CppWriter& w, const TensorDecl& t, const std::string& extent_name,
                       const std::string& extent, bool input) const {
    int align = t.align.value;
    if (input) w.line(fmt::format("check_address(fn_, {}, {}, {});", lit(name_of(t)), name_of(t), align));
    std::string what = input ? name_of(t) : fmt::format("the output {}", name_of(t));
    w.line(fmt::format("check_multiple(fn_, {}, {}, {}, {});", lit(what), lit(extent_name), extent, align));
  }

  void write_function(CppWriter& w) {
    w.comment(fmt::format("{}: see the signature above.", b_.function));
    std::string head = fmt::format("{} {}({})", return_type(), b_.function, fmt::join(cpp_params(b_), ", "));
    if (head.size() > 108)  // one parameter per line
      head = fmt::format("{} {}(\n    {})", return_type(), b_.function, fmt::join(cpp_params(b_), ",\n    "));
    w.open(head);
    w.line("using namespace ucut_torch;");
    w.line(fmt::format("static const char* const fn_ = {};", lit(b_.function)));
    w.line(fmt::format("static const ucut_kernel_api& api_ = *{}_api();", ns_));
    if (conv())
      conv_body(w);
    else
      gemm_body(w);
    w.line("run_kernel(fn_, api_, args_, " + name_of(cfg_.a) + ");");
    std::vector<std::string> outs = {name_of(out())};
    for (const AbiSlots::Aux& a : slots_.aux) outs.push_back(name_of(*cfg_.epilogue[a.stage].tensor));
    w.line(outs.size() == 1 ? "return " + outs[0] + ";"
                            : fmt::format("return {{{}}};", fmt::join(outs, ", ")));
    w.close();
  }

  /// The vectors and FP8 scales, checked against the first operand; `len` is the C++ extent of each axis.
  void check_vectors_and_scales(CppWriter& w, const std::string& row_len, const std::string& col_len) const {
    const std::string& first = name_of(cfg_.a);
    for (size_t j = 0; j < slots_.vectors.size(); ++j) {
      const AbiSlots::Vector& v = slots_.vectors[j];
      bool row = v.axis == Axis::row;
      w.line(fmt::format("check_vector(fn_, {}, {}, {}, {}, {}, {}, {});", lit(vector_names_[j]),
                         vector_names_[j], at_type(v.dtype), lit(dtype_name(v.dtype)),
                         row ? row_len : col_len, lit(vector_extent(v.axis)), first));
    }
    for (const auto& [t, name] : scale_names_)
      w.line(fmt::format("check_scale(fn_, {}, {}, {});", lit(name), name, first));
  }

  /// ucut_gemm_args' vectors, scalars and FP8 scales.
  void fill_epilogue_params(CppWriter& w) const {
    for (size_t j = 0; j < vector_names_.size(); ++j)
      w.line(fmt::format("args_.vectors[{}] = {}.data_ptr();", j, vector_names_[j]));
    for (size_t j = 0; j < scalar_names_.size(); ++j)
      w.line(fmt::format("args_.scalars[{}] = static_cast<float>({});", j, scalar_names_[j]));
    for (const auto& [t, name] : scale_names_) {
      const char* field = t == &cfg_.a ? "scale_a" : t == &cfg_.b ? "scale_b" : "scale_d";
      w.line(fmt::format("args_.{} = static_cast<const float*>({}.data_ptr());", field, name));
    }
  }

  /// GEMM extents m_, n_, k_ (and l_): A is [(L,) M, K], B [(L,) K, N], every M x N tensor [(L,) M, N].
  void gemm_body(CppWriter& w) {
    const TensorDecl &a = cfg_.a, &b = cfg_.b;
    const size_t r = cfg_.matrix_rank();
    const std::string &an = name_of(a), &bn = name_of(b);
    auto sym = [&](const TensorDecl& t, size_t i, const char* role) {
      return t.dims[i].fixed() ? std::string(role) : t.dims[i].symbol;
    };
    std::string M = sym(a, r - 2, "M"), K = sym(a, r - 1, "K"), N = sym(b, r - 1, "N");
    check_tensor(w, a);
    check_tensor(w, b);
    w.line(fmt::format("check_device(fn_, {}, {}, {});", lit(bn), bn, an));
    if (r == 3) w.line(fmt::format("const int64_t l_ = {}.size(0);", an));
    w.line(fmt::format("const int64_t m_ = {0}.size({1}), k_ = {0}.size({2}), n_ = {3}.size({2});", an, r - 2,
                       r - 1, bn));
    if (r == 3)
      w.line(
          fmt::format("check_extent(fn_, {}, {}, 0, \"L\", l_, {});", lit(bn), bn, lit(an + "'s L (dim 0)")));
    w.line(fmt::format("check_extent(fn_, {}, {}, {}, {}, k_, {});", lit(bn), bn, r - 2, lit(K),
                       lit(fmt::format("{}'s {} (dim {})", an, K, r - 1))));
    std::vector<const TensorDecl*> inputs = {&a, &b};
    if (const EpiOp* src = cfg_.source_stage()) {
      const TensorDecl& c = *src->tensor;
      const std::string& cn = name_of(c);
      inputs.push_back(&c);
      check_tensor(w, c);
      w.line(fmt::format("check_device(fn_, {}, {}, {});", lit(cn), cn, an));
      if (r == 3)
        w.line(fmt::format("check_extent(fn_, {}, {}, 0, \"L\", l_, {});", lit(cn), cn,
                           lit(an + "'s L (dim 0)")));
      w.line(fmt::format("check_extent(fn_, {}, {}, {}, {}, m_, {});", lit(cn), cn, r - 2, lit(M),
                         lit(fmt::format("{}'s {} (dim {})", an, M, r - 2))));
      w.line(fmt::format("check_extent(fn_, {}, {}, {}, {}, n_, {});", lit(cn), cn, r - 1, lit(N),
                         lit(fmt::format("{}'s {} (dim {})", bn, N, r - 1))));
    }
    for (const TensorDecl* t : inputs) check_fixed(w, *t);
    for (const TensorDecl* t : inputs) check_layout(w, *t);
    // The contiguous extent of an [rows, cols] matrix: cols when row-major, rows when column-major.
    auto inner = [&](const TensorDecl& t, std::pair<std::string, std::string> rows,
                     std::pair<std::string, std::string> cols) {
      return t.layout.value == Layout::col ? rows : cols;
    };
    std::pair<std::string, std::string> m{M, "m_"}, n{N, "n_"}, k{K, "k_"};
    auto mn = [&](const TensorDecl& t) { return inner(t, m, n); };
    auto [a_name, a_ld] = inner(a, m, k);
    auto [b_name, b_ld] = inner(b, k, n);
    check_alignment(w, a, a_name, a_ld, true);
    check_alignment(w, b, b_name, b_ld, true);
    if (inputs.size() == 3) check_alignment(w, *inputs[2], mn(*inputs[2]).first, mn(*inputs[2]).second, true);
    check_vectors_and_scales(w, "m_", "n_");
    check_alignment(w, out(), mn(out()).first, mn(out()).second, false);
    for (const AbiSlots::Aux& x : slots_.aux) {
      const EpiOp& op = cfg_.epilogue[x.stage];
      if (!is_reduction(op.kind))
        check_alignment(w, *op.tensor, mn(*op.tensor).first, mn(*op.tensor).second, false);
    }
    w.line(fmt::format("const c10::cuda::CUDAGuard guard_({}.device());", an));
    std::string lead = r == 3 ? "l_, " : "";
    auto alloc = [&](const TensorDecl& t, const std::string& sizes) {
      w.line(fmt::format("at::Tensor {} = new_tensor({{{}}}, {}, {}, {});", name_of(t), sizes,
                         layout_enum(t.layout.value), at_type(t.dtype.value), an));
    };
    alloc(out(), lead + "m_, n_");
    for (const AbiSlots::Aux& x : slots_.aux) {
      const EpiOp& op = cfg_.epilogue[x.stage];
      alloc(*op.tensor,
            lead + (is_reduction(op.kind) ? (reduction_axis(op.kind) == Axis::row ? "m_" : "n_") : "m_, n_"));
    }
    w.line("ucut_gemm_args args_{};");
    w.line(fmt::format("args_.m = m_, args_.n = n_, args_.k = k_, args_.batch = {};", r == 3 ? "l_" : "1"));
    w.line(fmt::format("args_.a = {{{}.data_ptr(), {}, m_ * k_}};", an, a_ld));
    w.line(fmt::format("args_.b = {{{}.data_ptr(), {}, k_ * n_}};", bn, b_ld));
    if (inputs.size() == 3)
      w.line(fmt::format("args_.c = {{{}.data_ptr(), {}, m_ * n_}};", name_of(*inputs[2]),
                         mn(*inputs[2]).second));
    w.line(fmt::format("args_.d = {{{}.data_ptr(), {}, m_ * n_}};", name_of(out()), mn(out()).second));
    for (size_t j = 0; j < slots_.aux.size(); ++j) {
      const EpiOp& op = cfg_.epilogue[slots_.aux[j].stage];
      const std::string& t = name_of(*op.tensor);
      if (is_reduction(op.kind))  // a vector: ld unused, batch stride its length between batches
        w.line(fmt::format("args_.aux[{}] = {{{}.data_ptr(), 0, args_.batch > 1 ? {} : 0}};", j, t,
                           reduction_axis(op.kind) == Axis::row ? "m_" : "n_"));
      else
        w.line(fmt::format("args_.aux[{}] = {{{}.data_ptr(), {}, m_ * n_}};", j, t, mn(*op.tensor).second));
    }
    fill_epilogue_params(w);
  }

  /// The contiguous (channel) extents the kernel reads X, W and the output with, as C++ over g_.args (forward
  /// geometry, see ucut_conv_args): grouped convolutions read one group's channels; the SM90 transposed
  /// convolution reads a flipped copy of W whose channels are K, the 2.x one reads W in place.
  std::array<std::pair<std::string, std::string>, 3> conv_channels() const {
    ConvGrouping grouping = op_conv_grouping(cfg_.op.value);
    if (grouping == ConvGrouping::depthwise)
      return {{{"C", "g_.args.c"}, {"K", "g_.args.k"}, {"K", "g_.args.k"}}};
    if (op_conv_kind(cfg_.op.value) == ConvKind::dgrad) {
      bool flipped = cfg_.backend() == BackendKind::sm90;
      return {{{"C", "g_.args.k"},
               flipped ? std::pair<std::string, std::string>{"C (of the flipped filter)", "g_.args.k"}
                       : std::pair<std::string, std::string>{"K", "g_.args.c"},
               {"K", "g_.args.c"}}};
    }
    return {{{"C / groups", "g_.args.c / g_.args.groups"},
             {"C / groups", "g_.args.c / g_.args.groups"},
             {"K", "g_.args.k"}}};
  }

  void conv_body(CppWriter& w) {
    const TensorDecl &x = cfg_.a, &wt = cfg_.b;
    const std::string &xn = name_of(x), &wn = name_of(wt);
    const bool dgrad = op_conv_kind(cfg_.op.value) == ConvKind::dgrad;
    check_tensor(w, x);
    check_tensor(w, wt);
    w.line(fmt::format("check_device(fn_, {}, {}, {});", lit(wn), wn, xn));
    check_layout(w, x);
    check_layout(w, wt);
    check_fixed(w, x);
    check_fixed(w, wt);
    const char* grouping = "Grouping::dense";
    if (op_conv_grouping(cfg_.op.value) == ConvGrouping::grouped) grouping = "Grouping::grouped";
    if (op_conv_grouping(cfg_.op.value) == ConvGrouping::depthwise) grouping = "Grouping::depthwise";
    w.line(fmt::format(
        "const Conv g_ = conv_geometry(fn_, ConvKind::{}, {}, {}, {}, {}, stride, padding, dilation, {});",
        dgrad ? "dgrad" : "fprop", grouping, b_.spatial_dims, xn, wn, dgrad ? "output_padding" : "{}"));
    auto channels = conv_channels();
    check_alignment(w, x, channels[0].first, channels[0].second, true);
    check_alignment(w, wt, channels[1].first, channels[1].second, true);
    std::string c_name;
    if (const EpiOp* src = cfg_.source_stage()) {
      const TensorDecl& c = *src->tensor;
      c_name = name_of(c);
      check_tensor(w, c);
      w.line(fmt::format("check_device(fn_, {}, {}, {});", lit(c_name), c_name, xn));
      w.line(fmt::format(
          "TORCH_CHECK_VALUE({}.sizes() == at::IntArrayRef(g_.out_sizes), fn_, \": argument `{}` must have "
          "the output's shape \", at::IntArrayRef(g_.out_sizes), \", got \", {}.sizes());",
          c_name, c_name, c_name));
      check_layout(w, c);
      check_alignment(w, c, channels[2].first, channels[2].second, true);
    }
    check_vectors_and_scales(w, "g_.m", "g_.n");
    check_alignment(w, out(), channels[2].first, channels[2].second, false);
    w.line(fmt::format("const c10::cuda::CUDAGuard guard_({}.device());", xn));
    auto alloc = [&](const TensorDecl& t, const std::string& sizes, Layout layout) {
      w.line(fmt::format("at::Tensor {} = new_tensor({}, {}, {}, {});", name_of(t), sizes,
                         layout_enum(layout), at_type(t.dtype.value), xn));
    };
    alloc(out(), "g_.out_sizes", Layout::channels_last);
    for (const AbiSlots::Aux& a : slots_.aux) {
      const EpiOp& op = cfg_.epilogue[a.stage];
      if (is_reduction(op.kind))
        alloc(*op.tensor, "{g_.n}", Layout::row);
      else
        alloc(*op.tensor, "g_.out_sizes", Layout::channels_last);
    }
    w.line("ucut_gemm_args args_{};");
    w.line("args_.m = g_.m, args_.n = g_.n, args_.k = g_.k, args_.batch = 1;");
    w.line("args_.conv = g_.args;");
    w.line(fmt::format("args_.a = {{{}.data_ptr(), {}.size(1), 0}};", xn, xn));
    w.line(fmt::format("args_.b = {{{}.data_ptr(), {}.size(1), 0}};", wn, wn));
    if (!c_name.empty()) w.line(fmt::format("args_.c = {{{}.data_ptr(), g_.n, 0}};", c_name));
    w.line(fmt::format("args_.d = {{{}.data_ptr(), g_.n, 0}};", name_of(out())));
    for (size_t j = 0; j < slots_.aux.size(); ++j) {
      const EpiOp& op = cfg_.epilogue[slots_.aux[j].stage];
      w.line(fmt::format("args_.aux[{}] = {{{}.data_ptr(), {}, 0}};", j, name_of(*op.tensor),
                         is_reduction(op.kind) ? "0" : "g_.n"));
    }
    fill_epilogue_params(w);
  }

  const KernelConfig& cfg_;
  std::string ns_;
  AbiSlots slots_;
  Binding b_;
  std::set<std::string> taken_;
  std::map<const TensorDecl*, std::string> names_;
  std::vector<std::string> vector_names_, scalar_names_;
  std::vector<std::pair<const TensorDecl*, std::string>> scale_names_;
};

}  // namespace

Binding torch_binding(const KernelConfig& cfg, const std::string& kernel_namespace) {
  return Writer(cfg, kernel_namespace).write();
}

std::string torch_dtype(DType t) {
  switch (t) {
    case DType::f64:
      return "float64";
    case DType::f32:
    case DType::tf32:
      return "float32";
    case DType::f16:
      return "float16";
    case DType::bf16:
      return "bfloat16";
    case DType::e4m3:
      return "float8_e4m3fn";
    case DType::e5m2:
      return "float8_e5m2";
    case DType::i8:
      return "int8";
    case DType::i32:
      return "int32";
  }
  return "";
}

}  // namespace ucut::interop
