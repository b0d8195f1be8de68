// suite/analyze.cpp — see analyze.h. Shape rules are PyTorch's (torch.matmul broadcasting, nn.ConvNd and
// nn.ConvTranspose{N}d output extents, pooling with floor rounding); FLOPs follow torch.utils.flop_counter.
#include "suite/analyze.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>

namespace ucut::suite {
namespace {

double volume(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), 1.0, [](double a, int64_t d) { return a * static_cast<double>(d); });
}

std::string show(const Shape& s) {
  return fmt::format("[{}]", fmt::join(s, ", "));
}

/// Thrown by a shape rule; caught once per op and reported as S010 at the op.
struct ShapeError {
  std::string message, hint;
};

[[noreturn]] void fail(std::string message, std::string hint) { throw ShapeError{std::move(message), std::move(hint)}; }

Shape broadcast(const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      fail(fmt::format("{} and {} do not broadcast (dim {}: {} vs {})", show(a), show(b), i, da, db),
           "give the operand extent 1 or the value's extent in every dim, aligned from the right");
    out[i] = std::max(da, db);
  }
  return out;
}

/// Normalizes a possibly negative dim of a rank-`rank` value.
size_t dim_index(int64_t d, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (d < -r || d >= r) fail(fmt::format("dim {} is out of range for a rank-{} value", d, rank),
                             fmt::format("use a dim in {}..{}", -r, r - 1));
  return static_cast<size_t>(d < 0 ? d + r : d);
}

class Analyzer {
 public:
  Analyzer(const Problem& p, DiagEngine& diags) : p_(p), diags_(diags) {}

  std::optional<Analysis> run() {
    if (p_.inputs.empty() || p_.ops.empty()) return std::nullopt;
    for (const Input& in : p_.inputs) {
      named_[in.name] = in.shape;
      a_.input_elements += volume(in.shape);
      bool square = in.shape.size() >= 2 && in.shape[in.shape.size() - 1] == in.shape[in.shape.size() - 2];
      if (in.init == InputInit::rand_symmetric ? !square
                                               : (in.init != InputInit::rand && in.init != InputInit::randn &&
                                                  in.shape.size() < 2)) {
        diags_.report(RuleId::S010, in.span,
                      fmt::format("input `{}` of shape {} cannot be {}", in.name, show(in.shape),
                                  in.init == InputInit::rand_symmetric ? "symmetric: it is not square" : "triangular: it is not a matrix"),
                      "give a matrix shape (square for `rand_symmetric`) or use `rand`");
        return std::nullopt;
      }
    }
    Shape x = p_.inputs.front().shape;
    for (const Op& op : p_.ops) {
      try {
        x = apply(op, x);
      } catch (const ShapeError& e) {
        diags_.report(RuleId::S010, op.span,
                      fmt::format("op `{}` cannot apply to a value of shape {}: {}", op_name(op.kind), show(x),
                                  e.message),
                      e.hint);
        return std::nullopt;
      }
      a_.after_op.push_back(x);
      if (op.save) named_[*op.save] = x;
    }
    a_.output = x;
    a_.output_elements = volume(x);
    check_audit();
    return a_;
  }

 private:
  const Problem& p_;
  DiagEngine& diags_;
  Analysis a_;
  std::map<std::string, Shape> named_;

  /// The second operand of a binary op or matmul: a named value or a new parameter (counted).
  std::optional<Shape> operand(const Op& op) {
    if (const Attr* o = op.get("other"); o && o->text) {
      auto it = named_.find(*o->text);
      if (it == named_.end()) return std::nullopt;  // reported by the parser (S006)
      return it->second;
    }
    if (const Attr* prm = op.get("param"); prm && prm->ints) {
      for (int64_t d : *prm->ints)
        if (d <= 0) fail(fmt::format("`param` shape {} has a non-positive extent", show(*prm->ints)),
                         "give every extent ≥ 1");
      a_.param_elements += volume(*prm->ints);
      return *prm->ints;
    }
    return std::nullopt;
  }

