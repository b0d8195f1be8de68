// eval/worker/measure_pipeline.cpp — see measure_pipeline.h. Order per shape, as for one kernel: inputs →
// reference → candidate (candidate_run.h) → baseline. The reference runs stage by stage with the reference
// epilogue (the request's `reference` choice does not apply), its accumulator as measure_common.h's
// reference_accumulate computes it (GEMMs in FP32 on cuBLAS, convolutions directly in FP64): a stage reads a
// caller's operand converted to float and rounded to the stage's operand type (the pipeline's conversion is part of
// its meaning), and an earlier stage's reference output rounded to that stage's D type (as the pipeline stores the
// intermediate). A convolution's activation and the convolution output it reads are one packed channels-last
// tensor, its [pixels, channels] matrix the same for both: a link is the same copy for GEMMs and convolutions.
// A pipeline with a memory-bound family stage is verified stage by stage: the pipeline writes every output a family
// stage reads into a buffer of the harness's (ABI v7), and each is compared on its own. A GEMM or convolution
// output against the reference chain above (with its accumulation term); a family stage's output against its host
// reference (eval/memop_reference.h, FP64) on exactly what the stage read — its caller inputs (drawn signed uniform,
// as vectors are) and the producers' outputs as the candidate stored them — with the stage's own f32 summation
// allowance (a reduction's). So an ill-conditioned stage (a softmax after a long GEMM) is judged on its own error,
// not on the GEMM's rounding that it amplifies, and every stage is still checked. Such a pipeline has no
// separate-calls baseline: no vendor library computes the family stage.
#include "eval/worker/measure_pipeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "eval/memop_reference.h"
#include "eval/worker/candidate_run.h"
#include "eval/worker/cublas_baseline.h"
#include "eval/worker/cudnn_baseline.h"
#include "eval/worker/device_ops.h"
#include "eval/worker/error_bound.h"
#include "eval/worker/operand_geometry.h"
#include "eval/worker/operand_set.h"
#include "problem/family_call.h"

