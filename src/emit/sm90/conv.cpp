// emit/sm90/conv.cpp — see conv.h. The harness's ucut_conv_args (always the forward convolution's geometry)
// become a cutlass::conv::ConvProblemShape (cross-correlation, as in PyTorch), and the output's epilogue strides
// come from that shape.
//   fprop  CUTLASS's kFprop implicit GEMM.
//   wgrad  CUTLASS's kWgrad implicit GEMM (DW[K, (C,S,R,T)] = DY^T im2col(X)).
//   dgrad  (a transposed convolution) CUTLASS's kFprop kernel once per output phase (templates/transposed_phases.h):
//          each phase a stride-1 forward convolution over its own taps (at stride 1 the one phase is the filter
//          flipped in space), reading X in place and writing its pixels of Y through strides (CUTLASS's own kDgrad
//          kernel reads the filter N-major, which wgmma cannot do for tf32, and needs stride 1 on SM90 just the same).
//          The phases' filters are staged before every launch (abi_wrapper.h), so that time is the kernel's.
#include "emit/sm90/conv.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/sm90/kernel_parts.h"
#include "emit/template_paste.h"
#include "ir/abi_slots.h"
#include "ir/canonical.h"
#include "support/error.h"

namespace ucut::sm90 {
namespace {

/// Extent names of X and W and the spatial slots ([d, h, w] indices of ucut_conv_args) per spatial rank.
struct ConvNames {
  const char* act;
  const char* flt;
  std::vector<int> spatial;
};

ConvNames names_for(int dims) {
  switch (dims) {
    case 1: return {"c.n, c.w, c.c", "c.k, c.s, c.c", {2}};
    case 2: return {"c.n, c.h, c.w, c.c", "c.k, c.r, c.s, c.c", {1, 2}};
    case 3: return {"c.n, c.d, c.h, c.w, c.c", "c.k, c.t, c.r, c.s, c.c", {0, 1, 2}};
  }
  UC_UNREACHABLE() << "a convolution with " << dims << " spatial dimensions (ir/ops.def has 1 to 3)";
}

class ConvEmitter {
 public:
  ConvEmitter(const SourceFile& src, const KernelConfig& cfg)
      : src_(src),
        cfg_(cfg),
        ns_(kernel_namespace(cfg)),
        dims_(op_spatial_dims(cfg.op.value)),
        kind_(op_conv_kind(cfg.op.value)) {}

  EmittedKernel run() {
    std::string gencode = gencode_for(cfg_);
    // kernel_hardware_info.hpp first: CUTLASS 4.2's conv collectives use it without including it.
    std::vector<std::string_view> includes = {
        "<cstdint>", "<cstdio>", "<new>", "<cuda_runtime.h>", "<cute/tensor.hpp>", "<cutlass/cutlass.h>",
        "<cutlass/kernel_hardware_info.hpp>", "<cutlass/conv/collective/collective_builder.hpp>",
        "<cutlass/conv/convnd_problem_shape.hpp>", "<cutlass/conv/device/conv_universal_adapter.hpp>",
        "<cutlass/conv/dispatch_policy.hpp>", "<cutlass/conv/kernel/conv_universal.hpp>",
        "<cutlass/epilogue/collective/collective_builder.hpp>",
        "<cutlass/epilogue/fusion/sm90_callbacks_tma_warpspecialized.hpp>", "<cutlass/epilogue/thread/activation.h>"};
    std::vector<std::string_view> headers;
    if (kind_ == ConvKind::dgrad) {  // one launch per output phase (transposed_runtime.inc)
      includes.insert(includes.end(), {"<algorithm>", "<vector>"});
      headers.push_back("transposed_phases.h");
    }
    open_kernel_file(w_, src_, cfg_, gencode, includes, ns_, headers);
    write_operand_types(w_, cfg_);
    write_epilogue_types(w_, cfg_);
    kernel_types();
    host_api();
    close_kernel_file(w_, ns_);
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode, {}, {}};
  }

