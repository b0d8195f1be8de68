// eval/worker/measure_pipeline.cpp — see measure_pipeline.h. Order per shape, as for one kernel: inputs →
// reference → candidate (candidate_run.h) → baseline. The reference runs stage by stage with the reference
// epilogue (the request's `reference` choice does not apply), its accumulator as measure_common.h's
// reference_accumulate computes it (GEMMs in FP32 on cuBLAS, convolutions directly in FP64): a stage reads a
// caller's operand converted to float and rounded to the stage's operand type (the pipeline's conversion is part of
// its meaning), and an earlier stage's reference output rounded to that stage's D type (as the pipeline stores the
// intermediate). A convolution's activation and the convolution output it reads are one packed channels-last
// tensor, its [pixels, channels] matrix the same for both: a link is the same copy for GEMMs and convolutions.
#include "eval/worker/measure_pipeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "eval/worker/candidate_run.h"
#include "eval/worker/cublas_baseline.h"
#include "eval/worker/cudnn_baseline.h"
#include "eval/worker/device_ops.h"
#include "eval/worker/error_bound.h"
#include "eval/worker/operand_geometry.h"
#include "eval/worker/operand_set.h"

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
  for (const OperandGeometry& s : g) stages.push_back(extents_text(s.e));
  return fmt::format("{} {}", pl.name, fmt::join(stages, " > "));
}

/// One seeded set of the caller's inputs, with the output's reference on the host (row-major float).
struct PipelineInputSet {
  std::vector<OperandSet> stages;  // per stage: the caller's A and B (absent where linked), C, vectors
  std::vector<float> ref_d;
  std::vector<float> abs_acc;  // the last stage's Σ|a||b|: the bound of the tolerance's accumulation term
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
        clock_(shape_text(pl, g_)),
        s_(ctx.stream),
        tol_(output_tolerance()) {
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
    if (req_.time_cublas) {
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
  bool conv() const { return pl_.family() == OpFamily::conv; }
  const PipelineStage& stage(size_t s) const { return pl_.stages[s]; }
  const ProblemDesc& out_problem() const { return pl_.stages.back().problem; }
  const OperandGeometry& out_g() const { return g_.back(); }

  /// The request's tolerance with the pipeline's accumulation term (error_bound.h's pipeline_acc_eps).
  Tolerance output_tolerance() const {
    std::vector<StageError> terms;
    for (size_t s = 0; s < stages(); ++s) {
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
      for (size_t s = 0; s < stages(); ++s) {
        const PipelineStage& st = stage(s);
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
    d_ = DeviceBuffer(bytes_of(out_problem().d.dtype, out_g().d_elements));
    scratch_ = DeviceBuffer(sizeof(float) * static_cast<size_t>(out_g().d_elements));
  }

  void make_references() {
    r_.reference_kind = conv() ? ReferenceKind::direct_f64 : ReferenceKind::cublas_f32;
    std::vector<StageFloats> f(stages());
    auto floats = [](int64_t n) { return DeviceBuffer(sizeof(float) * static_cast<size_t>(n)); };
    for (size_t s = 0; s < stages(); ++s) {
      const ProblemDesc& p = stage(s).problem;
      const OperandGeometry& g = g_[s];
      f[s].a = floats(g.a.elements());
      f[s].b = floats(g.b.elements());
      if (p.has_residual) f[s].c = floats(g.d_elements);
      f[s].acc = floats(g.d_elements);
      f[s].out = floats(g.d_elements);
      if (s + 1 == stages() || g.is_conv()) f[s].abs_acc = floats(g.d_elements);
      for (const VectorSlot& v : p.vectors) f[s].vectors.push_back(floats(g.vector_len(v)));
    }
    StageFloats& last = f.back();
    const OperandGeometry& g = out_g();
    for (PipelineInputSet& set : sets_) {
      for (size_t s = 0; s < stages(); ++s) reference_stage(set.stages[s], s, f);
      set.ref_d = download(last.out.as<float>(), g.d_elements, s_);
      set.abs_acc = download(last.abs_acc.as<float>(), g.d_elements, s_);
    }
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
      const ProblemDesc& p = stage(s).problem;
      const OperandSet& ops = sets_[i].stages[s];
      set_gemm_tensors(a.stage[s], p, g_[s], ops, s + 1 == stages() ? d_.get() : nullptr);
      set_epilogue_params(a.stage[s], p, ops);
      if (g_[s].is_conv()) a.stage[s].conv = conv_args(g_[s].conv);
    }
    return a;
  }

  size_t input_sets() const override { return sets_.size(); }

  std::vector<const DeviceBuffer*> input_buffers(size_t set) const override {
    std::vector<const DeviceBuffer*> out;
    for (const OperandSet& ops : sets_[set].stages)
      for (const DeviceBuffer* b : operand_buffers(ops)) out.push_back(b);
    return out;
  }

  void poison_outputs() override { poison(d_.get(), d_.bytes(), s_); }

  std::vector<OutputRead> read_outputs(size_t set) override {
    const OperandGeometry& g = out_g();
    const Operand& d = out_problem().d;
    to_float_row_major(d_.get(), d.dtype, d.layout, g.e.batch, g.e.m, g.e.n, scratch_.as<float>(), s_);
    std::vector<OutputRead> out(1);
    out[0].values = download(scratch_.as<float>(), g.d_elements, s_);
    out[0].check = compare_parallel(out[0].values.data(), sets_[set].ref_d.data(), out[0].values.size(), tol_,
                                    threads_, sets_[set].abs_acc.data());
    return out;
  }

  const std::vector<float>& output_reference(size_t set, size_t) const override { return sets_[set].ref_d; }

  std::vector<uint64_t> output_hashes() override { return {hash_bytes(d_.get(), d_.bytes(), s_)}; }

  std::vector<OutputCheck> output_names() const override {
    return {{out_problem().d_name, EpiKind::store, {}}};
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
  std::vector<OperandGeometry> g_;  // per stage
  ShapeClock clock_;
  cudaStream_t s_;
  Tolerance tol_;  // the output's
  ShapeResult r_;
  std::vector<PipelineInputSet> sets_;
  DeviceBuffer d_, scratch_;
  unsigned threads_ = std::max(1u, std::thread::hardware_concurrency());
};

}  // namespace

ShapeResult measure_pipeline(const DeviceContext& ctx, const WorkerRequest& req, const PipelineDesc& pipeline,
                             const PipelineCandidate& cand, const GemmShape& shape) {
  return PipelineRun(ctx, req, pipeline, cand, shape).run();
}

}  // namespace ucut::worker