namespace ucut::worker {
namespace {

constexpr uint64_t kStageSeedStride = 16;  // above every seed offset of one kernel's operands (make_operand_set)

/// An operand read from an earlier stage must be that stage's D: of a GEMM, the same [batch, rows, columns]; of a
/// convolution, the same tensor (a convolution stage reads only its activation from a stage: pipeline_desc.h).
void check_link(const PipelineDesc& pl, const std::vector<OperandGeometry>& g, size_t s, const StageInput& in,
                const MatrixView& v, const char* operand) {
  if (!in.linked()) return;
  const OperandGeometry& from = g[static_cast<size_t>(in.producer)];
  if (g[s].is_conv()) {
    std::string why = conv_link_mismatch(pl, s, from.conv, g[s].conv);
    if (!why.empty()) throw std::runtime_error(why);
    return;
  }
  const Extents& d = from.e;
  if (v.batch != d.batch || v.rows != d.m || v.cols != d.n)
    throw std::runtime_error(fmt::format(
        "{}: its {} is [{}, {}, {}] (batch, rows, columns) at the request's shape, but it reads {}'s D, which is "
        "[{}, {}, {}]",
        pl.stage_label(s), operand, v.batch, v.rows, v.cols, pl.stage_label(static_cast<size_t>(in.producer)),
        d.batch, d.m, d.n));
}

/// Stage s's shape must be of its operator's kind: a convolution's geometry, or a GEMM's m, n, k and batch.
void check_stage_shape(const PipelineDesc& pl, size_t s, const GemmShape& st) {
  bool conv = op_family(pl.stages[s].problem.op) == OpFamily::conv;
  if (st.is_grouped() || st.is_pipeline() || st.is_conv() != conv)
    throw std::runtime_error(pl.stage_label(s) + (conv ? ": a convolution stage's shape is its convolution geometry"
                                                       : ": a GEMM stage's shape is a GEMM's m, n, k and batch"));
}

/// Each stage's operands at the request's shape (one GEMM or convolution per stage).
std::vector<OperandGeometry> stage_geometries(const PipelineDesc& pl, const GemmShape& shape) {
  if (shape.stages.size() != pl.stages.size())
    throw std::runtime_error(fmt::format("the request's shape{} has {} stage shapes, but the pipeline `{}` has {} stages",
                                         shape.label.empty() ? "" : " `" + shape.label + "`", shape.stages.size(),
                                         pl.name, pl.stages.size()));
  std::vector<OperandGeometry> g;
  for (size_t s = 0; s < pl.stages.size(); ++s) {
    const GemmShape& st = shape.stages[s];
    if (pl.stages[s].is_family()) {  // no GEMM: its call follows from the shape's symbols (family_calls)
      g.emplace_back();
      continue;
    }
    check_stage_shape(pl, s, st);
    try {
      g.push_back(operand_geometry(pl.stages[s].problem, st));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(pl.stage_label(s) + ": " + e.what());
    }
    check_link(pl, g, s, pl.stages[s].a, g[s].a, "A");
    check_link(pl, g, s, pl.stages[s].b, g[s].b, "B");
  }
  return g;
}

/// "mlp_block 4096x11008x4096 > 4096x4096x11008"
std::string shape_text(const PipelineDesc& pl, const std::vector<OperandGeometry>& g) {
  std::vector<std::string> stages;
  for (size_t s = 0; s < g.size(); ++s)
    stages.push_back(pl.stages[s].is_family() ? pl.stages[s].family->op : extents_text(g[s].e));
  return fmt::format("{} {}", pl.name, fmt::join(stages, " > "));
}

/// Each family stage's call at the request's shape (nullopt at a GEMM or convolution stage); throws naming the stage
/// when the shape leaves out a symbol or scalar it needs.
std::vector<std::optional<FamilyCall>> family_calls(const PipelineDesc& pl, const GemmShape& shape) {
  std::vector<std::optional<FamilyCall>> calls(pl.stages.size());
  for (size_t s = 0; s < pl.stages.size(); ++s) {
    if (!pl.stages[s].is_family()) continue;
    const FamilyStage& f = *pl.stages[s].family;
    if (!f.memop) throw std::runtime_error(pl.stage_label(s) + ": no kernel was lowered for the family stage");
    if (std::string why = memop_reference_unsupported(*f.memop); !why.empty())
      throw std::runtime_error(pl.stage_label(s) + ": " + why);
    FamilyCall call = family_call(*f.memop, shape.symbols, shape.scalars);
    if (!call.ok()) throw std::runtime_error(pl.stage_label(s) + ": the request's shape " + call.error);
    if (f.memop->outputs().size() != 1)
      throw std::runtime_error(pl.stage_label(s) + ": a pipeline's family stage has one output");
    calls[s] = std::move(call);
  }
  return calls;
}

/// The elements of a family stage's output at the shape's symbols.
int64_t family_output_elements(const MemOpConfig& m, const GemmShape& shape) {
  int64_t n = 1;
  for (const Extent& e : m.output().dims) n *= e.fixed() ? e.size : shape.symbols.at(e.symbol);
  return n;
}

/// A GEMM or convolution output's reference (row-major [batch, rows, cols] floats) in the memory order of its
/// stored layout, as a family stage reads the stored tensor: column-major swaps rows and columns in each batch.
std::vector<double> in_memory_order(const std::vector<float>& row_major, Layout layout, const Extents& e) {
  std::vector<double> out(row_major.begin(), row_major.end());
  if (layout != Layout::col) return out;
  for (int64_t b = 0; b < e.batch; ++b)
    for (int64_t i = 0; i < e.m; ++i)
      for (int64_t j = 0; j < e.n; ++j) out[(b * e.n + j) * e.m + i] = row_major[(b * e.m + i) * e.n + j];
  return out;
}

/// One seeded set of the caller's inputs, with each checked output's reference on the host (row-major float).
struct PipelineInputSet {
  std::vector<OperandSet> stages;  // per stage: the caller's A and B (absent where linked), C, vectors
  /// Per family stage, per caller input (caller_inputs order; empty where the pipeline binds it): the device tensor
  /// the candidate reads and the same values on the host, for the reference.
  std::vector<std::vector<DeviceBuffer>> family;
  std::vector<std::vector<std::vector<double>>> family_host;
  /// Per checked output (PipelineRun::checked_ order): its reference — a GEMM's or convolution's from the reference
  /// chain, a family stage's as last computed on what the candidate's stage read — and the bound of its tolerance's
  /// accumulation term (Σ|a||b|; a family reduction's summation allowance; empty for none).
  std::vector<std::vector<float>> ref;
  std::vector<std::vector<float>> bound;
};

/// A stage's reference in float (row-major): its operands as it reads them, its accumulator and its output.
struct StageFloats {
  DeviceBuffer a, b, c, acc, out;
  DeviceBuffer abs_acc;  // Σ|a||b|: the last stage's, and every convolution's (its reference computes it anyway)
  std::vector<DeviceBuffer> vectors;
};

/// A stage of the baseline: its converted operands (where the caller's need a conversion), its D where we own it,
/// the D that the stages after it read, and its launch on the operands it reads (the input set's, converted or
/// linked).
struct BaselineStage {
  DeviceBuffer a, b, d;
  const void* out = nullptr;
  std::function<void(const OperandSet& ops, const void* a, const void* b)> launch;
};

class PipelineRun final : public CandidateSubject {
 public:
  PipelineRun(const DeviceContext& ctx, const WorkerRequest& req, const PipelineDesc& pl,
              const PipelineCandidate& cand, const GemmShape& shape)
      : ctx_(ctx),
        req_(req),
        pl_(pl),
        cand_(cand),
        g_(stage_geometries(pl, shape)),
        calls_(family_calls(pl, shape)),
        clock_(shape_text(pl, g_)),
        s_(ctx.stream),
        checked_(checked_stages()) {
    r_.shape = shape;
  }

