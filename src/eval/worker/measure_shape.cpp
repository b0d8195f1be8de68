// eval/worker/measure_shape.cpp — see measure_shape.h. Order per shape: inputs → references → candidate
// verification (candidate_run.h: poisoned outputs, hashed inputs, stream-sync then device-sync reads) →
// timing → re-verification → vendor baseline (cuBLAS for GEMMs, cuDNN for convolutions). GEMMs and
// convolutions differ only in their operands (operand_geometry.h), their reference accumulator and their
// baseline. A grouped GEMM's operands are packed buffers holding every problem (grouped_operands.h): the
// reference and the comparison run problem by problem (OperandGeometry::parts), the kernel gets the problem
// list, and it has two cuBLAS baselines (grouped_cublas.h). The precision probe (eval/precision.h,
// precision_plan.h) makes a few of B's columns tiny in every input set and tallies D's normalized errors
// against an FP64-accumulated reference on every verified read.
#include "eval/worker/measure_shape.h"

#include <cmath>
#include <memory>
#include <thread>

#include "eval/precision_probe.h"
#include "eval/reduction.h"
#include "eval/worker/candidate_run.h"
#include "eval/worker/cublas_baseline.h"
#include "eval/worker/cudnn_baseline.h"
#include "eval/worker/device_ops.h"
#include "eval/worker/error_bound.h"
#include "eval/worker/grouped_cublas.h"
#include "eval/worker/grouped_operands.h"
#include "eval/worker/operand_geometry.h"
#include "eval/worker/operand_set.h"
#include "eval/worker/precision_plan.h"
#include "eval/worker/reference.h"
#include "eval/worker/timing.h"