  Shape apply(const Op& op, const Shape& x) {
    switch (op_form(op.kind)) {
      case OpForm::matmul: return matmul(op, x);
      case OpForm::linear: return linear(op, x);
      case OpForm::conv:
      case OpForm::conv_transpose: return conv(op, x);
      case OpForm::binary: {
        auto y = operand(op);
        return y ? broadcast(x, *y) : x;
      }
      case OpForm::unary:
        if ((op.kind == OpKind::triu || op.kind == OpKind::tril) && x.size() < 2)
          fail("`triu` and `tril` take a matrix (or a batch of them)", "apply it to a value with at least 2 dims");
        return x;
      case OpForm::softmax:
        dim_index(static_cast<int64_t>(op.number_or("dim", 0)), x.size());  // fails when out of range
        return x;
      case OpForm::scalar_bound:
        return x;
      case OpForm::clamp:
        if (!op.get("min") && !op.get("max")) fail("`clamp` needs `min`, `max` or both", "add `min = ...` or `max = ...`");
        return x;
      case OpForm::reduce: return reduce(op, x);
      case OpForm::batch_norm:
      case OpForm::group_norm:
      case OpForm::instance_norm: return norm(op, x);
      case OpForm::layer_norm: return layer_norm(op, x);
      case OpForm::pool: return pool(op, x);
      case OpForm::adaptive_pool: return adaptive_pool(op, x);
      case OpForm::reshape: return reshape(op, x);
      case OpForm::flatten: {
        size_t start = dim_index(static_cast<int64_t>(op.number_or("start_dim", 1)), x.size());
        Shape out(x.begin(), x.begin() + static_cast<long>(start));
        out.push_back(static_cast<int64_t>(volume(Shape(x.begin() + static_cast<long>(start), x.end()))));
        return out;
      }
    }
    return x;
  }