  ShapeResult run() {
    clock_.progress("inputs");
    make_inputs();
    if (req_.mode == WorkerMode::profile) return profile();
    clock_.progress("reference");
    make_references();
    if (cand_.library) {
      clock_.progress("candidate");
      std::vector<ucut_pipeline_args> args;
      for (size_t i = 0; i < sets_.size(); ++i) args.push_back(args_for(i));
      run_candidate(cand_.library->api(), std::move(args), *this, {s_, ctx_.l2_bytes, timing_plan(req_), ctx_.activity}, r_);
    }
    if (req_.time_cublas && pl_.has_family_stage()) {
      r_.cublas_error = family_baseline_note();
    } else if (req_.time_cublas) {
      r_.baseline_library = conv() ? VendorLibrary::cudnn : VendorLibrary::cublas;
      clock_.progress(std::string(enum_name(r_.baseline_library)).c_str());
      if (conv())
        run_baseline(r_.cublas, r_.cublas_error, [&] { run_cudnn(); });
      else
        run_baseline(r_.cublas, r_.cublas_error, [&] { run_cublas(); });
    }
    r_.seconds = clock_.elapsed();
    clock_.progress("done");
    return r_;
  }

 private:
  /// Mode "profile": the candidate once on input set 0, in the profiler's range (candidate_run.h).
  ShapeResult profile() {
    if (cand_.library) {
      clock_.progress("profile");
      profile_candidate(cand_.library->api(), args_for(0), s_, r_);
    }
    r_.seconds = clock_.elapsed();
    clock_.progress("done");
    return r_;
  }

  size_t stages() const { return pl_.stages.size(); }
  bool family_stage(size_t s) const { return pl_.stages[s].is_family(); }
  const MemOpConfig& memop(size_t s) const { return *pl_.stages[s].family->memop; }

  /// Why a pipeline with a family stage has no baseline (docs/harness.md): cuBLASLt and cuDNN compute its GEMMs and
  /// convolutions, but no vendor library call computes a family stage, and the harness does not stand one in.
  std::string family_baseline_note() const {
    std::vector<std::string> names;
    for (size_t s = 0; s < stages(); ++s)
      if (family_stage(s)) names.push_back(fmt::format("`{}` ({})", stage(s).name, stage(s).family->op));
    return fmt::format("no separate-calls baseline: the family stage{} {} {} no vendor library call", names.size() > 1 ? "s" : "",
                       fmt::join(names, ", "), names.size() > 1 ? "have" : "has");
  }
  bool conv() const { return pl_.family() == OpFamily::conv; }
  const PipelineStage& stage(size_t s) const { return pl_.stages[s]; }

  /// The stages whose outputs are compared, in stage order: the last one, and, when the pipeline has a family stage,
  /// every stage whose output a family stage reads (the pipeline writes those into inter_).
  std::vector<size_t> checked_stages() const {
    std::vector<bool> read_by_family(stages(), false);
    for (size_t s = 0; s < stages(); ++s)
      if (family_stage(s))
        for (const FamilyInput& l : stage(s).family->links) read_by_family[static_cast<size_t>(l.producer)] = true;
    std::vector<size_t> out;
    for (size_t s = 0; s + 1 < stages(); ++s)
      if (read_by_family[s]) out.push_back(s);
    out.push_back(stages() - 1);
    return out;
  }
  bool checked(size_t s) const { return std::find(checked_.begin(), checked_.end(), s) != checked_.end(); }

  /// The tolerance of GEMM or convolution stage `upto`'s output: the request's with the accumulation term of the
  /// GEMM and convolution stages up to it (error_bound.h's pipeline_acc_eps).
  Tolerance stage_tolerance(size_t upto) const {
    std::vector<StageError> terms;
    for (size_t s = 0; s <= upto; ++s) {
      if (family_stage(s)) continue;  // its reference is FP64 on its inputs as stored: no accumulation term of its own
      const PipelineStage& st = stage(s);
      StageError e;
      e.k = g_[s].e.k;
      e.gain = chain_gain(st.problem, st.problem.chain.count);
      for (const StageInput* in : {&st.a, &st.b})
        if (in->linked()) {
          e.read_roundoff += operand_roundoff(stage(static_cast<size_t>(in->producer)).problem.d.dtype, st.problem.math);
          e.producers.push_back(in->producer);
        }
      terms.push_back(e);
    }
    Tolerance tol = req_.tolerance;
    tol.acc_eps = pipeline_acc_eps(terms);
    return tol;
  }