 private:
  void kernel_types() {
    // Conv tiles wrap K (the filter taps x channels, or a filter gradient's pixels) in a Shape, and a filter
    // gradient's N ((c, s, r, t)) too.
    w_.alias("TileShape", tile_shape(cfg_.tile.value, /*nested_k=*/true, /*nested_n=*/kind_ == ConvKind::wgrad));
    w_.alias("ClusterShape", tile_shape(cfg_.cluster.value));
    w_.alias("KernelSchedule", cfg_.kernel_schedule.value == KernelSchedule::auto_
                                   ? "cutlass::conv::collective::KernelScheduleAuto"
                                   : "cutlass::conv::KernelImplicitTmaWarpSpecializedSm90");
    w_.alias("EpilogueSchedule", "cutlass::epilogue::TmaWarpSpecialized");
    w_.line();
    evt_ = write_fusion(w_, cfg_);
    w_.line();
    write_collective_epilogue(w_);
    std::string stages = stage_count(cfg_, "cutlass::conv::collective");
    w_.line("using CollectiveMainloop = typename cutlass::conv::collective::CollectiveBuilder<");
    w_.line(fmt::format("    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, {},", cutlass_operator()));
    w_.line("    ElementA, LayoutA, AlignmentA, ElementB, LayoutB, AlignmentB, ElementAccumulator,");
    w_.line(fmt::format("    TileShape, ClusterShape, {},", stages));
    w_.line("    KernelSchedule>::CollectiveOp;");
    w_.alias("ProblemShape", fmt::format("cutlass::conv::ConvProblemShape<{}, {}>", cutlass_operator(), dims_));
    w_.alias("ConvKernel", "cutlass::conv::kernel::ConvUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>");
    if (kind_ == ConvKind::dgrad) {
      paste_template(w_, "transposed_runtime.inc");
      w_.line();
      w_.alias("Adapter", "cutlass::conv::device::ConvUniversalAdapter<ConvKernel>");
      w_.comment("The ABI wrapper drives a device adapter under this name: one launch per output phase.");
      w_.alias("Gemm", "ucut_phased<Adapter>");
    } else {
      w_.comment("The ABI wrapper drives any CUTLASS device adapter under this name.");
      w_.alias("Gemm", "cutlass::conv::device::ConvUniversalAdapter<ConvKernel>");
    }
    write_smem_assert(w_, cfg_, "ConvKernel");
    w_.line();
  }

  /// The CUTLASS operator that runs: a transposed convolution runs as kFprop over the flipped filter.
  const char* cutlass_operator() const {
    return kind_ == ConvKind::wgrad ? "cutlass::conv::Operator::kWgrad" : "cutlass::conv::Operator::kFprop";
  }

  /// `field` of ucut_conv_args over the spec's spatial dimensions, e.g. "c.pad[1], c.pad[2]".
  std::string spatial(const char* field) const {
    std::string out;
    for (int i : names_for(dims_).spatial) out += fmt::format("{}c.{}[{}]", out.empty() ? "" : ", ", field, i);
    return out;
  }