  Shape matmul(const Op& op, Shape a) {
    auto maybe_b = operand(op);
    if (!maybe_b) return a;
    Shape b = *maybe_b;
    auto transpose = [](Shape& s, const char* which) {
      if (s.size() != 2) fail(fmt::format("`transpose_{}` applies to a matrix; this operand has rank {}", which, s.size()),
                              "transpose only 2-D operands (PyTorch's `.T`)");
      std::swap(s[0], s[1]);
    };
    if (op.flag_or("transpose_self", false)) transpose(a, "self");
    if (op.flag_or("transpose_other", false)) transpose(b, "other");
    if (a.size() < 2 || b.size() < 2)
      fail(fmt::format("matmul operands here are matrices or batches of them; got {} and {}", show(a), show(b)),
           "give both operands at least 2 dims (a vector as [n, 1])");
    int64_t m = a[a.size() - 2], k = a.back(), k2 = b[b.size() - 2], n = b.back();
    if (k != k2) fail(fmt::format("inner extents differ: {} · {} ({} vs {})", show(a), show(b), k, k2),
                      "the left operand's last extent must equal the right one's second to last");
    Shape batch = broadcast(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
    a_.flops += 2.0 * volume(batch) * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    batch.push_back(m);
    batch.push_back(n);
    return batch;
  }

  Shape linear(const Op& op, Shape x) {
    int64_t in = x.back();
    int64_t out = static_cast<int64_t>(op.number_or("out_features", 0));
    if (out <= 0) fail("`out_features` must be ≥ 1", "give the layer's output width");
    a_.param_elements += static_cast<double>(in * out) + (op.flag_or("bias", true) ? static_cast<double>(out) : 0);
    a_.flops += 2.0 * volume(Shape(x.begin(), x.end() - 1)) * static_cast<double>(in) * static_cast<double>(out);
    x.back() = out;
    return x;
  }

  /// Reads a per-spatial-dim list key: `rank` values (a lone integer stands for all).
  Shape spatial(const Op& op, const std::string& key, size_t rank, int64_t fallback, int64_t min_value) {
    Shape v = op.ints_or(key, rank, fallback);
    if (v.size() != rank)
      fail(fmt::format("`{}` has {} values but the kernel has {} spatial dims", key, v.size(), rank),
           fmt::format("give `{}` one value per spatial dim", key));
    for (int64_t e : v)
      if (e < min_value) fail(fmt::format("`{}` = {} has a value below {}", key, show(v), min_value),
                              fmt::format("use values ≥ {}", min_value));
    return v;
  }

  Shape conv(const Op& op, const Shape& x) {
    bool transposed = op_form(op.kind) == OpForm::conv_transpose;
    const Attr* k = op.get("kernel");
    size_t rank = k && k->ints ? k->ints->size() : 0;
    if (rank < 1 || rank > 3) fail("`kernel` must list 1, 2 or 3 extents", "write e.g. `kernel = [3, 3]`");
    if (x.size() != rank + 2)
      fail(fmt::format("a {}-D convolution takes [N, C, {} spatial] values", rank, rank),
           "check the input's shape (PyTorch's NCHW order) or the kernel's rank");
    Shape kernel = spatial(op, "kernel", rank, 1, 1);
    Shape stride = spatial(op, "stride", rank, 1, 1);
    Shape pad = spatial(op, "padding", rank, 0, 0);
    Shape dil = spatial(op, "dilation", rank, 1, 1);
    Shape outpad = transposed ? spatial(op, "output_padding", rank, 0, 0) : Shape(rank, 0);
    int64_t n = x[0], cin = x[1];
    int64_t cout = static_cast<int64_t>(op.number_or("out_channels", 0));
    int64_t g = static_cast<int64_t>(op.number_or("groups", 1));
    if (cout <= 0 || g <= 0) fail("`out_channels` and `groups` must be ≥ 1", "give positive values");
    if (cin % g || cout % g)
      fail(fmt::format("{} input and {} output channels are not both divisible by groups = {}", cin, cout, g),
           "use a group count that divides both channel counts");
    Shape y{n, cout};
    for (size_t i = 0; i < rank; ++i) {
      int64_t in = x[i + 2], span = dil[i] * (kernel[i] - 1);
      int64_t out = transposed ? (in - 1) * stride[i] - 2 * pad[i] + span + outpad[i] + 1
                               : (in + 2 * pad[i] - span - 1) / stride[i] + 1;
      if (transposed && outpad[i] >= std::max(stride[i], dil[i]))
        fail(fmt::format("output_padding {} must be smaller than stride or dilation in dim {}", outpad[i], i),
             "PyTorch rejects it; lower `output_padding`");
      if (out < 1 || (!transposed && in + 2 * pad[i] - span - 1 < 0))
        fail(fmt::format("spatial dim {} ({} wide) is too small for the dilated kernel ({} with padding {})", i, in,
                         span + 1, pad[i]),
             "grow the input, pad it, or shrink the kernel");
      y.push_back(out);
    }
    double taps = volume(kernel);
    // weight: forward [Cout, Cin/g, k...], transposed [Cin, Cout/g, k...]
    double w0 = static_cast<double>(transposed ? cin : cout), w1 = static_cast<double>((transposed ? cout : cin) / g);
    a_.param_elements += w0 * w1 * taps + (op.flag_or("bias", true) ? static_cast<double>(cout) : 0);
    Shape counted = transposed ? x : y;  // FlopCounterMode: output positions, or input positions when transposed
    a_.flops += 2.0 * static_cast<double>(n) * volume(Shape(counted.begin() + 2, counted.end())) * taps * w0 * w1;
    return y;
  }

  Shape reduce(const Op& op, const Shape& x) {
    const Attr* d = op.get("dim");
    Shape dims;
    if (!d) for (size_t i = 0; i < x.size(); ++i) dims.push_back(static_cast<int64_t>(i));
    else if (d->ints) dims = *d->ints;
    else dims.push_back(static_cast<int64_t>(*d->number));
    std::vector<bool> reduced(x.size(), false);
    for (int64_t v : dims) {
      size_t i = dim_index(v, x.size());
      if (reduced[i]) fail(fmt::format("dim {} is listed twice", i), "name each dimension once");
      reduced[i] = true;
    }
    bool keep = op.flag_or("keepdim", false);
    Shape out;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!reduced[i]) out.push_back(x[i]);
      else if (keep) out.push_back(1);
    }
    return out;
  }

  Shape norm(const Op& op, const Shape& x) {
    OpForm f = op_form(op.kind);
    if (x.size() < 2 || x.size() > 5)
      fail(fmt::format("`{}` takes values of rank 2..5 with channels in dim 1", op_name(op.kind)),
           "check the shape the previous op produces");
    // A rank-2 value is a batch of vectors for batch/group norm, but one unbatched (C, L) sequence for
    // nn.InstanceNorm1d.
    int64_t c = f == OpForm::instance_norm && x.size() == 2 ? x[0] : x[1];
    if (f == OpForm::group_norm) {
      int64_t groups = static_cast<int64_t>(op.number_or("num_groups", 0));
      if (groups <= 0 || c % groups)
        fail(fmt::format("{} channels do not split into {} groups", c, groups), "use a group count that divides C");
    }
    bool affine = f != OpForm::instance_norm || op.flag_or("affine", false);
    if (affine) a_.param_elements += 2.0 * static_cast<double>(c);
    if (f == OpForm::batch_norm) a_.buffer_elements += 2.0 * static_cast<double>(c) + 1;  // running mean, var, count
    return x;
  }

  Shape layer_norm(const Op& op, const Shape& x) {
    const Shape& ns = *op.get("normalized_shape")->ints;
    if (ns.size() > x.size() || !std::equal(ns.begin(), ns.end(), x.end() - static_cast<long>(ns.size())))
      fail(fmt::format("normalized_shape {} is not the trailing extents of {}", show(ns), show(x)),
           "give the last extents of the value");
    a_.param_elements += 2.0 * volume(ns);
    return x;
  }

  Shape pool(const Op& op, const Shape& x) {
    size_t rank = op.get("kernel")->ints->size();
    // PyTorch pools batched [N, C, spatial...] and unbatched [C, spatial...] values alike.
    if (rank < 1 || rank > 3 || (x.size() != rank + 2 && x.size() != rank + 1))
      fail(fmt::format("a {}-D pool takes [N, C, {} spatial] or [C, {} spatial] values", rank, rank, rank),
           "check the kernel's rank");
    size_t lead = x.size() - rank;
    Shape kernel = spatial(op, "kernel", rank, 1, 1);
    Shape stride = op.get("stride") ? spatial(op, "stride", rank, 1, 1) : kernel;
    Shape pad = spatial(op, "padding", rank, 0, 0);
    Shape y(x.begin(), x.begin() + static_cast<long>(lead));
    for (size_t i = 0; i < rank; ++i) {
      int64_t in = x[lead + i];
      if (2 * pad[i] > kernel[i]) fail("padding may be at most half the kernel", "PyTorch rejects it; lower `padding`");
      int64_t out = (in + 2 * pad[i] - kernel[i]) / stride[i] + 1;
      if (in + 2 * pad[i] < kernel[i] || out < 1)
        fail(fmt::format("spatial dim {} ({} wide) is smaller than the pooling window {}", i, in, kernel[i]),
             "shrink the window");
      y.push_back(out);
    }
    return y;
  }

  /// torch.reshape: one extent may be -1 (inferred); the element count must not change.
  Shape reshape(const Op& op, const Shape& x) {
    Shape want = *op.get("shape")->ints;
    double known = 1;
    int inferred = -1;
    for (size_t i = 0; i < want.size(); ++i) {
      if (want[i] == -1 && inferred < 0) inferred = static_cast<int>(i);
      else if (want[i] <= 0) fail(fmt::format("reshape extent {} is invalid", want[i]), "use positive extents and at most one -1");
      else known *= static_cast<double>(want[i]);
    }
    double total = volume(x);
    if (inferred >= 0) want[static_cast<size_t>(inferred)] = static_cast<int64_t>(total / known);
    if (volume(want) != total)
      fail(fmt::format("{} elements cannot take the shape {}", total, show(*op.get("shape")->ints)),
           "give extents whose product is the value's element count");
    return want;
  }

  Shape adaptive_pool(const Op& op, const Shape& x) {
    const Shape& size = *op.get("output_size")->ints;
    if (x.size() != size.size() + 2)
      fail(fmt::format("output_size has {} extents but the value has {} spatial dims", size.size(),
                       x.size() < 2 ? 0 : x.size() - 2),
           "give one extent per spatial dim");
    Shape y{x[0], x[1]};
    for (int64_t e : size) {
      if (e < 1) fail("output_size extents must be ≥ 1", "use e.g. `output_size = [1, 1]`");
      y.push_back(e);
    }
    return y;
  }

  void check_audit() {
    if (!p_.kernelbench) return;
    const KernelBenchRef& kb = *p_.kernelbench;
    auto differs = [](double mine, double audited, double absolute) {
      return std::abs(mine - audited) > std::max(kAuditRelTolerance * audited, absolute);
    };
    double gflop = a_.flops / 1e9;
    if (kb.gflop && differs(gflop, *kb.gflop, 6e-4))  // the CSV rounds GFLOP to 3 decimals
      diags_.report(RuleId::S011, kb.gflop_span,
                    fmt::format("the chain performs {:.3f} GFLOP (FlopCounterMode's count) but the audit measured {}",
                                gflop, *kb.gflop),
                    "the chain probably differs from the source module: check shapes, kernel, stride, groups");
    double bytes = a_.min_bytes(4);  // the audit counts 4 bytes per element (the source problems are f32)
    if (kb.min_bytes && differs(bytes, *kb.min_bytes, 0))
      diags_.report(RuleId::S011, kb.bytes_span,
                    fmt::format("inputs, parameters, buffers and output hold {:.0f} bytes but the audit measured {:.0f}",
                                bytes, *kb.min_bytes),
                    "check the inputs' shapes, `bias` flags and parameter shapes against the source module");
  }
};

}  // namespace

std::optional<Analysis> analyze(const Problem& p, DiagEngine& diags) { return Analyzer(p, diags).run(); }

}  // namespace ucut::suite