  void make_inputs() {
    for (int i = 0; i < input_set_count(req_); ++i) {
      InputSeed seed = input_seed(req_, i);
      PipelineInputSet set;
      set.family.resize(stages());
      set.family_host.resize(stages());
      for (size_t s = 0; s < stages(); ++s) {
        const PipelineStage& st = stage(s);
        InputSeed family_seed = seed;
        family_seed.seed += kStageSeedStride * s;
        if (family_stage(s)) {
          make_family_inputs(s, family_seed, set);
          set.stages.emplace_back();
          continue;
        }
        auto caller = [&](const StageInput& in) -> std::optional<DType> {
          if (in.linked()) return std::nullopt;
          return fill_type(in.caller_dtype, st.problem.math);
        };
        InputSeed stage_seed = seed;  // stage 0: a kernel's seeds
        stage_seed.seed += kStageSeedStride * s;
        set.stages.push_back(make_operand_set(st.problem, g_[s], caller(st.a), caller(st.b), stage_seed, s_));
      }
      sets_.push_back(std::move(set));
    }
    // The pipeline's output, a buffer for each checked intermediate, and scratch for reading back the largest.
    const size_t last = stages() - 1;
    d_ = DeviceBuffer(bytes_of(stage_dtype(last), stage_elements(last)));
    inter_.resize(stages());
    int64_t largest = 0;
    for (size_t s : checked_) {
      if (s != last) inter_[s] = DeviceBuffer(bytes_of(stage_dtype(s), stage_elements(s)));
      largest = std::max(largest, stage_elements(s));
    }
    scratch_ = DeviceBuffer(sizeof(float) * static_cast<size_t>(largest));
  }

  /// Stage s's output: its type and elements (a GEMM's or convolution's D, a family stage's output).
  DType stage_dtype(size_t s) const { return family_stage(s) ? memop(s).output().dtype.value : stage(s).problem.d.dtype; }
  int64_t stage_elements(size_t s) const {
    return family_stage(s) ? family_output_elements(memop(s), r_.shape) : g_[s].d_elements;
  }
  /// Where stage s's output lands: the pipeline's output, a checked intermediate's buffer, or null (the workspace).
  void* stage_output(size_t s) const { return s + 1 == stages() ? d_.get() : inter_[s].get(); }

  /// Family stage s's caller inputs the pipeline does not bind: each drawn signed uniform in its type (fill_random's
  /// distribution 0, as the epilogue vectors are), with its values on the host.
  void make_family_inputs(size_t s, const InputSeed& seed, PipelineInputSet& set) {
    const FamilyCall& call = *calls_[s];
    std::vector<CallerTensor> callers = memop(s).caller_inputs();
    for (size_t c = 0; c < callers.size(); ++c) {
      set.family[s].emplace_back();
      set.family_host[s].emplace_back();
      if (stage(s).family->link_of(c)) continue;
      const DType t = callers[c].dtype.value;
      const int64_t n = call.input_elements(c);
      DeviceBuffer buf(bytes_of(t, n));
      fill_random(buf.get(), t, n, seed.seed + 1 + c, 0, s_);
      DeviceBuffer f(sizeof(float) * static_cast<size_t>(n));
      to_float_row_major(buf.get(), t, Layout::row, 1, 1, n, f.as<float>(), s_);
      std::vector<float> host = download(f.as<float>(), n, s_);
      set.family_host[s].back().assign(host.begin(), host.end());
      set.family[s].back() = std::move(buf);
    }
  }

