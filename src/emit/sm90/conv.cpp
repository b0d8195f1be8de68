// emit/sm90/conv.cpp — see conv.h. The harness's ucut_conv_args (always the forward convolution's geometry)
// become a cutlass::conv::ConvProblemShape (cross-correlation, as in PyTorch), and the output's epilogue strides
// come from that shape.
//   fprop  CUTLASS's kFprop implicit GEMM.
//   wgrad  CUTLASS's kWgrad implicit GEMM (DW[K, (C,S,R,T)] = DY^T im2col(X)).
//   dgrad  (a transposed convolution) CUTLASS's kFprop kernel: at stride 1 over the filter flipped in space with
//          its channel modes swapped, padded by dilation (filter - 1) - pad (CUTLASS's own kDgrad kernel reads the
//          filter N-major, which wgmma cannot do for tf32, and needs stride 1 on SM90 just the same); at larger
//          strides as a sub-pixel convolution (templates/subpixel_geometry.h) whose phases a copy scatters into Y.
//          The staging kernels run before and after every launch (abi_wrapper.h), so their time is the kernel's.
#include "emit/sm90/conv.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/sm90/kernel_parts.h"
#include "ir/abi_slots.h"
#include "ir/canonical.h"
#include "support/embedded.h"

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
                     ns_, kind_ == ConvKind::dgrad ? std::vector<std::string_view>{"subpixel_geometry.h"}
                                                   : std::vector<std::string_view>{});
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
    if (kind_ == ConvKind::dgrad) {
      // Phases without a tap all equal the epilogue of zero unless the epilogue reads a per-pixel input (C).
      w_.comment(cfg_.has_source() ? "The sub-pixel geometry at stride > 1: every phase computed (C differs per pixel)."
                                   : "The sub-pixel geometry at stride > 1: the phases without a tap share one channel "
                                     "set.");
      w_.line(fmt::format("ucut_subpixel subpixel(const ucut_conv_args& c) {{ return ucut_subpixel_of(c, {}); }}",
                          cfg_.has_source() ? 0 : 1));
      w_.line();
    }
    w_.open("ProblemShape problem_shape(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    if (kind_ == ConvKind::dgrad) {
      // At stride > 1 the sub-pixel convolution (subpixel_geometry.h): the transposed input with the sub-pixel
      // filter [phases * c, window..., k], its own padding below and above, stride and dilation 1.
      static const char* const act[] = {"c.n, c.q, c.k", "c.n, c.p, c.q, c.k", "c.n, c.z, c.p, c.q, c.k"};
      std::string window, lo, hi, ones;
      for (int i : n.spatial) {
        const char* sep = ones.empty() ? "" : ", ";
        window += fmt::format(", g.window[{}]", i);
        lo += fmt::format("{}g.pad_lo[{}]", sep, i);
        hi += fmt::format("{}g.pad_hi[{}]", sep, i);
        ones += fmt::format("{}1", sep);
      }
      w_.open("if (ucut_is_subpixel(c))");
      w_.line("ucut_subpixel g = subpixel(c);");
      w_.line(fmt::format("typename ProblemShape::TensorExtent act{{{}}};", act[dims_ - 1]));
      w_.line(fmt::format("typename ProblemShape::TensorExtent flt{{g.phases * c.c{}, c.k}};", window));
      w_.line(fmt::format("typename ProblemShape::ShapePadding lo{{{}}}, hi{{{}}};", lo, hi));
      w_.line(fmt::format("typename ProblemShape::TraversalStride stride{{{}}};", ones));
      w_.line(fmt::format("typename ProblemShape::ShapeDilation dilation{{{}}};", ones));
      w_.line("return ProblemShape(cutlass::conv::Mode::kCrossCorrelation, act, flt, lo, hi, stride, dilation, 1);");
      w_.close();
      // At stride 1 the forward convolution of the transposed input (the ABI's output extents, k channels) with
      // the flipped filter [c, (t, r,) s, k] gives the ABI's input extents with c channels.
      static const char* const flt[] = {"c.c, c.s, c.k", "c.c, c.r, c.s, c.k", "c.c, c.t, c.r, c.s, c.k"};
      static const char* const extent[] = {"c.t", "c.r", "c.s"};
      std::string pad;
      for (int i : n.spatial)
        pad += fmt::format("{}c.dilation[{}] * ({} - 1) - c.pad[{}]", pad.empty() ? "" : ", ", i, extent[i], i);
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

  /// The transposed convolution's staging (abi_wrapper.h, transposed_runtime.inc), rebuilt on the stream before
  /// every run: the flipped filter at stride 1; at larger strides the sub-pixel filter, the forward convolution's
  /// output (scattered into Y after the run), C in that output's layout and the per-channel vectors repeated for
  /// every phase.
  void transposed_staging() {
    AbiSlots slots = abi_slots(cfg_);
    const bool row_vectors = std::any_of(slots.vectors.begin(), slots.vectors.end(),
                                         [](const AbiSlots::Vector& v) { return v.axis == Axis::row; });
    w_.verbatim(*embedded_file("transposed_runtime.inc"));
    w_.line();
    w_.comment("Elements of the filter the kernel reads, and of the sub-pixel convolution's output (0 at stride 1).");
    w_.open("int64_t filter_elements(const ucut_conv_args& c)");
    w_.line("if (!ucut_is_subpixel(c)) return int64_t(c.k) * c.t * c.r * c.s * c.c;");
    w_.line("return ucut_subpixel_filter_elements(subpixel(c), c);");
    w_.close();
    w_.open("int64_t subpixel_elements(const ucut_conv_args& c)");
    w_.line("if (!ucut_is_subpixel(c)) return 0;");
    w_.line("ucut_subpixel g = subpixel(c);");
    w_.line("return int64_t(c.n) * g.extent[0] * g.extent[1] * g.extent[2] * g.phases * c.c;");
    w_.close();
    w_.open("const char* staging_error(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.open("if (ucut_is_subpixel(c))");
    if (!cfg_.reductions().empty())
      w_.line("return \"a strided transposed convolution with a reduction stage (the kernel's output is the sub-pixel "
              "convolution's, whose channels are phases of Y's)\";");
    else if (row_vectors)
      w_.line("return \"a strided transposed convolution with a per-pixel vector (the kernel's rows are the sub-pixel "
              "convolution's, not Y's pixels)\";");
    else
      w_.line("return ucut_subpixel_error(subpixel(c), c);");
    w_.close();
    w_.line("const int32_t filter[3] = {c.t, c.r, c.s};");
    w_.open(fmt::format("for (int i = {}; i < 3; ++i)", 3 - dims_));
    w_.line("if (c.pad[i] > c.dilation[i] * (filter[i] - 1))");
    w_.line("  return \"a stride-1 transposed convolution padded beyond dilation x (filter - 1)\";");
    w_.close();
    w_.line("return nullptr;");
    w_.close();
    // The scratch buffers (the staged argument each replaces, its element type and count), in one order for
    // staging_bytes and staged_arguments.
    using Each = std::function<void(const std::string&, const std::string&, const std::string&)>;
    auto buffers = [&](const Each& each) {
      each("k.b.ptr", "ElementB", "filter_elements(a->conv)");
      w_.open("if (ucut_is_subpixel(a->conv))");
      each("k.d.ptr", "ElementD", "subpixel_elements(a->conv)");
      if (cfg_.has_source()) each("k.c.ptr", "ElementC", "subpixel_elements(a->conv)");
      for (size_t i = 0; i < slots.vectors.size(); ++i)
        each(fmt::format("k.vectors[{}]", i), std::string(cutlass_type(slots.vectors[i].dtype)),
             "int64_t(subpixel(a->conv).phases) * a->conv.c");
      w_.close();
    };
    w_.open("size_t staging_bytes(const ucut_gemm_args* a)");
    w_.line("int64_t total = 0;");
    buffers([&](const std::string&, const std::string& type, const std::string& count) {
      w_.line(fmt::format("total += ucut_round_up({} * int64_t(sizeof({})), 256);", count, type));
    });
    w_.line("return size_t(total);");
    w_.close();
    w_.open("ucut_gemm_args staged_arguments(const ucut_gemm_args* a, char* scratch)");
    w_.line("ucut_gemm_args k = *a;");
    buffers([&](const std::string& field, const std::string& type, const std::string& count) {
      w_.line(fmt::format("{} = scratch;", field));
      w_.line(fmt::format("scratch += ucut_round_up({} * int64_t(sizeof({})), 256);", count, type));
    });
    w_.line("return k;");
    w_.close();
    w_.line("ucut_gemm_args checked_arguments(const ucut_gemm_args* k) { return *k; }");
    w_.open("cudaError_t stage_in(const ucut_gemm_args* a, const ucut_gemm_args* k, cudaStream_t stream)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line("const ElementB* w = static_cast<const ElementB*>(a->b.ptr);");
    w_.line("ElementB* f = static_cast<ElementB*>(k->b.ptr);");
    w_.open("if (!ucut_is_subpixel(c))");
    w_.line("ucut_flip_filter<<<ucut_blocks_for(filter_elements(c)), 256, 0, stream>>>(w, f, c);");
    w_.line("return cudaGetLastError();");
    w_.close();
    w_.line("ucut_subpixel g = subpixel(c);");
    w_.line("ucut_subpixel_filter<<<ucut_blocks_for(filter_elements(c)), 256, 0, stream>>>(w, f, c, g);");
    w_.line("cudaError_t e = cudaGetLastError();");
    if (cfg_.has_source())
      w_.line("if (e == cudaSuccess) e = ucut_subpixel_shuffle_as<ElementC, false>(static_cast<ElementC*>(k->c.ptr), "
              "static_cast<ElementC*>(a->c.ptr), c, g, stream);");
    for (size_t i = 0; i < slots.vectors.size(); ++i) {
      std::string type(cutlass_type(slots.vectors[i].dtype));
      w_.open("if (e == cudaSuccess)");
      w_.line(fmt::format("ucut_repeat_vector<<<ucut_blocks_for(int64_t(g.phases) * c.c), 256, 0, stream>>>("
                          "static_cast<const {0}*>(a->vectors[{1}]), static_cast<{0}*>(const_cast<void*>(k->vectors[{1}])), "
                          "c.c, g.phases);",
                          type, i));
      w_.line("e = cudaGetLastError();");
      w_.close();
    }
    w_.line("return e;");
    w_.close();
    w_.open("cudaError_t stage_out(const ucut_gemm_args* a, const ucut_gemm_args* k, cudaStream_t stream)");
    w_.line("if (!ucut_is_subpixel(a->conv)) return cudaSuccess;");
    w_.line("return ucut_subpixel_shuffle_as<ElementD, true>(static_cast<ElementD*>(k->d.ptr), "
            "static_cast<ElementD*>(a->d.ptr), a->conv, subpixel(a->conv), stream);");
    w_.close();
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
    const bool transposed = kind_ == ConvKind::dgrad;
    if (transposed) transposed_staging();
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
