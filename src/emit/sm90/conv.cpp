// emit/sm90/conv.cpp — see conv.h. Forward convolution (fprop) over channels-last X[N,(D,H,)W,C] and
// W[K,(T,R,)S,C]; the harness's ucut_conv_args become a cutlass::conv::ConvProblemShape (cross-correlation, as in
// PyTorch), and Y's epilogue strides come from that shape.
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
      : src_(src), cfg_(cfg), ns_(kernel_namespace(cfg)), dims_(op_spatial_dims(cfg.op.value)) {}

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
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode};
  }

 private:
  void kernel_types() {
    w_.alias("TileShape", tile_shape(cfg_.tile.value, /*nested_k=*/true));
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
    w_.line("    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, cutlass::conv::Operator::kFprop,");
    w_.line("    ElementA, LayoutA, AlignmentA, ElementB, LayoutB, AlignmentB, ElementAccumulator,");
    w_.line(fmt::format("    TileShape, ClusterShape, {},", stages));
    w_.line("    KernelSchedule>::CollectiveOp;");
    w_.alias("ProblemShape", fmt::format("cutlass::conv::ConvProblemShape<cutlass::conv::Operator::kFprop, {}>", dims_));
    w_.alias("ConvKernel", "cutlass::conv::kernel::ConvUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>");
    w_.comment("The ABI wrapper drives any CUTLASS device adapter under this name.");
    w_.alias("Gemm", "cutlass::conv::device::ConvUniversalAdapter<ConvKernel>");
    write_smem_assert(w_, cfg_, "ConvKernel");
    w_.line();
  }

  void host_api() {
    ConvNames n = names_for(dims_);
    auto spatial = [&](const char* field) {
      std::string out;
      for (int i : n.spatial) out += fmt::format("{}c.{}[{}]", out.empty() ? "" : ", ", field, i);
      return out;
    };
    w_.comment("The convolution: ucut_conv_args in CUTLASS's order (X [n, (d, h,) w, c], W [k, (t, r,) s, c]),");
    w_.comment("symmetric padding, cross-correlation as in PyTorch.");
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
    w_.comment("Y's epilogue stride: the packed output's strides over its pixel modes ((q, p, z, n), k, batch).");
    w_.line("template <class Stride>");
    w_.open("Stride output_stride(const ProblemShape& p)");
    w_.line("Stride s{};");
    w_.line("cute::for_each(cute::make_seq<cute::rank<0>(Stride{})>{},");
    w_.line("               [&](auto i) { cute::get<0, i>(s) = p.stride_C[ProblemShape::RankT - 2 - i]; });");
    w_.line("return s;");
    w_.close();
    w_.line();
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
    write_host_api(w_, src_, cfg_, /*reinit_each_launch=*/false);
  }

  const SourceFile& src_;
  const KernelConfig& cfg_;
  std::string ns_;
  int dims_;
  CppWriter w_;
  EvtTree evt_;
};

}  // namespace

EmittedKernel emit_conv(const SourceFile& src, const KernelConfig& cfg) { return ConvEmitter(src, cfg).run(); }

}  // namespace ucut::sm90