  void make_references() {
    r_.reference_kind = conv() ? ReferenceKind::direct_f64 : ReferenceKind::cublas_f32;
    std::vector<StageFloats> f(stages());
    auto floats = [](int64_t n) { return DeviceBuffer(sizeof(float) * static_cast<size_t>(n)); };
    for (size_t s = 0; s < stages(); ++s) {
      if (family_stage(s)) continue;  // its reference runs on the host (reference_family)
      const ProblemDesc& p = stage(s).problem;
      const OperandGeometry& g = g_[s];
      f[s].a = floats(g.a.elements());
      f[s].b = floats(g.b.elements());
      if (p.has_residual) f[s].c = floats(g.d_elements);
      f[s].acc = floats(g.d_elements);
      f[s].out = floats(g.d_elements);
      if (checked(s) || g.is_conv()) f[s].abs_acc = floats(g.d_elements);
      for (const VectorSlot& v : p.vectors) f[s].vectors.push_back(floats(g.vector_len(v)));
    }
    for (PipelineInputSet& set : sets_) {
      for (size_t s = 0; s < stages(); ++s)
        if (!family_stage(s)) reference_stage(set.stages[s], s, f);
      set.ref.resize(checked_.size());
      set.bound.resize(checked_.size());
      for (size_t o = 0; o < checked_.size(); ++o) {
        const size_t s = checked_[o];
        if (family_stage(s)) continue;  // computed on what the candidate's stage read (family_reference)
        set.ref[o] = download(f[s].out.as<float>(), g_[s].d_elements, s_);
        set.bound[o] = download(f[s].abs_acc.as<float>(), g_[s].d_elements, s_);
      }
    }
  }

  /// Family stage s's reference on the host for input set `set`: each input the pipeline binds is its producer's
  /// output as the candidate stored it (`as_read`, memory order: a view reads the same memory); the others are the
  /// set's draws.
  MemOpReference family_reference(const PipelineInputSet& set, size_t s,
                                  const std::vector<std::vector<double>>& as_read) const {
    const FamilyStage& fam = *stage(s).family;
    const FamilyCall& call = *calls_[s];
    MemOpHostArgs args;
    for (size_t c = 0; c < call.inputs.size(); ++c) {
      const FamilyInput* l = fam.link_of(c);
      if (!l) {
        args.inputs.emplace_back(set.family_host[s][c]);
        continue;
      }
      const size_t p = static_cast<size_t>(l->producer);
      if (static_cast<int64_t>(as_read[p].size()) != call.input_elements(c))
        throw std::runtime_error(fmt::format(
            "{}: its input {} reads {}'s output of {} elements, but has {} at the request's shape", pl_.stage_label(s),
            fam.memop->caller_inputs()[c].name, pl_.stage_label(p), as_read[p].size(), call.input_elements(c)));
      args.inputs.emplace_back(as_read[p]);
    }
    args.scalars = call.scalars;
    args.extents = call.extents;
    MemOpReference ref = memop_reference(*fam.memop, args, OutputRounding::declared_type);
    if (!ref.ok()) throw std::runtime_error(pl_.stage_label(s) + ": its reference: " + ref.error);
    return ref;
  }

  /// Stage s of one input set's reference, into f[s]: the accumulator of its operands (and their Σ|a||b| where
  /// f[s] has room), then its chain; an intermediate's output rounded to its D type, as the stages after it read it.
  void reference_stage(const OperandSet& ops, size_t s, std::vector<StageFloats>& f) {
    const PipelineStage& st = stage(s);
    const ProblemDesc& p = st.problem;
    const OperandGeometry& g = g_[s];
    StageFloats& x = f[s];
    operand_to_float(ops.a, st.a, p.a, g.a, f, x.a.as<float>());
    operand_to_float(ops.b, st.b, p.b, g.b, f, x.b.as<float>());
    reference_accumulate(ctx_.blas, g, x.a.as<float>(), x.b.as<float>(), x.acc.as<float>(), x.abs_acc.as<float>(), s_);
    RefInputs in;
    if (p.has_residual) {
      to_float_row_major(ops.c.get(), p.c.dtype, p.c.layout, g.e.batch, g.e.m, g.e.n, x.c.as<float>(), s_);
      in.c = x.c.as<float>();
    }
    for (size_t j = 0; j < p.vectors.size(); ++j) {
      to_float_row_major(ops.vectors[j].get(), p.vectors[j].dtype, Layout::row, 1, 1, g.vector_len(p.vectors[j]),
                         x.vectors[j].as<float>(), s_);
      in.vectors[j] = x.vectors[j].as<float>();
    }
    for (size_t j = 0; j < p.scalars.size(); ++j) in.scalars[j] = p.scalars[j];
    apply_chain_gpu(p.chain, in, x.acc.as<float>(), x.out.as<float>(), g.e, s_);
    if (s + 1 < stages()) round_to(x.out.as<float>(), p.d.dtype, g.d_elements, s_);
  }

  /// dst ← an operand as its stage reads it, row-major float: an earlier stage's (rounded) output, or the caller's
  /// tensor converted to the stage's operand type `o`.
  void operand_to_float(const DeviceBuffer& caller, const StageInput& in, const Operand& o, const MatrixView& v,
                        const std::vector<StageFloats>& f, float* dst) {
    if (in.linked()) {
      CUDA_OK(cudaMemcpyAsync(dst, f[static_cast<size_t>(in.producer)].out.get(), sizeof(float) * v.elements(),
                              cudaMemcpyDeviceToDevice, s_));
      return;
    }
    to_float_row_major(caller.get(), in.caller_dtype, v.layout, v.batch, v.rows, v.cols, dst, s_);
    round_to(dst, o.dtype, v.elements(), s_);
  }

