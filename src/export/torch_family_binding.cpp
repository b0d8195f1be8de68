// export/torch_family_binding.cpp — see torch_family_binding.h. The checks and the call live in the embedded
// helpers (templates/ucut_torch_helpers.inc); this file writes the per-kernel part.
#include "export/torch_family_binding.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

#include "export/python_text.h"
#include "export/torch_text.h"

namespace ucut::interop {
namespace {

/// A tensor the caller passes: the input (or the first view of it) that declares it, and how many column blocks
/// of the input's last extent it holds (a `slice(P, i, n)`: n; otherwise 1).
struct Passed {
  const TensorDecl* decl;
  int blocks;
  std::string name;  // the Python and C++ parameter name
};

/// The C++ local holding extent symbol `s` (prefixed: symbols may collide with parameter names).
std::string extent_local(const std::string& s) { return "e_" + s; }

class Writer {
 public:
  Writer(const MemOpConfig& m, const std::string& ns) : m_(m), ns_(ns) {}

  std::optional<Binding> write(DiagEngine& diags) {
    if (m_.window || m_.sparse || m_.library) {
      diags.report(RuleId::X001, m_.op.span,
                   fmt::format("a `{}` kernel has no PyTorch binding yet: its {} are no extents of the tensors a "
                               "binding is given",
                               op_name(m_.op.value),
                               m_.window   ? "run-time sizes (`size`, `stride`, `pad`) and derived output extents"
                               : m_.sparse ? "matrix's extents and entry counts, held by its index arrays,"
                                           : "outputs (in place, or of the extent `k`)"),
                   "export it as an MSKB launcher (`--mskb TASK`), whose signature passes them");
      return std::nullopt;
    }
    b_.function = "ucut_" + m_.name.value;
    name_everything();
    for (const Extent& e : out().dims)
      if (!e.fixed() && !given_.count(e.symbol)) {
        diags.report(RuleId::X001, e.span,
                     fmt::format("the output's extent `{}` is no extent of an input, so no tensor the caller "
                                 "passes gives its size",
                                 e.symbol),
                     "declare an input with that extent, or export the kernel as an MSKB launcher (`--mskb TASK`)");
        return std::nullopt;
      }
    CppWriter w;
    write_binding_opening(w, b_, m_.name.value, memop_hash(m_),
                          fmt::format("const ucut_memop_api* {}_api(void)", ns_));
    write_function(w);
    w.line();
    write_module(w, b_);
    b_.cpp = w.str();
    return b_;
  }

 private:
  const TensorDecl& out() const { return m_.output(); }

  /// Arguments in call order: the passed tensors, then the scalars; the output's name.
  void name_everything() {
    std::set<std::string> taken = reserved_names();
    for (const std::string& s : m_.extent_symbols()) taken.insert(extent_local(s));
    for (size_t i = 0; i < m_.inputs.size(); ++i) {
      const std::string& caller = m_.caller_name(i);
      if (seen_.count(caller)) continue;
      seen_.insert(caller);
      const ColumnSlice* slice = m_.slice_of(i);
      Passed p{&m_.inputs[i], slice ? slice->blocks.value : 1, python_name(caller, taken)};
      std::string doc = tensor_doc(*p.decl);
      if (slice)
        doc = fmt::format("{} whose last extent holds {} column blocks of {}", dtype_name(p.decl->dtype.value),
                          p.blocks, shape_text(*p.decl));
      b_.args.push_back({p.name, BindingArg::Kind::tensor, doc, 0});
      passed_.push_back(p);
      for (const Extent& e : p.decl->dims)
        if (!e.fixed()) given_.insert(e.symbol);
    }
    for (const ScalarDecl& s : m_.scalars) {
      std::string name = python_name(s.name.value, taken);
      scalar_names_.push_back(name);
      b_.args.push_back({name, BindingArg::Kind::scalar,
                         fmt::format("float, the run-time scalar `{}` ({})", s.name.value,
                                     dtype_name(s.dtype.value)),
                         0, true});
    }
    out_name_ = python_name(out().name.value, taken);
    b_.returns.push_back(fmt::format("{}: {}", out_name_, tensor_doc(out())));
  }

