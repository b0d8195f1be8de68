// emit/sm90/conv.cpp — see conv.h. The harness's ucut_conv_args (always the forward convolution's geometry)
// become a cutlass::conv::ConvProblemShape (cross-correlation, as in PyTorch), and the output's epilogue strides
// come from that shape.
//   fprop  CUTLASS's kFprop implicit GEMM.
//   wgrad  CUTLASS's kWgrad implicit GEMM (DW[K, (C,S,R,T)] = DY^T im2col(X)).
//   dgrad  (a transposed convolution) CUTLASS's kFprop kernel over the filter flipped in space with its channel
//          modes swapped, padded by dilation (filter - 1) - pad: CUTLASS's own kDgrad kernel reads the filter
//          N-major, which wgmma cannot do for tf32, and needs stride 1 on SM90 just the same. The flip runs as a
//          staging kernel before every launch (abi_wrapper.h), so its time is part of the kernel's.
#include "emit/sm90/conv.h"

#include <fmt/format.h>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/sm90/kernel_parts.h"
#include "ir/canonical.h"

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
    default: return {"c.n, c.d, c.h, c.w, c.c", "c.k, c.t, c.r, c.s, c.c", {0, 1, 2}};
  }
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
    open_kernel_file(w_, src_, cfg_, gencode,
                     // kernel_hardware_info.hpp first: CUTLASS 4.2's conv collectives use it without including it.
                     {"<cstdint>", "<cstdio>", "<new>", "<cuda_runtime.h>", "<cute/tensor.hpp>", "<cutlass/cutlass.h>",
                      "<cutlass/kernel_hardware_info.hpp>", "<cutlass/conv/collective/collective_builder.hpp>", "<cutlass/conv/convnd_problem_shape.hpp>",
                      "<cutlass/conv/device/conv_universal_adapter.hpp>", "<cutlass/conv/dispatch_policy.hpp>",
                      "<cutlass/conv/kernel/conv_universal.hpp>",
                      "<cutlass/epilogue/collective/collective_builder.hpp>",
                      "<cutlass/epilogue/fusion/sm90_callbacks_tma_warpspecialized.hpp>",
                      "<cutlass/epilogue/thread/activation.h>"},
                     ns_);
    write_operand_types(w_, cfg_);
    write_epilogue_types(w_, cfg_);
    kernel_types();
    host_api();
    close_kernel_file(w_, ns_);
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode, {}};
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
    w_.comment("The ABI wrapper drives any CUTLASS device adapter under this name.");
    w_.alias("Gemm", "cutlass::conv::device::ConvUniversalAdapter<ConvKernel>");
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
    w_.open("ProblemShape problem_shape(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    if (kind_ == ConvKind::dgrad) {
      // The forward convolution of the transposed input (the ABI's output extents, k channels) with the flipped
      // filter [c, (t, r,) s, k] gives the ABI's input extents with c channels (stride 1).
      static const char* const act[] = {"c.n, c.q, c.k", "c.n, c.p, c.q, c.k", "c.n, c.z, c.p, c.q, c.k"};
      static const char* const flt[] = {"c.c, c.s, c.k", "c.c, c.r, c.s, c.k", "c.c, c.t, c.r, c.s, c.k"};
      static const char* const extent[] = {"c.t", "c.r", "c.s"};
      std::string pad, ones;
      for (int i : n.spatial) {
        pad += fmt::format("{}c.dilation[{}] * ({} - 1) - c.pad[{}]", pad.empty() ? "" : ", ", i, extent[i], i);
        ones += ones.empty() ? "1" : ", 1";
      }
      w_.line(fmt::format("typename ProblemShape::TensorExtent act{{{}}};", act[dims_ - 1]));
      w_.line(fmt::format("typename ProblemShape::TensorExtent flt{{{}}};", flt[dims_ - 1]));
      w_.line(fmt::format("typename ProblemShape::ShapePadding pad{{{}}};", pad));
      w_.line(fmt::format("typename ProblemShape::TraversalStride stride{{{}}};", ones));
    } else {
      w_.line(fmt::format("typename ProblemShape::TensorExtent act{{{}}};", n.act));
      w_.line(fmt::format("typename ProblemShape::TensorExtent flt{{{}}};", n.flt));
      w_.line(fmt::format("typename ProblemShape::ShapePadding pad{{{}}};", spatial("pad")));
      w_.line(fmt::format("typename ProblemShape::TraversalStride stride{{{}}};", spatial("stride")));
    }
    w_.line(fmt::format("typename ProblemShape::ShapeDilation dilation{{{}}};", spatial("dilation")));
    w_.line("return ProblemShape(cutlass::conv::Mode::kCrossCorrelation, act, flt, pad, pad, stride, dilation, 1);");
    w_.close();
    w_.line();
  }

  /// The output's epilogue stride from the problem's packed C strides: pixel modes ((q, p, z, n), channels, batch),
  /// or a filter gradient's (k, (c, s, r, t), batch).
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

  /// The transposed convolution's staging (abi_wrapper.h): the flipped filter in scratch memory, rebuilt on the
  /// stream before every run.
  void filter_flip_staging() {
    w_.comment("The flipped filter F[c][t][r][s][k] = W[k][T-1-t][R-1-r][S-1-s][c] (one thread per element of F).");
    w_.line("__global__ void flip_filter(const ElementB* w, ElementB* f, ucut_conv_args c) {");
    w_.line("  const int64_t total = int64_t(c.k) * c.t * c.r * c.s * c.c;");
    w_.line("  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;");
    w_.line("       i += int64_t(gridDim.x) * blockDim.x) {");
    w_.line("    int64_t k = i % c.k, rest = i / c.k;");
    w_.line("    int64_t s = rest % c.s; rest /= c.s;");
    w_.line("    int64_t r = rest % c.r; rest /= c.r;");
    w_.line("    int64_t t = rest % c.t, ch = rest / c.t;");
    w_.line("    f[i] = w[(((k * c.t + (c.t - 1 - t)) * c.r + (c.r - 1 - r)) * c.s + (c.s - 1 - s)) * c.c + ch];");
    w_.line("  }");
    w_.line("}");
    w_.line();
    w_.line("int64_t filter_elements(const ucut_gemm_args* a) {");
    w_.line("  return int64_t(a->conv.k) * a->conv.t * a->conv.r * a->conv.s * a->conv.c;");
    w_.line("}");
    w_.open("const char* staging_error(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line("const int32_t filter[3] = {c.t, c.r, c.s};");
    w_.open(fmt::format("for (int i = {}; i < 3; ++i)", 3 - dims_));
    w_.line("if (c.stride[i] != 1) return \"a transposed convolution with stride > 1 (this kernel runs stride 1)\";");
    w_.line("if (c.pad[i] > c.dilation[i] * (filter[i] - 1))");
    w_.line("  return \"a transposed convolution padded beyond dilation x (filter - 1)\";");
    w_.close();
    w_.line("return nullptr;");
    w_.close();
    w_.line("size_t staging_bytes(const ucut_gemm_args* a) {");
    w_.line("  return size_t(ucut_round_up(filter_elements(a) * int64_t(sizeof(ElementB)), 256));");
    w_.line("}");
    w_.open("ucut_gemm_args staged_arguments(const ucut_gemm_args* a, char* scratch)");
    w_.line("ucut_gemm_args k = *a;");
    w_.line("k.b.ptr = scratch;");
    w_.line("return k;");
    w_.close();
    w_.line("ucut_gemm_args checked_arguments(const ucut_gemm_args* k) { return *k; }");
    w_.open("cudaError_t stage_in(const ucut_gemm_args* a, const ucut_gemm_args* k, cudaStream_t stream)");
    w_.line("int64_t blocks = (filter_elements(a) + 255) / 256;");
    w_.line("flip_filter<<<unsigned(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(");
    w_.line("    static_cast<const ElementB*>(a->b.ptr), static_cast<ElementB*>(k->b.ptr), a->conv);");
    w_.line("return cudaGetLastError();");
    w_.close();
    w_.line("cudaError_t stage_out(const ucut_gemm_args*, const ucut_gemm_args*, cudaStream_t) { return cudaSuccess; }");
    w_.line();
  }

  void host_api() {
    w_.comment("The convolution: ucut_conv_args (the forward geometry: X [n, (d, h,) w, c], W [k, (t, r,) s, c]) in");
    w_.comment(kind_ == ConvKind::dgrad ? "CUTLASS's order for the forward convolution over the flipped filter."
                                        : "CUTLASS's order; symmetric padding, cross-correlation as in PyTorch.");
    problem_shape();
    output_stride();
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("typename Gemm::Arguments args{};");
    w_.line("args.problem_shape = problem_shape(a);");
    w_.line("args.mainloop.ptr_A = static_cast<const ElementA*>(a->a.ptr);");
    w_.line("args.mainloop.ptr_B = static_cast<const ElementB*>(a->b.ptr);");
    write_epilogue_arguments(w_, cfg_, evt_, "output_stride<typename ConvKernel::StrideC>(args.problem_shape)",
                             "output_stride<typename ConvKernel::StrideD>(args.problem_shape)");
    w_.line("args.hw_info.device_id = device;");
    w_.line("args.hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);");
    w_.line("return args;");
    w_.close();
    w_.line();
    const bool flip = kind_ == ConvKind::dgrad;
    if (flip) filter_flip_staging();
    write_host_api(w_, src_, cfg_,
                   {.backend_staging = flip,
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