  /// The pipeline's arguments for input set `i`: every stage's as its kernel takes them, except what the pipeline
  /// owns (operands read from earlier stages and the intermediates' D), which stay null.
  ucut_pipeline_args args_for(size_t i) const {
    ucut_pipeline_args a{};
    a.count = static_cast<int32_t>(stages());
    for (size_t s = 0; s < stages(); ++s) {
      if (family_stage(s)) {
        set_family_args(a.memop[s], s, sets_[i]);
        continue;
      }
      const ProblemDesc& p = stage(s).problem;
      const OperandSet& ops = sets_[i].stages[s];
      set_gemm_tensors(a.stage[s], p, g_[s], ops, stage_output(s));
      set_epilogue_params(a.stage[s], p, ops);
      if (g_[s].is_conv()) a.stage[s].conv = conv_args(g_[s].conv);
    }
    return a;
  }

  /// Family stage s's arguments as its kernel takes them (ucut_memop_api order): the caller's inputs (null where the
  /// pipeline binds a producer's output), the output (the pipeline's, a checked intermediate's buffer, or null),
  /// scalars and extents.
  void set_family_args(ucut_memop_args& m, size_t s, const PipelineInputSet& set) const {
    const FamilyCall& call = *calls_[s];
    if (call.inputs.size() > UCUT_MAX_MEMOP_TENSORS || call.scalars.size() > UCUT_MAX_SCALARS ||
        call.extents.size() > UCUT_MAX_MEMOP_EXTENTS)
      throw std::runtime_error(pl_.stage_label(s) + ": more inputs, scalars or extents than ucut_memop_args holds");
    for (size_t c = 0; c < call.inputs.size(); ++c) m.inputs[c] = set.family[s][c].get();
    m.outputs[0] = stage_output(s);
    for (size_t j = 0; j < call.scalars.size(); ++j) m.scalars[j] = static_cast<float>(call.scalars[j]);
    for (size_t j = 0; j < call.extents.size(); ++j) m.extents[j] = call.extents[j];
  }

  size_t input_sets() const override { return sets_.size(); }

  std::vector<const DeviceBuffer*> input_buffers(size_t set) const override {
    std::vector<const DeviceBuffer*> out;
    for (const OperandSet& ops : sets_[set].stages)
      for (const DeviceBuffer* b : operand_buffers(ops)) out.push_back(b);
    for (const std::vector<DeviceBuffer>& stage_inputs : sets_[set].family)
      for (const DeviceBuffer& b : stage_inputs)
        if (b.get()) out.push_back(&b);
    return out;
  }

  void poison_outputs() override {
    for (size_t s : checked_) poison(stage_output(s), bytes_of(stage_dtype(s), stage_elements(s)), s_);
  }

  /// Every checked output in stage order, each compared with its reference: a GEMM's or convolution's (row-major)
  /// with the reference chain's, a family stage's (memory order) with its reference on what the candidate's stage
  /// read — the outputs read before it in this call, as stored.
  std::vector<OutputRead> read_outputs(size_t set) override {
    PipelineInputSet& in = sets_[set];
    std::vector<std::vector<double>> as_read(stages());  // a checked output that a family stage reads, memory order
    std::vector<OutputRead> out(checked_.size());
    for (size_t o = 0; o < checked_.size(); ++o) {
      const size_t s = checked_[o];
      const int64_t n = stage_elements(s);
      if (family_stage(s)) {
        to_float_row_major(stage_output(s), stage_dtype(s), Layout::row, 1, 1, n, scratch_.as<float>(), s_);
      } else {
        const Operand& d = stage(s).problem.d;
        const Extents& e = g_[s].e;
        to_float_row_major(stage_output(s), d.dtype, d.layout, e.batch, e.m, e.n, scratch_.as<float>(), s_);
      }
      out[o].values = download(scratch_.as<float>(), n, s_);
      Tolerance tol = req_.tolerance;
      if (family_stage(s)) {
        MemOpReference ref = family_reference(in, s, as_read);
        in.ref[o].assign(ref.outputs.front().begin(), ref.outputs.front().end());
        in.bound[o].clear();
        if (!ref.bounds.empty()) in.bound[o].assign(ref.bounds.front().begin(), ref.bounds.front().end());
        tol.acc_eps = 1;  // the bound is the summation allowance itself
        as_read[s].assign(out[o].values.begin(), out[o].values.end());
      } else {
        tol = stage_tolerance(s);
        if (s + 1 < stages()) as_read[s] = in_memory_order(out[o].values, stage(s).problem.d.layout, g_[s].e);
      }
      const std::vector<float>& bound = in.bound[o];
      out[o].check = compare_parallel(out[o].values.data(), in.ref[o].data(), out[o].values.size(), tol, threads_,
                                      bound.empty() ? nullptr : bound.data());
    }
    return out;
  }

