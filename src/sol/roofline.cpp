// sol/roofline.cpp — counts a GEMM problem's or a memory-bound kernel's FLOPs and minimum DRAM bytes and
// turns them into roofline bounds per precision (conventions in sol/roofline.h).
#include "sol/roofline.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "ir/expr.h"
#include "support/error.h"

namespace ucut::sol {
namespace {

double dtype_bytes(DType t) { return dtype_bits(t) / 8.0; }

void add_tensor(WorkCount& w, std::string name, TrafficRole role, DType t, double elements) {
  TensorTraffic tt{std::move(name), role, t, elements, elements * dtype_bytes(t)};
  w.bytes += tt.bytes;
  w.tensors.push_back(std::move(tt));
}

/// Arithmetic per output element of one stage: one for scalar, source, vector and activation stages, one per
/// operator or function of an `expr(...)`, one for a reduction (an add or a max per reduced element), none for
/// stores and casts.
int elementwise_flops(const EpiOp& op) {
  switch (epi_info(op.kind).category) {
    case EpiCategory::scalar:
    case EpiCategory::source:
    case EpiCategory::vector:
    case EpiCategory::activation:
    case EpiCategory::reduce: return 1;
    case EpiCategory::expr: {
      int n = 0;
      for (const ExprOp& o : op.expr->postfix) n += expr_info(o.code).arity > 0;  // operands count none
      return n;
    }
    case EpiCategory::aux:
    case EpiCategory::cast:
    case EpiCategory::store: return 0;
  }
  UC_UNREACHABLE() << "EpiCategory " << static_cast<int>(epi_info(op.kind).category);
}

Precision precision_of(DType t, MathMode math) {
  switch (t) {
    case DType::f64: return Precision::fp64_tensor;
    case DType::f32: return math == MathMode::native ? Precision::fp32 : Precision::tf32;
    case DType::tf32: return Precision::tf32;
    case DType::f16: return Precision::fp16;
    case DType::bf16: return Precision::bf16;
    case DType::e4m3:
    case DType::e5m2: return Precision::fp8;
    case DType::i8:
    case DType::i32: return Precision::int8;
  }
  UC_UNREACHABLE() << "DType " << static_cast<int>(t);
}

std::optional<Bound> peak_bound(const GpuSpec& gpu, const WorkCount& w, Precision p, std::optional<double> clock) {
  auto peak = effective_peak_tflops(gpu, p, clock);
  if (!peak) return std::nullopt;
  return roofline(w, p, *peak, gpu.bandwidth_tbs);
}

/// Extent `e` of tensor `t` at `sizes`.
double extent_size(const TensorDecl& t, const Extent& e, const ExtentSizes& sizes) {
  if (e.fixed()) return double(e.size);
  auto it = sizes.find(e.symbol);
  if (it == sizes.end())
    throw std::invalid_argument(
        fmt::format("tensor `{}` has extent `{}`, which the sizes do not give", t.name.value, e.symbol));
  return double(it->second);
}

/// Elements of `t` at `sizes`: the product of its extents.
double elements_of(const TensorDecl& t, const ExtentSizes& sizes) {
  double n = 1;
  for (const Extent& e : t.dims) n *= extent_size(t, e, sizes);
  return n;
}

/// The sums a GEMM shape's work and traffic are made of, over its GEMMs (a batch's L equal ones, a grouped GEMM's
/// problems): m·n·k, and the element counts of A (m·k), B (k·n), an output (m·n), a row vector (m), a column
/// vector (n).
struct GemmSums {
  double mnk = 0, mk = 0, kn = 0, mn = 0, m = 0, n = 0;
  void add(double m_, double n_, double k_, double count) {
    mnk += count * m_ * n_ * k_;
    mk += count * m_ * k_;
    kn += count * k_ * n_;
    mn += count * m_ * n_;
    m += count * m_;
    n += count * n_;
  }
};

GemmSums gemm_sums(const GemmShape& s) {
  GemmSums t;
  if (s.is_grouped())
    for (const GroupProblem& p : s.groups) t.add(double(p.m), double(p.n), double(p.k), 1);
  else
    t.add(double(s.m), double(s.n), double(s.k), double(s.batch > 0 ? s.batch : 1));
  return t;
}

}  // namespace

WorkCount count_work(const KernelConfig& k, const GemmShape& s) {
  WorkCount w;
  const GemmSums t = gemm_sums(s);
  // A convolution counts every filter tap (padding included, as PyTorch's FLOP counters do: ConvShape::macs, over
  // each group's channels); its operands and output are each read or written once at the roofline's ideal reuse.
  w.gemm_flops = s.is_conv() ? 2.0 * double(s.conv.macs()) : 2.0 * t.mnk;
  double a_elems = s.is_conv() ? double(s.conv.a_elements()) : t.mk;
  double b_elems = s.is_conv() ? double(s.conv.b_elements()) : t.kn;
  // Operands are read as the caller passes them: a `from(T)` operand in T.
  add_tensor(w, k.a.name.value.empty() ? "A" : k.a.name.value, TrafficRole::read, k.a.caller_dtype(),
             a_elems);
  add_tensor(w, k.b.name.value.empty() ? "B" : k.b.name.value, TrafficRole::read, k.b.caller_dtype(),
             b_elems);
  for (const EpiOp& op : k.epilogue) {
    w.epilogue_flops += elementwise_flops(op) * t.mn;
    const EpiOpInfo& info = epi_info(op.kind);
    switch (info.category) {
      case EpiCategory::source:
        if (op.tensor) add_tensor(w, op.tensor->name.value, TrafficRole::read, op.tensor->dtype.value, t.mn);
        break;
      case EpiCategory::vector:
        add_tensor(w, std::string(info.name), TrafficRole::read, op.dtype.value,
                   op.axis.value == Axis::col ? t.n : t.m);
        break;
      case EpiCategory::aux:
      case EpiCategory::store:
        if (op.tensor) add_tensor(w, op.tensor->name.value, TrafficRole::write, op.tensor->dtype.value, t.mn);
        break;
      case EpiCategory::reduce:  // one value per row m or column n (per batch)
        if (op.tensor)
          add_tensor(w, op.tensor->name.value, TrafficRole::write, op.tensor->dtype.value,
                     reduction_axis(op.kind) == Axis::row ? t.m : t.n);
        break;
      default: break;
    }
  }
  return w;
}

namespace {

/// A family stage's share of its pipeline's work: its FLOPs, and the bytes of what crosses the pipeline's boundary
/// (inputs the caller passes, vectors, and the output when no later stage reads it), at the shape's symbols.
void add_family_stage(WorkCount& w, const PipelineConfig& p, size_t s, const GemmShape& shape) {
  const PipelineStage& st = p.stages[s];
  const MemOpConfig& m = *st.family;
  WorkCount ws = count_work(m, shape.symbols);
  w.gemm_flops += ws.gemm_flops;
  w.epilogue_flops += ws.epilogue_flops;
  // count_work lists the inputs in order, then the chain's tensors, the store last.
  for (size_t at = 0; at < ws.tensors.size(); ++at) {
    const TensorTraffic& t = ws.tensors[at];
    bool linked = std::any_of(st.links.begin(), st.links.end(), [&](const FamilyLink& l) { return l.input == at; });
    if (at < m.inputs.size() && linked) continue;
    if (at + 1 == ws.tensors.size() && p.intermediate(s)) continue;
    add_tensor(w, st.name().value + "." + t.name, t.role, t.dtype, t.elements);
  }
}

}  // namespace

WorkCount count_pipeline_work(const PipelineConfig& p, const GemmShape& shape) {
  WorkCount w;
  for (size_t s = 0; s < p.stages.size() && s < shape.stages.size(); ++s) {
    const PipelineStage& st = p.stages[s];
    if (st.is_family()) {
      add_family_stage(w, p, s, shape);
      continue;
    }
    WorkCount ws = count_work(st.config, shape.stages[s]);
    w.gemm_flops += ws.gemm_flops;
    w.epilogue_flops += ws.epilogue_flops;
    // count_work lists A, then B, then the chain's tensors, the store last.
    for (size_t at = 0; at < ws.tensors.size(); ++at) {
      const TensorTraffic& t = ws.tensors[at];
      if (at < 2 && st.inputs[at].linked()) continue;
      if (at + 1 == ws.tensors.size() && p.intermediate(s)) continue;
      DType read_as = at < 2 && st.inputs[at].converted() ? *st.inputs[at].caller_dtype : t.dtype;
      add_tensor(w, st.config.name.value + "." + t.name, t.role, read_as, t.elements);
    }
  }
  return w;
}

WorkCount count_work(const MemOpConfig& m, const ExtentSizes& sizes) {
  WorkCount w;
  for (const TensorDecl& t : m.inputs)
    add_tensor(w, t.name.value, TrafficRole::read, t.caller_dtype(), elements_of(t, sizes));
  if (m.op.value == OpKind::attention) {  // Q·Kᵀ and P·V on tensor cores: 2·N·D and 2·N·E per query row
    const double n = extent_size(m.inputs[1], attention_extents(m).n, sizes);
    w.gemm_flops += 2 * n * (elements_of(m.inputs[0], sizes) + elements_of(m.output(), sizes));
  }
  const double outputs = elements_of(m.output(), sizes);
  for (const EpiOp& op : m.chain) {
    w.epilogue_flops += elementwise_flops(op) * outputs;
    if (!op.tensor) continue;
    switch (epi_info(op.kind).category) {
      case EpiCategory::source:
        add_tensor(w, op.tensor->name.value, TrafficRole::read, op.tensor->dtype.value,
                   elements_of(*op.tensor, sizes));
        break;
      case EpiCategory::aux:
      case EpiCategory::store:
        add_tensor(w, op.tensor->name.value, TrafficRole::write, op.tensor->dtype.value,
                   elements_of(*op.tensor, sizes));
        break;
      default:
        break;
    }
  }
  // A library call's other outputs (a topk's indices, an fft's imaginary part): written once each, after its store.
  const std::vector<const TensorDecl*> outs = m.outputs();
  for (size_t o = 1; o < outs.size(); ++o)
    add_tensor(w, outs[o]->name.value, TrafficRole::write, outs[o]->dtype.value, elements_of(*outs[o], sizes));
  return w;
}

Precision kernel_precision(const KernelConfig& k) {
  const TensorDecl& wider = dtype_bits(k.b.dtype.value) > dtype_bits(k.a.dtype.value) ? k.b : k.a;
  return precision_of(wider.dtype.value, k.math.value);
}

std::string_view peak_basis_name(PeakBasis b) { return b == PeakBasis::datasheet ? "datasheet" : "clock_scaled"; }

double clock_scale(const GpuSpec& gpu, std::optional<double> clock_mhz) {
  if (!clock_mhz) return 1.0;
  if (!(*clock_mhz > 0)) throw std::invalid_argument(fmt::format("clock {} MHz is not positive", *clock_mhz));
  return *clock_mhz / gpu.boost_clock_mhz;
}

std::optional<double> effective_peak_tflops(const GpuSpec& gpu, Precision p, std::optional<double> clock_mhz) {
  std::optional<double> peak = gpu.peak_tflops(p);
  if (!peak && p == Precision::fp64_tensor) peak = gpu.fp64;
  if (!peak) return std::nullopt;
  return *peak * clock_scale(gpu, clock_mhz);
}

Bound roofline(const WorkCount& work, Precision p, double peak_tflops, double bandwidth_tbs) {
  if (!(peak_tflops > 0) || !(bandwidth_tbs > 0))
    throw std::invalid_argument(fmt::format("roofline needs a positive peak and bandwidth ({} TF/s, {} TB/s)",
                                            peak_tflops, bandwidth_tbs));
  Bound b;
  b.precision = p;
  b.peak_tflops = peak_tflops;
  b.bandwidth_tbs = bandwidth_tbs;
  b.t_compute_s = work.flops() / (peak_tflops * 1e12);
  b.t_memory_s = work.bytes / (bandwidth_tbs * 1e12);
  b.ridge = peak_tflops / bandwidth_tbs;
  return b;
}

std::optional<Bound> achievable_bound(const std::optional<Calibration>& c, const WorkCount& w, Precision p,
                                      const std::optional<Bound>& datasheet) {
  if (!c) return std::nullopt;
  std::optional<Bound> b;
  if (auto it = c->gemm_tflops.find(p); it != c->gemm_tflops.end()) {
    b = roofline(w, p, it->second, c->copy_bandwidth_tbs);
  } else if (datasheet && datasheet->kind() == BoundKind::memory) {
    b.emplace();
    b->precision = p;
    b->bandwidth_tbs = c->copy_bandwidth_tbs;
    b->t_memory_s = w.bytes / (c->copy_bandwidth_tbs * 1e12);
  } else {
    return std::nullopt;
  }
  if (auto floor_us = c->latency_floor_us()) b->t_floor_s = *floor_us * 1e-6;
  return b;
}

namespace {

SolReport sol_report_of(const GpuSpec& gpu, std::string name, Precision precision,
                        const std::vector<GemmShape>& shapes, const SolOptions& options,
                        const std::function<WorkCount(const GemmShape&)>& work) {
  SolReport r;
  r.problem = std::move(name);
  r.gpu_key = gpu.key;
  r.gpu_name = gpu.name;
  r.basis = options.clock_mhz ? PeakBasis::clock_scaled : PeakBasis::datasheet;
  r.clock_scale = clock_scale(gpu, options.clock_mhz);
  r.clock_mhz = options.clock_mhz.value_or(gpu.boost_clock_mhz);
  r.bandwidth_tbs = gpu.bandwidth_tbs;
  r.precision = options.precision.value_or(precision);
  r.precision_overridden = options.precision.has_value();
  r.calibration = options.calibration;
  for (const GemmShape& s : shapes) {
    ShapeSol ss;
    ss.shape = s;
    ss.work = work(s);
    auto pair = [&](Precision p) {
      std::optional<Bound> peak = peak_bound(gpu, ss.work, p, options.clock_mhz);
      return BoundPair{peak, achievable_bound(options.calibration, ss.work, p, peak)};
    };
    ss.tf32 = pair(Precision::tf32);
    ss.fp16 = pair(Precision::fp16);
    ss.kernel = pair(r.precision);
    r.shapes.push_back(std::move(ss));
  }
  return r;
}

}  // namespace

SolReport sol_report(const GpuSpec& gpu, const KernelConfig& k, const std::vector<GemmShape>& shapes,
                     const SolOptions& options) {
  return sol_report_of(gpu, k.name.value, kernel_precision(k), shapes, options,
                       [&](const GemmShape& s) { return count_work(k, s); });
}

SolReport sol_report(const GpuSpec& gpu, const PipelineConfig& p, const std::vector<GemmShape>& shapes,
                     const SolOptions& options) {
  auto matmul = std::find_if(p.stages.begin(), p.stages.end(), [](const PipelineStage& s) { return !s.is_family(); });
  const KernelConfig& first = matmul == p.stages.end() ? p.stages.front().config : matmul->config;
  return sol_report_of(gpu, p.name.value, kernel_precision(first), shapes, options,
                       [&](const GemmShape& s) { return count_pipeline_work(p, s); });
}

double gap(double t_measured_s, double t_sol_s) {
  if (!(t_sol_s > 0) || !(t_measured_s >= 0))
    throw std::invalid_argument(
        fmt::format("gap needs t_SOL > 0 and t_measured >= 0 (got {} s and {} s)", t_sol_s, t_measured_s));
  return t_measured_s / t_sol_s;
}

bool faster_than_bound(double t_measured_s, const Bound& bound) { return t_measured_s < bound.t_sol_s(); }

bool within_sol(double t_best_s, double t_sol_s, double epsilon) { return t_best_s <= (1.0 + epsilon) * t_sol_s; }

}  // namespace ucut::sol