namespace ucut::worker {
namespace {

/// One seeded set of inputs, with its reference outputs on the host (row-major float).
struct InputSet : OperandSet {
  explicit InputSet(OperandSet operands) : OperandSet(std::move(operands)) {}
  std::vector<float> ref_d;
  std::vector<std::vector<float>> ref_aux;  // per aux slot: an aux_store tensor's reference (reductions: empty)
  std::vector<ReducedReference> ref_red;    // per aux slot: a reduction's reference vector (aux_store: empty)
  std::vector<float> abs_acc;  // Σ_k |a_ik||b_kj|: the scale of accumulation-order differences (Tolerance::acc_eps)
  // The precision probe's: its tiny columns' seed, D's FP64-accumulated reference where ref_d is not (empty:
  // ref_d is) and each output's scale, √Σ_k (a_ik b_kj)² times the chain's gain.
  uint64_t probe_seed = 0;
  std::vector<float> probe_ref, probe_scale;
};

class ShapeRun final : public CandidateSubject {
 public:
  ShapeRun(const DeviceContext& ctx, const WorkerRequest& req, const ProblemDesc& p, const Candidate& cand,
           const GemmShape& shape)
      : ctx_(ctx),
        req_(req),
        p_(p),
        cand_(cand),
        g_(operand_geometry(p, shape)),
        clock_(g_.is_grouped() ? grouped_shape_text(shape.groups) : extents_text(g_.e)),
        s_(ctx.stream),
        plan_(precision_plan(p, g_.is_grouped(), g_.conv, g_.e.n, req.inputs)) {
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
      std::vector<ucut_gemm_args> args;
      for (size_t i = 0; i < sets_.size(); ++i) args.push_back(args_for(i));
      run_candidate(cand_.library->api(), std::move(args), *this, {s_, ctx_.l2_bytes, timing_plan(req_), ctx_.activity}, r_);
      report_precision();
    }
    if (req_.time_cublas) {
      r_.baseline_library = g_.is_conv() ? VendorLibrary::cudnn : VendorLibrary::cublas;
      clock_.progress(std::string(enum_name(r_.baseline_library)).c_str());
      if (g_.is_conv())
        run_baseline(r_.cublas, r_.cublas_error, [&] { run_cudnn(); });
      else if (g_.is_grouped())
        run_baseline(r_.cublas, r_.cublas_error, [&] { run_cublas_loop(); });
      else
        run_baseline(r_.cublas, r_.cublas_error, [&] { run_cublas(); });
      if (g_.is_grouped()) {
        clock_.progress("cublas_grouped");
        run_baseline(r_.cublas_grouped, r_.cublas_grouped_error, [&] { run_cublas_grouped(); });
      }
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

  const Extents& e() const { return g_.e; }

  int64_t mn() const { return g_.d_elements; }  // elements of D (and of C, aux): every part's
  /// Elements of aux slot j's output: an [L, M, N] tensor, or a reduction's [L, M] or [L, N] vector.
  int64_t aux_len(size_t j) const {
    const AuxSlot& a = p_.aux[j];
    return a.reduction() ? e().batch * (a.axis() == Axis::row ? e().m : e().n) : mn();
  }

  void make_inputs() {
    scales_ = DeviceBuffer(3 * sizeof(float));
    float host_scales[3] = {kScaleA, kScaleB, 1.f};
    CUDA_OK(cudaMemcpyAsync(scales_.get(), host_scales, sizeof host_scales, cudaMemcpyHostToDevice, s_));
    for (int i = 0; i < input_set_count(req_); ++i) {
      sets_.emplace_back(make_operand_set(p_, g_, fill_type(p_.a.dtype, p_.math), fill_type(p_.b.dtype, p_.math),
                                          input_seed(req_, i), s_));
      if (plan_.measured && req_.mode == WorkerMode::measure) {
        sets_.back().probe_seed = input_seed(req_, i).seed + 99;
        scale_probe_columns(sets_.back().b.get(), fill_type(p_.b.dtype, p_.math), g_.b.layout, g_.b.batch,
                            g_.b.rows, g_.b.cols, plan_.by_row, plan_.period, sets_.back().probe_seed, s_);
      }
    }
    d_ = DeviceBuffer(bytes_of(p_.d.dtype, mn()));
    for (size_t j = 0; j < p_.aux.size(); ++j) aux_.emplace_back(bytes_of(p_.aux[j].tensor.dtype, aux_len(j)));
    scratch_ = DeviceBuffer(static_cast<size_t>(mn()) * sizeof(float));
    if (g_.is_grouped()) {
      grouped_ = std::make_unique<GroupedOperands>(g_.group, p_, s_);
      for (const InputSet& set : sets_) grouped_->add_set(set.a.get(), set.b.get(), set.c.get(), d_.get());
    }
  }

  /// cpu-f64 | cublas-f32 for GEMMs (as the request asks, or by size); a convolution's is always the direct GPU one.
  ReferenceKind reference_kind() const {
    if (g_.is_conv()) return ReferenceKind::direct_f64;
    int64_t macs = 0;
    for (const GemmPart& q : g_.parts) macs += q.e.batch * q.e.m * q.e.n * q.e.k;
    bool cpu = req_.reference == Reference::cpu ||
               (req_.reference == Reference::automatic && macs <= req_.cpu_reference_max_macs);
    return cpu ? ReferenceKind::cpu_f64 : ReferenceKind::cublas_f32;
  }

  /// A part's chain inputs: `in` with its output-shaped tensors (C, aux) moved to the part's offset.
  static RefInputs part_inputs(RefInputs in, const GemmPart& q) {
    if (in.c) in.c += q.d_offset;
    for (float*& a : in.aux)
      if (a) a += q.d_offset;
    return in;
  }

  /// A and B of every part as row-major float, each at its part's offsets.
  void inputs_to_float(const InputSet& set, float* a32, float* b32) {
    for (const GemmPart& q : g_.parts) {
      to_float_row_major(packed_at(set.a.get(), p_.a.dtype, q.a_offset), p_.a.dtype, q.a.layout, q.a.batch, q.a.rows,
                         q.a.cols, a32 + q.a_offset, s_);
      to_float_row_major(packed_at(set.b.get(), p_.b.dtype, q.b_offset), p_.b.dtype, q.b.layout, q.b.batch, q.b.rows,
                         q.b.cols, b32 + q.b_offset, s_);
    }
  }

  /// An output-shaped tensor (D, C, aux) stored as `o` says, as row-major float, part by part.
  void output_to_float(const void* src, const Operand& o, float* dst) {
    for (const GemmPart& q : g_.parts)
      to_float_row_major(packed_at(src, o.dtype, q.d_offset), o.dtype, o.layout, q.e.batch, q.e.m, q.e.n,
                         dst + q.d_offset, s_);
  }

  /// The reference for every set; FP8 outputs also get their quantization scale here.
  void make_references() {
    r_.reference_kind = reference_kind();
    bool cpu = r_.reference_kind == ReferenceKind::cpu_f64;
    DeviceBuffer a32(sizeof(float) * g_.a.elements()), b32(sizeof(float) * g_.b.elements());
    DeviceBuffer c32(p_.has_residual ? sizeof(float) * mn() : 0), acc(cpu ? 0 : sizeof(float) * mn()),
        out(sizeof(float) * mn());
    std::vector<DeviceBuffer> vec32, aux32;
    for (const VectorSlot& v : p_.vectors) vec32.emplace_back(sizeof(float) * g_.vector_len(v));
    for (size_t j = 0; j < p_.aux.size(); ++j) aux32.emplace_back(sizeof(float) * mn());
    for (InputSet& set : sets_) {
      inputs_to_float(set, a32.as<float>(), b32.as<float>());
      if (p_.has_residual) output_to_float(set.c.get(), p_.c, c32.as<float>());
      for (size_t j = 0; j < p_.vectors.size(); ++j)
        to_float_row_major(set.vectors[j].get(), p_.vectors[j].dtype, Layout::row, 1, 1, g_.vector_len(p_.vectors[j]),
                           vec32[j].as<float>(), s_);
      RefInputs in;
      in.scale_ab = (p_.scale_a ? kScaleA : 1.f) * (p_.scale_b ? kScaleB : 1.f);
      for (size_t j = 0; j < p_.scalars.size(); ++j) in.scalars[j] = p_.scalars[j];
      set.ref_aux.assign(p_.aux.size(), {});
      set.ref_red.assign(p_.aux.size(), {});
      DeviceBuffer probe_acc =
          plan_.measured ? probe_inputs(set, a32.as<float>(), b32.as<float>(), cpu) : DeviceBuffer();
      if (cpu) {
        std::vector<float> ha = download(a32.as<float>(), g_.a.elements(), s_);
        std::vector<float> hb = download(b32.as<float>(), g_.b.elements(), s_);
        std::vector<float> hc = p_.has_residual ? download(c32.as<float>(), mn(), s_) : std::vector<float>{};
        std::vector<std::vector<float>> hv;
        for (size_t j = 0; j < p_.vectors.size(); ++j) hv.push_back(download(vec32[j].as<float>(), g_.vector_len(p_.vectors[j]), s_));
        std::vector<double> hacc(static_cast<size_t>(mn()));
        set.abs_acc.assign(static_cast<size_t>(mn()), 0.f);
        set.ref_d.resize(static_cast<size_t>(mn()));
        in.c = p_.has_residual ? hc.data() : nullptr;
        for (size_t j = 0; j < hv.size(); ++j) in.vectors[j] = hv[j].data();
        for (size_t j = 0; j < p_.aux.size(); ++j) {
          set.ref_aux[j].resize(static_cast<size_t>(mn()));
          in.aux[j] = set.ref_aux[j].data();
        }
        for (const GemmPart& q : g_.parts) {
          gemm_reference_cpu(ha.data() + q.a_offset, hb.data() + q.b_offset, hacc.data() + q.d_offset,
                             set.abs_acc.data() + q.d_offset, q.e);
          apply_chain_cpu(p_.chain, part_inputs(in, q), hacc.data() + q.d_offset, set.ref_d.data() + q.d_offset, q.e);
        }
      } else {
        accumulate_gpu(a32.as<float>(), b32.as<float>(), acc.as<float>(), out.as<float>(), set);
        in.c = p_.has_residual ? c32.as<float>() : nullptr;
        for (size_t j = 0; j < vec32.size(); ++j) in.vectors[j] = vec32[j].as<float>();
        for (size_t j = 0; j < aux32.size(); ++j) in.aux[j] = aux32[j].as<float>();
        for (const GemmPart& q : g_.parts)
          apply_chain_gpu(p_.chain, part_inputs(in, q), acc.as<float>() + q.d_offset, out.as<float>() + q.d_offset,
                          q.e, s_);
        set.ref_d = download(out.as<float>(), mn(), s_);
        for (size_t j = 0; j < aux32.size(); ++j) set.ref_aux[j] = download(aux32[j].as<float>(), mn(), s_);
        if (probe_acc.get()) {
          RefInputs no_captures = in;
          for (float*& a : no_captures.aux) a = nullptr;
          apply_chain_gpu(p_.chain, no_captures, probe_acc.as<float>(), out.as<float>(), e(), s_);
          set.probe_ref = download(out.as<float>(), mn(), s_);
        }
      }
      reduce_captures(set);
    }
    if (p_.scale_d) choose_output_scale();
  }

  /// The precision probe's scale for every output of `set` (√Σ(a b)², from squared copies of a32 and b32,
  /// times the chain's gain) and, where the verification's reference is FP32 (a large GEMM), the FP64
  /// accumulator for its reference, returned (empty otherwise: ref_d is accumulated in FP64 already).
  DeviceBuffer probe_inputs(InputSet& set, const float* a32, const float* b32, bool cpu) {
    DeviceBuffer a2(sizeof(float) * g_.a.elements()), b2(sizeof(float) * g_.b.elements());
    DeviceBuffer sq(sizeof(float) * mn()), sq_abs(g_.is_conv() ? sizeof(float) * mn() : 0);
    CUDA_OK(cudaMemcpyAsync(a2.get(), a32, a2.bytes(), cudaMemcpyDeviceToDevice, s_));
    CUDA_OK(cudaMemcpyAsync(b2.get(), b32, b2.bytes(), cudaMemcpyDeviceToDevice, s_));
    square_inplace(a2.as<float>(), g_.a.elements(), s_);
    square_inplace(b2.as<float>(), g_.b.elements(), s_);
    reference_accumulate(ctx_.blas, g_, a2.as<float>(), b2.as<float>(), sq.as<float>(), sq_abs.as<float>(),
                         s_);
    set.probe_scale = download(sq.as<float>(), mn(), s_);
    double gain = chain_gain(p_, p_.chain.count);
    for (float& v : set.probe_scale) v = static_cast<float>(std::sqrt(static_cast<double>(v)) * gain);
    if (cpu || g_.is_conv()) return {};
    DeviceBuffer acc(sizeof(float) * mn());
    for (const GemmPart& q : g_.parts)
      gemm_reference_gpu_f64(ctx_.blas, a32 + q.a_offset, b32 + q.b_offset, acc.as<float>() + q.d_offset, q.e,
                             s_);
    return acc;
  }

  /// Every verified read of D into the tally (its column's tiny or not by the set's probe seed).
  void tally_precision(const std::vector<float>& got, const InputSet& set) {
    const std::vector<float>& ref = set.probe_ref.empty() ? set.ref_d : set.probe_ref;
    int64_t n = e().n;
    std::vector<char> wide(static_cast<size_t>(n));
    for (int64_t c = 0; c < n; ++c)
      wide[static_cast<size_t>(c)] = probe_wide(set.probe_seed, c % plan_.period);
    for (size_t i = 0; i < got.size(); ++i)
      precision_.add(got[i], ref[i], set.probe_scale[i], wide[i % static_cast<size_t>(n)]);
  }

  /// The shape's measured precision (eval/precision.h) into its integrity result.
  void report_precision() {
    IntegrityResult& x = r_.integrity;
    if (!plan_.measured) {
      x.precision_note = plan_.why_not;
      return;
    }
    x.measured_precision = classify(precision_);
    x.precision_error = precision_.worst();
    x.precision_rms = precision_.rms();
    x.precision_wide_rms = precision_.wide_rms();
    if (precision_.count() == 0) x.precision_note = "no output with a nonzero scale was read";
  }

  /// A reduction's reference: its stage captured x for every element (into ref_aux, like an aux_store); reduce
  /// that in double on the host, with Σ|x| and the accumulation bounds for its tolerance, and drop the capture.
  /// A convolution reduces over its implicit GEMM's M = output pixels, per channel n, so the same m x n view serves.
  void reduce_captures(InputSet& set) const {
    for (size_t j = 0; j < p_.aux.size(); ++j) {
      const AuxSlot& a = p_.aux[j];
      if (!a.reduction()) continue;
      const float* bound = set.abs_acc.size() == static_cast<size_t>(mn()) ? set.abs_acc.data() : nullptr;
      set.ref_red[j] = reduce_reference(set.ref_aux[j].data(), bound, e().m, e().n, e().batch, a.axis(), a.max());
      set.ref_aux[j] = {};
    }
  }

  /// acc ← the accumulator on the GPU (measure_common.h's reference_accumulate) and set.abs_acc ← Σ|a||b| over the
  /// same products. Overwrites `scratch` (every part's m×n) and, for GEMMs, a32 and b32.
  void accumulate_gpu(float* a32, float* b32, float* acc, float* scratch, InputSet& set) {
    reference_accumulate(ctx_.blas, g_, a32, b32, acc, scratch, s_);
    set.abs_acc = download(scratch, mn(), s_);
  }

  /// FP8 outputs: one power-of-two scale that brings the largest value of any input set to about 128 (e4m3
  /// tops out at 448): the kernel reads a single scale, so the set with the widest range decides.
  void choose_output_scale() {
    float peak = 0;
    for (const InputSet& set : sets_)
      for (float v : set.ref_d)
        if (std::isfinite(v)) peak = std::max(peak, std::fabs(v));
    float scale = peak > 0 ? std::exp2(std::floor(std::log2(128.f / peak))) : 1.f;
    for (InputSet& set : sets_)
      for (float& v : set.ref_d) v *= scale;
    output_scale_ = scale;
    CUDA_OK(cudaMemcpyAsync(scales_.as<float>() + 2, &scale, sizeof scale, cudaMemcpyHostToDevice, s_));
    CUDA_OK(cudaStreamSynchronize(s_));
  }

  /// The kernel's arguments for input set `i`. A grouped GEMM's operands are in its problem list (`group`).
  ucut_gemm_args args_for(size_t i) const {
    const InputSet& set = sets_[i];
    ucut_gemm_args a{};
    a.batch = 1;
    if (g_.is_grouped()) {
      a.group = grouped_->args(i);
    } else {
      set_gemm_tensors(a, p_, g_, set, d_.get());
      for (size_t j = 0; j < aux_.size(); ++j) {
        // A reduction's vector: ld unused, batch stride M or N between batches (0 for one batch).
        if (p_.aux[j].reduction())
          a.aux[j] = {aux_[j].get(), 0, e().batch > 1 ? aux_len(j) / e().batch : 0};
        else
          a.aux[j] = {aux_[j].get(), g_.output_ld(p_.aux[j].tensor.layout), mn() / e().batch};
      }
    }
    set_epilogue_params(a, p_, set);
    a.scale_a = p_.scale_a ? scales_.as<float>() : nullptr;
    a.scale_b = p_.scale_b ? scales_.as<float>() + 1 : nullptr;
    a.scale_d = p_.scale_d ? scales_.as<float>() + 2 : nullptr;
    if (g_.is_conv()) a.conv = conv_args(g_.conv);
    return a;
  }

  /// Compares part by part: each part's accumulation term follows its own K.
  Comparison compare_output(const std::vector<float>& x, const std::vector<float>& ref, const InputSet& set,
                            double gain) {
    const float* bound = set.abs_acc.size() == x.size() ? set.abs_acc.data() : nullptr;
    Comparison all;
    for (size_t i = 0; i < g_.parts.size(); ++i) {
      const GemmPart& q = g_.parts[i];
      Tolerance tol = req_.tolerance;
      tol.acc_eps = accumulation_eps(q.e.k) * gain;
      size_t at = static_cast<size_t>(q.d_offset);
      Comparison c = compare_parallel(x.data() + at, ref.data() + at, static_cast<size_t>(q.e.mn()), tol, threads_,
                                      bound ? bound + at : nullptr);
      if (c.worst_index >= 0) c.worst_index += q.d_offset;
      all = i == 0 ? c : merge(all, c);
    }
    return all;
  }

  /// A reduction vector against its reference: the accumulation term scaled by the chain's gain up to its stage.
  Comparison compare_reduction_output(const std::vector<float>& x, const ReducedReference& ref, int stage) const {
    Tolerance tol = req_.tolerance;
    tol.acc_eps = accumulation_eps(e().k) * chain_gain(p_, stage);
    return compare_reduced(x, ref, tol);
  }

  size_t input_sets() const override { return sets_.size(); }

  std::vector<const DeviceBuffer*> input_buffers(size_t set) const override { return operand_buffers(sets_[set]); }

  void poison_outputs() override {
    poison(d_.get(), d_.bytes(), s_);
    for (DeviceBuffer& a : aux_) poison(a.get(), a.bytes(), s_);
  }

  /// The reference of output o (0: D, 1 + j: aux slot j) as a flat float array.
  const std::vector<float>& output_reference(size_t set, size_t o) const override {
    const InputSet& in = sets_[set];
    if (o == 0) return in.ref_d;
    return in.ref_red[o - 1].value.empty() ? in.ref_aux[o - 1] : in.ref_red[o - 1].value;
  }

  /// D, then every aux slot (aux_store tensors, reduction vectors).
  std::vector<OutputRead> read_outputs(size_t i) override {
    const InputSet& set = sets_[i];
    std::vector<OutputRead> out(1 + p_.aux.size());
    output_to_float(d_.get(), p_.d, scratch_.as<float>());
    out[0].values = download(scratch_.as<float>(), mn(), s_);
    out[0].check = compare_output(out[0].values, set.ref_d, set, chain_gain(p_, p_.chain.count) * output_scale_);
    if (plan_.measured) tally_precision(out[0].values, set);
    for (size_t j = 0; j < p_.aux.size(); ++j) {
      const AuxSlot& a = p_.aux[j];
      OutputRead& o = out[1 + j];
      if (a.reduction()) {
        to_float_row_major(aux_[j].get(), a.tensor.dtype, Layout::row, 1, 1, aux_len(j), scratch_.as<float>(), s_);
        o.values = download(scratch_.as<float>(), aux_len(j), s_);
        o.check = compare_reduction_output(o.values, set.ref_red[j], a.stage);
      } else {
        output_to_float(aux_[j].get(), a.tensor, scratch_.as<float>());
        o.values = download(scratch_.as<float>(), mn(), s_);
        o.check = compare_output(o.values, set.ref_aux[j], set, chain_gain(p_, a.stage));
      }
    }
    return out;
  }

  std::vector<OutputCheck> output_names() const override {
    std::vector<OutputCheck> out = {{p_.d_name, EpiKind::store, {}}};
    for (const AuxSlot& a : p_.aux) out.push_back({a.name, a.kind, {}});
    return out;
  }

  std::vector<uint64_t> output_hashes() override {
    std::vector<uint64_t> h = {hash_bytes(d_.get(), d_.bytes(), s_)};
    for (const DeviceBuffer& a : aux_) h.push_back(hash_bytes(a.get(), a.bytes(), s_));
    return h;
  }

  /// The vendor baselines run at the candidate's precision (the problem's without a candidate). A candidate that
  /// converts f32 operands to 16 bits: cuBLAS multiplies them as bf16 or f16 (its FAST_16BF/16F compute types);
  /// cuDNN has no such mode for f32 data, and runs TF32, the nearest it has.
  MathMode baseline_math() const {
    if (!cand_.library) return p_.math;
    return cand_.converted && p_.a.dtype == DType::f32 ? MathMode::tf32 : cand_.math;
  }
  std::optional<DType> baseline_converted() const { return cand_.library ? cand_.converted : std::nullopt; }

  BaselineScales baseline_scales() const {
    BaselineScales scales;
    scales.a = p_.scale_a ? scales_.as<float>() : nullptr;
    scales.b = p_.scale_b ? scales_.as<float>() + 1 : nullptr;
    scales.d = p_.scale_d ? scales_.as<float>() + 2 : nullptr;
    return scales;
  }

  void run_cublas() {
    ProblemDesc at_candidate_precision = p_;
    at_candidate_precision.converted = baseline_converted();
    CublasBaseline bl(ctx_.lt, at_candidate_precision, baseline_math(), e(), baseline_scales());
    r_.cublas_kernel = bl.supported() ? bl.description() : bl.why_not();
    r_.cublas_fused_epilogue = bl.supported() && bl.fused_epilogue();
    if (!bl.supported()) return;
    DeviceBuffer d2(bytes_of(p_.d.dtype, mn()));
    Timer timer(s_, ctx_.l2_bytes);
    r_.cublas = timer.measure(
        [&](int t) {
          const InputSet& set = sets_[t % sets_.size()];
          bl.launch(baseline_operands(bl, set, set.a.get(), set.b.get(), d2.get()), s_);
        },
        timing_plan(req_));
  }

  /// A grouped GEMM's first baseline: one cuBLASLt matmul per problem, every problem's timed together as one run.
  void run_cublas_loop() {
    GroupedCublasLoop bl(ctx_.lt, p_, baseline_math(), g_.group, baseline_scales());
    r_.cublas_kernel = bl.supported() ? bl.description() : bl.why_not();
    r_.cublas_fused_epilogue = bl.supported() && bl.fused_epilogue();
    if (!bl.supported()) return;
    DeviceBuffer d2(bytes_of(p_.d.dtype, mn()));
    Timer timer(s_, ctx_.l2_bytes);
    r_.cublas = timer.measure(
        [&](int t) {
          const InputSet& set = sets_[t % sets_.size()];
          bl.launch(set.a.get(), set.b.get(), set.c.get(), d2.get(), s_);
        },
        timing_plan(req_));
  }

  /// A grouped GEMM's second baseline: cublasGemmGroupedBatchedEx over every problem in one call.
  void run_cublas_grouped() {
    GroupedCublasBatched bl(ctx_.blas, p_, baseline_math(), g_.group);
    if (!bl.supported()) {
      r_.cublas_grouped_error = bl.why_not();
      return;
    }
    r_.cublas_grouped_kernel = bl.description();
    DeviceBuffer d2(bytes_of(p_.d.dtype, mn()));
    std::vector<GroupPointers> ptrs;
    for (const InputSet& set : sets_)
      ptrs.push_back(group_pointers(g_.group, p_, set.a.get(), set.b.get(), nullptr, d2.get(), s_));
    Timer timer(s_, ctx_.l2_bytes);
    r_.cublas_grouped = timer.measure([&](int t) { bl.launch(ptrs[t % ptrs.size()], s_); }, timing_plan(req_));
  }

  /// The bare convolution on cuDNN (its timing and description go where cuBLAS's do: "the vendor baseline").
  void run_cudnn() {
    if (!ctx_.dnn) {
      r_.cublas_kernel = "cuDNN is unavailable: " + ctx_.dnn_error;
      return;
    }
    CudnnConvBaseline bl(ctx_.dnn, p_, baseline_math(), g_.conv, sets_[0].a.get(),
                         sets_[0].b.get());
    r_.cublas_kernel = bl.supported() ? bl.description() : bl.why_not();
    r_.cublas_fused_epilogue = bl.supported() && bl.fused_epilogue();
    if (!bl.supported()) return;
    Timer timer(s_, ctx_.l2_bytes);
    r_.cublas = timer.measure(
        [&](int t) {
          const InputSet& set = sets_[t % sets_.size()];
          bl.launch(set.a.get(), set.b.get());
        },
        timing_plan(req_));
  }

  const DeviceContext& ctx_;
  const WorkerRequest& req_;
  const ProblemDesc& p_;
  const Candidate& cand_;
  OperandGeometry g_;
  ShapeClock clock_;
  cudaStream_t s_;
  ShapeResult r_;
  std::vector<InputSet> sets_;
  DeviceBuffer d_, scratch_, scales_;
  std::vector<DeviceBuffer> aux_;
  std::unique_ptr<GroupedOperands> grouped_;  // a grouped GEMM's problem list and pointer arrays
  float output_scale_ = 1.f;  // FP8 outputs: the quantization scale chosen for them
  PrecisionPlan plan_;        // whether and how the precision probe runs (precision_plan.h)
  PrecisionTally precision_;  // D's normalized errors over every verified read
  unsigned threads_ = std::max(1u, std::thread::hardware_concurrency());
};

}  // namespace

ShapeResult measure_shape(const DeviceContext& ctx, const WorkerRequest& req, const ProblemDesc& problem,
                          const Candidate& cand, const GemmShape& shape) {
  return ShapeRun(ctx, req, problem, cand, shape).run();
}

}  // namespace ucut::worker