  void problem_shape() {
    ConvNames n = names_for(dims_);
    if (kind_ == ConvKind::dgrad) {
      phase_shape(n);
      return;
    }
    w_.open("ProblemShape problem_shape(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line(fmt::format("typename ProblemShape::TensorExtent act{{{}}};", n.act));
    w_.line(fmt::format("typename ProblemShape::TensorExtent flt{{{}}};", n.flt));
    w_.line(fmt::format("typename ProblemShape::ShapePadding pad{{{}}};", spatial("pad")));
    w_.line(fmt::format("typename ProblemShape::TraversalStride stride{{{}}};", spatial("stride")));
    w_.line(fmt::format("typename ProblemShape::ShapeDilation dilation{{{}}};", spatial("dilation")));
    w_.line("return ProblemShape(cutlass::conv::Mode::kCrossCorrelation, act, flt, pad, pad, stride, dilation, 1);");
    w_.close();
    w_.line();
  }

  /// A transposed convolution's phase p (transposed_phases.h) as a forward convolution: its cropped input with X's
  /// strides, its filter [c, window..., k], its padding and dilation, stride 1, and Y's strides times the stride as its
  /// output's.
  void phase_shape(const ConvNames& n) {
    std::string window, lo, hi, dilation, ones;
    // X [n, z, p, q, k] and Y [n, d, h, w, c] packed; a phase steps through Y by the stride in every dimension.
    static const char* const in_extent[] = {"c.z", "c.p", "c.q"};
    static const char* const out_extent[] = {"c.d", "c.h", "c.w"};
    std::string in_pitch = "int64_t(c.k)", out_pitch = "int64_t(c.c)";
    std::vector<std::string> in_strides, out_strides;
    for (int i = 2; i >= 0; --i) {  // 64-bit products: the int64_t factor comes first
      in_strides.insert(in_strides.begin(), in_pitch);
      out_strides.insert(out_strides.begin(), fmt::format("{} * c.stride[{}]", out_pitch, i));
      in_pitch = fmt::format("{} * {}", in_pitch, in_extent[i]);
      out_pitch = fmt::format("{} * {}", out_pitch, out_extent[i]);
    }
    std::string act = "c.n", act_stride = in_pitch, out = out_pitch;
    for (int i : n.spatial) {
      const char* sep = ones.empty() ? "" : ", ";
      act += fmt::format(", p.dim[{}].in_rows", i);
      act_stride += ", " + in_strides[size_t(i)];
      out += ", " + out_strides[size_t(i)];
      window += fmt::format(", p.dim[{}].window", i);
      lo += fmt::format("{}p.dim[{}].pad_lo", sep, i);
      hi += fmt::format("{}p.dim[{}].pad_hi", sep, i);
      dilation += fmt::format("{}p.dim[{}].dilation", sep, i);
      ones += fmt::format("{}1", sep);
    }
    w_.open("ProblemShape phase_shape(const ucut_conv_args& c, const ucut_phase& p)");
    w_.line(fmt::format("typename ProblemShape::TensorExtent act{{{}, c.k}}, flt{{c.c{}, c.k}};", act, window));
    w_.line(fmt::format("typename ProblemShape::TensorStride act_stride{{{}, 1}}, out_stride{{{}, 1}};", act_stride, out));
    w_.line("typename ProblemShape::TensorStride flt_stride{};");
    w_.line("flt_stride[ProblemShape::RankT - 1] = 1;");
    w_.line("for (int i = ProblemShape::RankT - 2; i >= 0; --i) flt_stride[i] = flt_stride[i + 1] * flt[i + 1];");
    w_.line(fmt::format("typename ProblemShape::ShapePadding lo{{{}}}, hi{{{}}};", lo, hi));
    w_.line(fmt::format("typename ProblemShape::TraversalStride stride{{{}}};", ones));
    w_.line(fmt::format("typename ProblemShape::ShapeDilation dilation{{{}}};", dilation));
    w_.line("return ProblemShape(cutlass::conv::Mode::kCrossCorrelation, act, act_stride, flt, flt_stride, out_stride, lo,");
    w_.line("                    hi, stride, dilation, 1);");
    w_.close();
    w_.line();
  }

  /// The output's epilogue stride from the problem's C strides (packed, or a transposed convolution's phase's strided
  /// view of Y): pixel modes ((q, p, z, n), channels, batch), or a filter gradient's (k, (c, s, r, t), batch).
  void output_stride() {
    w_.line("template <class Stride>");
    w_.open("Stride output_stride(const ProblemShape& p)");
    w_.line("Stride s{};");
    if (kind_ == ConvKind::wgrad) {
      w_.line("cute::get<0>(s) = p.stride_C[0];");
      w_.line("cute::for_each(cute::make_seq<cute::rank<1>(Stride{}) - 1>{}, [&](auto i) {");
      w_.line("  cute::get<1, decltype(i)::value + 1>(s) = p.stride_C[ProblemShape::RankT - 2 - i];");
      w_.line("});");
    } else {
      w_.line("cute::for_each(cute::make_seq<cute::rank<0>(Stride{})>{},");
      w_.line("               [&](auto i) { cute::get<0, i>(s) = p.stride_C[ProblemShape::RankT - 2 - i]; });");
    }
    w_.line("return s;");
    w_.close();
    w_.line();
  }

  /// The transposed convolution's staging (abi_wrapper.h; its kernel in transposed_runtime.inc): every phase's filter,
  /// rebuilt on the stream before every run; the phases read X and write Y (and read C) in place.
  void transposed_staging() {
    AbiSlots slots = abi_slots(cfg_);
    const bool row_vectors = std::any_of(slots.vectors.begin(), slots.vectors.end(),
                                         [](const AbiSlots::Vector& v) { return v.axis == Axis::row; });
    w_.open("const char* staging_error(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line("if (const char* why = ucut_phases_error(c)) return why;");
    if (!cfg_.reductions().empty())
      w_.line("if (ucut_phase_count(c) > 1) return \"a strided transposed convolution with a reduction stage (each output "
              "phase is a launch of its own, and the reduction's partial results are per launch)\";");
    else if (row_vectors)
      w_.line("if (ucut_phase_count(c) > 1) return \"a strided transposed convolution with a per-pixel vector (each "
              "launch's rows are one output phase's pixels, not Y's)\";");
    w_.line("return nullptr;");
    w_.close();
    w_.comment("The staged buffer holds the phases' filters.");
    w_.open("size_t staging_bytes(const ucut_gemm_args* a)");
    w_.line("return size_t(ucut_round_up(ucut_phases_filter_elements(a->conv) * int64_t(sizeof(ElementB)), 256));");
    w_.close();
    w_.open("ucut_gemm_args staged_arguments(const ucut_gemm_args* a, char* scratch)");
    w_.line("ucut_gemm_args k = *a;");
    w_.line("k.b.ptr = scratch;");
    w_.line("return k;");
    w_.close();
    w_.line("ucut_gemm_args checked_arguments(const ucut_gemm_args* k) { return *k; }");
    w_.open("cudaError_t stage_in(const ucut_gemm_args* a, const ucut_gemm_args* k, cudaStream_t stream)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line("int64_t widest = 0;");
    w_.line("for (int32_t i = 0; i < ucut_phase_count(c); ++i) widest = std::max(widest, ucut_phase_filter_elements(c, ucut_phase_of(c, i)));");
    w_.line("dim3 grid(ucut_blocks_for(widest), unsigned(ucut_phase_count(c)));");
    w_.line("ucut_phase_filters<<<grid, 256, 0, stream>>>(static_cast<const ElementB*>(a->b.ptr), "
            "static_cast<ElementB*>(k->b.ptr), c);");
    w_.line("return cudaGetLastError();");
    w_.close();
    w_.comment("Nothing to copy back: every phase writes its pixels of Y in place.");
    w_.line("cudaError_t stage_out(const ucut_gemm_args*, const ucut_gemm_args*, cudaStream_t) { return cudaSuccess; }");
    w_.line();
  }

  /// A transposed convolution's launches: one per output phase with rows, on X, its filter, Y (and C) at the phase's
  /// offsets.
  void phase_arguments() {
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("typename Gemm::Arguments args{};");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.open("for (int32_t i = 0; i < ucut_phase_count(c); ++i)");
    w_.line("const ucut_phase p = ucut_phase_of(c, i);");
    w_.line("if (p.empty) continue;");
    w_.line("ucut_gemm_args k = *a;");
    w_.line("k.a.ptr = static_cast<ElementA*>(a->a.ptr) + ucut_phase_x_offset(c, p);");
    w_.line("k.b.ptr = static_cast<ElementB*>(a->b.ptr) + p.filter_offset;");
    if (cfg_.has_source()) w_.line("k.c.ptr = static_cast<ElementC*>(a->c.ptr) + ucut_phase_y_offset(c, p);");
    w_.line("k.d.ptr = static_cast<ElementD*>(a->d.ptr) + ucut_phase_y_offset(c, p);");
    w_.line("args.launches.push_back(launch_arguments(&k, device, phase_shape(c, p)));");
    w_.close();
    w_.line("if (!args.launches.empty()) static_cast<typename Adapter::Arguments&>(args) = args.launches.front();");
    w_.line("return args;");
    w_.close();
    w_.line();
  }

  void host_api() {
    const bool transposed = kind_ == ConvKind::dgrad;
    w_.comment("The convolution: ucut_conv_args (the forward geometry: X [n, (d, h,) w, c], W [k, (t, r,) s, c]) in");
    w_.comment(transposed ? "CUTLASS's order for each output phase's forward convolution."
                          : "CUTLASS's order; symmetric padding, cross-correlation as in PyTorch.");
    problem_shape();
    output_stride();
    w_.open(transposed ? "typename Adapter::Arguments launch_arguments(const ucut_gemm_args* a, int device, const ProblemShape& shape)"
                       : "typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line(transposed ? "typename Adapter::Arguments args{};" : "typename Gemm::Arguments args{};");
    w_.line(transposed ? "args.problem_shape = shape;" : "args.problem_shape = problem_shape(a);");
    w_.line("args.mainloop.ptr_A = static_cast<const ElementA*>(a->a.ptr);");
    w_.line("args.mainloop.ptr_B = static_cast<const ElementB*>(a->b.ptr);");
    write_epilogue_arguments(w_, cfg_, evt_, "output_stride<typename ConvKernel::StrideC>(args.problem_shape)",
                             "output_stride<typename ConvKernel::StrideD>(args.problem_shape)");
    w_.line("args.hw_info.device_id = device;");
    w_.line("args.hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);");
    w_.line("return args;");
    w_.close();
    w_.line();
    if (transposed) {
      transposed_staging();
      phase_arguments();
    }
    write_host_api(w_, src_, cfg_,
                   {.backend_staging = transposed,
                    .epilogue_collective = cfg_.reductions().empty() ? "" : "ConvKernel::CollectiveEpilogue"});
  }

  const SourceFile& src_;
  const KernelConfig& cfg_;
  std::string ns_;
  int dims_;
  ConvKind kind_;
  CppWriter w_;
  EvtTree evt_;
};

}  // namespace

EmittedKernel emit_conv(const SourceFile& src, const KernelConfig& cfg) { return ConvEmitter(src, cfg).run(); }

}  // namespace ucut::sm90