  const std::vector<float>& output_reference(size_t set, size_t o) const override { return sets_[set].ref[o]; }

  std::vector<uint64_t> output_hashes() override {
    std::vector<uint64_t> out;
    for (size_t s : checked_) out.push_back(hash_bytes(stage_output(s), bytes_of(stage_dtype(s), stage_elements(s)), s_));
    return out;
  }

  /// The checked outputs by tensor name; an intermediate's with its stage ("H1 (stage s1)").
  std::vector<OutputCheck> output_names() const override {
    std::vector<OutputCheck> out;
    for (size_t s : checked_) {
      std::string name = family_stage(s) ? memop(s).output().name.value : stage(s).problem.d_name;
      if (s + 1 < stages()) name += fmt::format(" (stage {})", stage(s).name);
      out.push_back({name, EpiKind::store, {}});
    }
    return out;
  }

  /// A stage's baseline runs at the candidate's precision (the problem's without a candidate).
  MathMode baseline_math(size_t s) const { return cand_.library ? cand_.math[s] : stage(s).problem.math; }

  /// The same stages as separate library calls: each stage's conversions, then its cuBLASLt matmul (fusing what it
  /// can of the stage's epilogue) into a D of ours that the stages after it read. The plans share one workspace.
  void run_cublas() {
    DeviceBuffer workspace(CublasBaseline::kWorkspaceBytes);
    std::vector<std::unique_ptr<CublasBaseline>> plans;
    std::vector<BaselineStage> bl(stages());
    std::vector<std::string> steps;
    bool fused = true;
    for (size_t s = 0; s < stages(); ++s) {
      const ProblemDesc& p = stage(s).problem;
      const OperandGeometry& g = g_[s];
      plans.push_back(
          std::make_unique<CublasBaseline>(ctx_.lt, p, baseline_math(s), g.e, BaselineScales{}, &workspace));
      CublasBaseline& plan = *plans.back();
      if (!plan.supported()) {
        r_.cublas_error = pl_.stage_label(s) + ": " + plan.why_not();
        return;
      }
      add_conversions(s, bl[s], steps);
      bl[s].d = DeviceBuffer(bytes_of(p.d.dtype, g.d_elements));
      bl[s].out = bl[s].d.get();
      bl[s].launch = [this, &plan, d = bl[s].d.get()](const OperandSet& ops, const void* a, const void* b) {
        plan.launch(baseline_operands(plan, ops, a, b, d), s_);
      };
      steps.push_back(fmt::format("{}: {}", stage(s).name, plan.description()));
      fused = fused && plan.fused_epilogue();
    }
    r_.cublas_kernel = fmt::format("{}", fmt::join(steps, " ; "));
    r_.cublas_fused_epilogue = fused;
    time_baseline(bl);
  }

  /// The same stages as separate library calls: each stage's conversions, then its bare cuDNN convolution (the
  /// stage's epilogue is not run: cudnn_baseline.h) into cuDNN's output, which the stages after it read (converted
  /// to the stage's D type where cuDNN writes another). cuDNN benchmarks its algorithms on real operands: input
  /// set 0's, every earlier stage having run once on them.
  void run_cudnn() {
    if (!ctx_.dnn) {
      r_.cublas_error = "cuDNN is unavailable: " + ctx_.dnn_error;
      return;
    }
    std::vector<std::unique_ptr<CudnnConvBaseline>> plans;
    std::vector<BaselineStage> bl(stages());
    std::vector<std::string> steps;
    bool fused = true;
    for (size_t s = 0; s < stages(); ++s) {
      const PipelineStage& st = stage(s);
      const ProblemDesc& p = st.problem;
      const OperandGeometry& g = g_[s];
      const OperandSet& ops = sets_[0].stages[s];
      add_conversions(s, bl[s], steps);
      const void* a = baseline_input(st.a, p.a, g.a, ops.a, bl[s].a, bl);
      const void* b = baseline_input(st.b, p.b, g.b, ops.b, bl[s].b, bl);
      plans.push_back(std::make_unique<CudnnConvBaseline>(ctx_.dnn, p, baseline_math(s), g.conv, a, b));
      CudnnConvBaseline& plan = *plans.back();
      if (!plan.supported()) {
        r_.cublas_error = pl_.stage_label(s) + ": " + plan.why_not();
        return;
      }
      steps.push_back(fmt::format("{}: {}", st.name, plan.description()));
      fused = fused && plan.fused_epilogue();
      bl[s].out = plan.output();
      if (s + 1 < stages() && plan.output_dtype() != p.d.dtype) {
        bl[s].d = DeviceBuffer(bytes_of(p.d.dtype, g.d_elements));
        bl[s].out = bl[s].d.get();
        steps.push_back(fmt::format("convert {}.{} {}->{}", st.name, p.d_name, dtype_name(plan.output_dtype()),
                                    dtype_name(p.d.dtype)));
      }
      bl[s].launch = [this, &plan, &p, &g, d = bl[s].d.get()](const OperandSet&, const void* a, const void* b) {
        plan.launch(a, b);
        if (d) convert(plan.output(), plan.output_dtype(), d, p.d.dtype, g.d_elements, s_);
      };
      bl[s].launch(ops, a, b);  // the next stage's benchmark reads its output
    }
    r_.cublas_kernel = fmt::format("{}", fmt::join(steps, " ; "));
    r_.cublas_fused_epilogue = fused;
    time_baseline(bl);
  }