  /// Checks one passed tensor, defining the extent symbols it gives first and checking the others.
  void check_passed(CppWriter& w, const Passed& p, const std::string& first) {
    const TensorDecl& t = *p.decl;
    const std::string& n = p.name;
    w.line(fmt::format("check_tensor(fn_, {}, {}, {}, {}, {}, {});", lit(n), n, at_type(t.dtype.value),
                       lit(dtype_name(t.dtype.value)), t.dims.size(), lit(shape_text(t))));
    if (n != first) w.line(fmt::format("check_device(fn_, {}, {}, {});", lit(n), n, first));
    for (size_t i = 0; i < t.dims.size(); ++i) {
      const Extent& e = t.dims[i];
      const bool sliced = p.blocks > 1 && i + 1 == t.dims.size();
      const int64_t dim = torch_dim(t, i);
      if (e.fixed()) {
        w.line(fmt::format("check_extent(fn_, {}, {}, {}, \"size\", {}, \"the spec's fixed extent\");", lit(n), n,
                           dim, e.size * p.blocks));
        continue;
      }
      if (sliced)
        w.line(fmt::format("TORCH_CHECK_VALUE({0}.size({1}) % {2} == 0, fn_, \": argument `{0}` holds {2} column "
                           "blocks: its last extent must be a multiple of {2}; got shape \", {0}.sizes());",
                           n, dim, p.blocks));
      const std::string value = sliced ? fmt::format("{}.size({}) / {}", n, dim, p.blocks)
                                       : fmt::format("{}.size({})", n, dim);
      if (defined_.insert(e.symbol).second) {
        w.line(fmt::format("const int64_t {} = {};", extent_local(e.symbol), value));
        source_[e.symbol] = fmt::format("{}'s {} (dim {})", n, e.symbol, dim);
      } else if (sliced) {
        w.line(fmt::format("TORCH_CHECK_VALUE({0} == {1}, fn_, \": argument `{2}`'s last extent holds {3} blocks "
                           "of {4}, but {5} is \", {1}, \"; got shape \", {2}.sizes());",
                           value, extent_local(e.symbol), n, p.blocks, e.symbol, source_[e.symbol]));
      } else {
        w.line(fmt::format("check_extent(fn_, {}, {}, {}, {}, {}, {});", lit(n), n, dim, lit(e.symbol),
                           extent_local(e.symbol), lit(source_[e.symbol])));
      }
    }
    w.line(fmt::format("check_layout(fn_, {}, {}, {}, {});", lit(n), n, layout_enum(t.layout.value),
                       lit(shape_text(t))));
  }

  void write_function(CppWriter& w) {
    w.comment(fmt::format("{}: see the signature above.", b_.function));
    std::string head = fmt::format("at::Tensor {}({})", b_.function, fmt::join(cpp_params(b_), ", "));
    if (head.size() > 108)  // one parameter per line
      head = fmt::format("at::Tensor {}(\n    {})", b_.function, fmt::join(cpp_params(b_), ",\n    "));
    w.open(head);
    w.line("using namespace ucut_torch;");
    w.line(fmt::format("static const char* const fn_ = {};", lit(b_.function)));
    w.line(fmt::format("static const ucut_memop_api& api_ = *{}_api();", ns_));
    const std::string& first = passed_.front().name;
    for (const Passed& p : passed_) check_passed(w, p, first);
    w.line(fmt::format("const c10::cuda::CUDAGuard guard_({}.device());", first));
    std::vector<std::string> sizes;
    for (size_t i = 0; i < out().dims.size(); ++i) {
      const Extent& e = out().dims[i];
      sizes.push_back(e.fixed() ? std::to_string(e.size) : extent_local(e.symbol));
    }
    w.line(fmt::format("at::Tensor {} = new_tensor({{{}}}, {}, {}, {});", out_name_, fmt::join(sizes, ", "),
                       layout_enum(out().layout.value), at_type(out().dtype.value), first));
    w.line("ucut_memop_args args_{};");
    for (size_t c = 0; c < passed_.size(); ++c)
      w.line(fmt::format("args_.inputs[{}] = {}.data_ptr();", c, passed_[c].name));
    w.line(fmt::format("args_.outputs[0] = {}.data_ptr();", out_name_));
    for (size_t s = 0; s < scalar_names_.size(); ++s)
      w.line(fmt::format("args_.scalars[{}] = static_cast<float>({});", s, scalar_names_[s]));
    const std::vector<std::string> extents = m_.extent_symbols();
    for (size_t e = 0; e < extents.size(); ++e)
      w.line(fmt::format("args_.extents[{}] = {};", e, extent_local(extents[e])));
    w.line(fmt::format("run_memop(fn_, api_, args_, {});", first));
    w.line(fmt::format("return {};", out_name_));
    w.close();
  }

  const MemOpConfig& m_;
  std::string ns_;
  Binding b_;
  std::vector<Passed> passed_;
  std::set<std::string> seen_, given_, defined_;
  std::map<std::string, std::string> source_;
  std::vector<std::string> scalar_names_;
  std::string out_name_;
};

}  // namespace

std::optional<Binding> torch_family_binding(const MemOpConfig& m, const std::string& kernel_namespace,
                                            DiagEngine& diags) {
  return Writer(m, kernel_namespace).write(diags);
}

}  // namespace ucut::interop