  /// Buffers for stage s's operands that the caller hands over in another type than the stage's, with a step
  /// describing each conversion.
  void add_conversions(size_t s, BaselineStage& bl, std::vector<std::string>& steps) const {
    const PipelineStage& st = stage(s);
    const ProblemDesc& p = st.problem;
    OperandNames names = operand_names(p.op);
    for (auto [in, o, v, buf, name] : {std::tuple{&st.a, &p.a, &g_[s].a, &bl.a, names.a},
                                       std::tuple{&st.b, &p.b, &g_[s].b, &bl.b, names.b}}) {
      if (!in->converted(o->dtype)) continue;
      *buf = DeviceBuffer(bytes_of(o->dtype, v->elements()));
      steps.push_back(
          fmt::format("convert {}.{} {}->{}", st.name, name, dtype_name(in->caller_dtype), dtype_name(o->dtype)));
    }
  }

  /// Times the baseline's stages in order on one input set after another.
  void time_baseline(const std::vector<BaselineStage>& bl) {
    Timer timer(s_, ctx_.l2_bytes);
    r_.cublas = timer.measure(
        [&](int t) {
          const PipelineInputSet& set = sets_[static_cast<size_t>(t) % sets_.size()];
          for (size_t s = 0; s < stages(); ++s) {
            const PipelineStage& st = stage(s);
            const OperandSet& ops = set.stages[s];
            const void* a = baseline_input(st.a, st.problem.a, g_[s].a, ops.a, bl[s].a, bl);
            const void* b = baseline_input(st.b, st.problem.b, g_[s].b, ops.b, bl[s].b, bl);
            bl[s].launch(ops, a, b);
          }
        },
        timing_plan(req_));
  }

  /// A baseline stage's operand: an earlier stage's D, the caller's tensor, or the caller's tensor converted (now,
  /// on the stream) into `converted`.
  const void* baseline_input(const StageInput& in, const Operand& o, const MatrixView& v, const DeviceBuffer& caller,
                             const DeviceBuffer& converted, const std::vector<BaselineStage>& bl) {
    if (in.linked()) return bl[static_cast<size_t>(in.producer)].out;
    if (!in.converted(o.dtype)) return caller.get();
    convert(caller.get(), in.caller_dtype, converted.get(), o.dtype, v.elements(), s_);
    return converted.get();
  }

  const DeviceContext& ctx_;
  const WorkerRequest& req_;
  const PipelineDesc& pl_;
  const PipelineCandidate& cand_;
  std::vector<OperandGeometry> g_;  // per stage (empty at a family stage)
  std::vector<std::optional<FamilyCall>> calls_;  // per family stage
  ShapeClock clock_;
  cudaStream_t s_;
  std::vector<size_t> checked_;  // checked_stages()
  ShapeResult r_;
  std::vector<PipelineInputSet> sets_;
  DeviceBuffer d_, scratch_;
  std::vector<DeviceBuffer> inter_;  // per stage: the buffer of a checked intermediate (null elsewhere)
  unsigned threads_ = std::max(1u, std::thread::hardware_concurrency());
};

}  // namespace

ShapeResult measure_pipeline(const DeviceContext& ctx, const WorkerRequest& req, const PipelineDesc& pipeline,
                             const PipelineCandidate& cand, const GemmShape& shape) {
  return PipelineRun(ctx, req, pipeline, cand, shape).run();
}

}  // namespace ucut::worker
