// emit/sm90/gemm.cpp — the SM90 backend and its GEMM emitter (convolutions: emit/sm90/conv.cpp, except pointwise ones
// on the persistent schedules, which run here as GEMMs): CUTLASS 3.x
// CollectiveBuilder mainloop + TMA epilogue with one EVT (emit/sm90/evt.cpp), wrapped in the kernel ABI
// (abi/kernel_abi.h).
#include <fmt/format.h>

#include "check/mma_table.h"
#include "emit/abi_wrapper.h"
#include "emit/backend.h"
#include "emit/cpp_writer.h"
#include "emit/sm90/conv.h"
#include "emit/sm90/kernel_parts.h"
#include "ir/canonical.h"
#include "ir/transpose.h"
#include "support/error.h"

namespace ucut::sm90 {
namespace {

/// A grouped GEMM's pointer-array kernels: CUTLASS 4.2 has the cooperative and the pingpong one (check: C106).
std::string grouped_kernel_schedule_tag(const KernelConfig& cfg) {
  bool fast = cfg.fp8_fast_accum.value;
  bool pingpong = cfg.kernel_schedule.value == KernelSchedule::tma_pingpong;
  return fmt::format("cutlass::gemm::KernelPtrArrayTmaWarpSpecialized{}{}", pingpong ? "Pingpong" : "Cooperative",
                     fast ? "FP8FastAccum" : "");
}

std::string kernel_schedule_tag(const KernelConfig& cfg) {
  if (cfg.grouped()) return grouped_kernel_schedule_tag(cfg);
  bool fast = cfg.fp8_fast_accum.value;
  switch (cfg.kernel_schedule.value) {
    case KernelSchedule::auto_: return "cutlass::gemm::collective::KernelScheduleAuto";
    case KernelSchedule::tma: return "cutlass::gemm::KernelTma";
    case KernelSchedule::tma_warpspecialized:
      return fast ? "cutlass::gemm::KernelTmaWarpSpecializedFP8FastAccum" : "cutlass::gemm::KernelTmaWarpSpecialized";
    case KernelSchedule::tma_cooperative:
      return fast ? "cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum"
                  : "cutlass::gemm::KernelTmaWarpSpecializedCooperative";
    case KernelSchedule::tma_pingpong:
      return fast ? "cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum"
                  : "cutlass::gemm::KernelTmaWarpSpecializedPingpong";
    case KernelSchedule::cp_async_warpspecialized: return "cutlass::gemm::KernelCpAsyncWarpSpecialized";
    case KernelSchedule::cp_async_cooperative: return "cutlass::gemm::KernelCpAsyncWarpSpecializedCooperative";
    case KernelSchedule::multistage: break;
  }
  UC_UNREACHABLE() << "KernelSchedule " << static_cast<int>(cfg.kernel_schedule.value)
                   << " on the sm90 backend (KernelConfig::backend sends multistage to the 2.x one)";
}

std::string epilogue_schedule_tag(const KernelConfig& cfg) {
  if (sm90_transposed_accumulators(cfg)) return "cutlass::gemm::EpilogueTransposed";  // check: C216
  EpilogueSchedule e = cfg.epilogue_schedule.value;
  if (cfg.grouped()) {  // the pointer-array epilogues: one TMA descriptor per problem, updated in the kernel
    if (e == EpilogueSchedule::nosmem) return "cutlass::epilogue::PtrArrayNoSmemWarpSpecialized";
    return cfg.kernel_schedule.value == KernelSchedule::tma_pingpong
               ? "cutlass::epilogue::PtrArrayTmaWarpSpecializedPingpong"
               : "cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative";
  }
  switch (e) {
    case EpilogueSchedule::auto_: return "cutlass::epilogue::collective::EpilogueScheduleAuto";
    case EpilogueSchedule::nosmem: return "cutlass::epilogue::NoSmemWarpSpecialized";
    case EpilogueSchedule::tma: return "cutlass::epilogue::TmaWarpSpecialized";
    case EpilogueSchedule::tma_cooperative: return "cutlass::epilogue::TmaWarpSpecializedCooperative";
  }
  UC_UNREACHABLE() << "EpilogueSchedule " << static_cast<int>(e);
}

std::string tile_scheduler_tag(TileScheduler t) {
  switch (t) {
    case TileScheduler::default_: return "void";
    case TileScheduler::persistent: return "cutlass::gemm::PersistentScheduler";
    case TileScheduler::stream_k:
    case TileScheduler::split_k: return "cutlass::gemm::StreamKScheduler";
  }
  UC_UNREACHABLE() << "TileScheduler " << static_cast<int>(t);
}

class GemmEmitter {
 public:
  GemmEmitter(const SourceFile& src, const KernelConfig& cfg)
      : src_(src), cfg_(cfg), kernel_(kernel_frame(cfg)), ns_(kernel_namespace(cfg)) {}

  EmittedKernel run() {
    std::string gencode = gencode_for(cfg_);
    open_kernel_file(w_, src_, cfg_, gencode,
                     {"<cstdint>", "<cstdio>", "<new>", "<cuda_runtime.h>", "<cute/tensor.hpp>", "<cutlass/cutlass.h>",
                      "<cutlass/epilogue/collective/collective_builder.hpp>",
                      "<cutlass/epilogue/fusion/sm90_callbacks_tma_warpspecialized.hpp>",
                      "<cutlass/epilogue/thread/activation.h>", "<cutlass/gemm/collective/collective_builder.hpp>",
                      "<cutlass/gemm/device/gemm_universal_adapter.h>", "<cutlass/gemm/dispatch_policy.hpp>",
                      "<cutlass/gemm/kernel/gemm_universal.hpp>", "<cutlass/kernel_hardware_info.hpp>"},
                     ns_);
    element_types();
    kernel_types();
    host_api();
    close_kernel_file(w_, ns_);
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode, {}, {}};
  }

 private:
  // The CUTLASS types describe the problem the kernel runs (kernel_: D^T = B^T A^T when B converts in the
  // mainloop); the host API and the ABI wrapper the caller's (cfg_).
  void element_types() {
    if (cfg_.computes_transpose())
      w_.comment("The kernel runs the transposed problem D^T = B^T A^T: B converts in the mainloop, which CUTLASS "
                 "does to A.");
    write_operand_types(w_, kernel_);
    write_epilogue_types(w_, kernel_);
  }

  /// The builder's element for an operand: a mainloop conversion is CUTLASS's one-element tuple (no scale).
  std::string builder_element(const TensorDecl& t, const char* name) const {
    return t.converts_in_mainloop.value ? fmt::format("cute::tuple<Element{}>", name) : fmt::format("Element{}", name);
  }

  void kernel_types() {
    w_.alias("TileShape", tile_shape(cfg_.tile.value));
    w_.alias("ClusterShape", tile_shape(cfg_.cluster.value));
    w_.alias("KernelSchedule", kernel_schedule_tag(kernel_));
    w_.alias("EpilogueSchedule", epilogue_schedule_tag(kernel_));
    w_.line();
    evt_ = write_fusion(w_, kernel_);
    w_.line();
    // A grouped GEMM's builders take pointers to the layouts: each problem has its own strides, in device memory.
    const char* ptr = cfg_.grouped() ? " *" : "";
    write_collective_epilogue(w_, ptr);
    std::string stages = stage_count(cfg_, "cutlass::gemm::collective");
    w_.line("using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<");
    w_.line(fmt::format("    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, {}, LayoutA{}, AlignmentA,",
                        builder_element(kernel_.a, "A"), ptr));
    w_.line(fmt::format("    {}, LayoutB{}, AlignmentB, ElementAccumulator, TileShape, ClusterShape,",
                        builder_element(kernel_.b, "B"), ptr));
    w_.line(fmt::format("    {},", stages));
    w_.line("    KernelSchedule>::CollectiveOp;");
    if (cfg_.grouped()) {
      w_.alias("ProblemShape", "cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>");
      w_.comment("The pointer-array kernel brings its own group tile scheduler.");
      w_.line("using GemmKernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>;");
    } else {
      w_.line("using GemmKernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>,");
      w_.line(fmt::format("    CollectiveMainloop, CollectiveEpilogue, {}>;", tile_scheduler_tag(cfg_.tile_scheduler.value)));
    }
    w_.alias("Gemm", "cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>");
    write_smem_assert(w_, kernel_, "GemmKernel");
    if (cfg_.grouped()) group_layout_asserts();
    w_.line();
  }

  /// The kernel ABI hands a grouped GEMM its problem list and leading dimensions as plain int32 triples and int64
  /// arrays, read in place as CUTLASS's per-problem shapes and strides: each stride has one dynamic mode.
  void group_layout_asserts() {
    w_.line("static_assert(sizeof(typename ProblemShape::UnderlyingProblemShape) == 3 * sizeof(int32_t),");
    w_.line("              \"a problem is {m, n, k} as three int32 (ucut_group_args::problems)\");");
    for (const char* t : {"A", "B", "C", "D"}) {
      w_.line(fmt::format("static_assert(sizeof(typename GemmKernel::InternalStride{}) == sizeof(int64_t),", t));
      w_.line(fmt::format("              \"{}'s per-problem stride is its leading dimension (ucut_group_args::ld{})\");", t,
                          char(t[0] - 'A' + 'a')));
    }
  }

  void host_api() {
    if (cfg_.grouped()) return grouped_host_api();
    if (cfg_.conv_as_gemm()) return conv_host_api();
    const EpiOp* res = cfg_.source_stage();
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("typename Gemm::Arguments args{};");
    w_.line("args.mode = a->batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;");
    // The transposed problem exchanges M and N and the operands; the M x N tensors keep their leading dimensions
    // (their layouts flipped in the kernel's types).
    const bool t = cfg_.computes_transpose();
    const char* m = t ? "n" : "m";
    const char* n = t ? "m" : "n";
    w_.line(fmt::format("args.problem_shape = {{int(a->{}), int(a->{}), int(a->k), int(a->batch)}};", m, n));
    for (const auto& [operand, from] : {std::pair{"A", t ? "b" : "a"}, std::pair{"B", t ? "a" : "b"}}) {
      w_.line(fmt::format("args.mainloop.ptr_{0} = static_cast<const Element{0}*>(a->{1}.ptr);", operand, from));
      w_.line(fmt::format("args.mainloop.d{0} = ucut_make_stride<typename GemmKernel::Stride{0}>(a->{1}.ld, "
                          "a->{1}.batch_stride);",
                          operand, from));
    }
    const char* c = res ? "a->c" : "a->d";  // without a residual, dC only has to be well-formed
    write_epilogue_arguments(w_, kernel_, evt_,
                             fmt::format("ucut_make_stride<typename GemmKernel::StrideC>({}.ld, {}.batch_stride)", c, c),
                             "ucut_make_stride<typename GemmKernel::StrideD>(a->d.ld, a->d.batch_stride)");
    close_make_arguments();

    // The non-persistent kernel gives its epilogue no workspace of its own: the host API adds the reductions' and
    // zeroes their counters itself; the kernel's initialize would do nothing for them.
    bool own_epilogue_workspace =
        !cfg_.reductions().empty() && cfg_.kernel_schedule.value == KernelSchedule::tma_warpspecialized;
    // Stream-K/split-K and the epilogue's reductions count finished tiles in workspace counters.
    bool reinit = cfg_.tile_scheduler.value == TileScheduler::stream_k ||
                  cfg_.tile_scheduler.value == TileScheduler::split_k ||
                  (!cfg_.reductions().empty() && !own_epilogue_workspace);
    write_host_api(w_, src_, cfg_,
                   {.reinit_each_launch = reinit,
                    .epilogue_collective = own_epilogue_workspace ? "GemmKernel::CollectiveEpilogue" : ""});
  }

  /// A convolution run as a GEMM (KernelConfig::conv_as_gemm): pixels (n, z, p, q) are M, W's k filters N and
  /// their channels K, all packed channels-last. Only a pointwise geometry is such a GEMM: X's copy under
  /// `fold(all)` always is (the copy absorbed the filter, stride and padding); anything else is refused.
  void conv_host_api() {
    const int dims = op_spatial_dims(cfg_.op.value);
    w_.open("const char* pointwise_error(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line(fmt::format("if (c.t != 1 || c.r != 1 || c.s != 1) return \"the persistent GEMM schedules run a convolution "
                        "whose filter is 1x1 (or whose X is copied with `pad fold({})`); use `tma_warpspecialized`\";",
                        dims));
    w_.line("for (int i = 0; i < 3; ++i)");
    w_.line("  if (c.stride[i] != 1 || c.pad[i] != 0) return \"the persistent GEMM schedules run a convolution at stride 1 "
            "without padding; use `tma_warpspecialized`\";");
    w_.line("if (a->m > INT32_MAX || a->k > INT32_MAX) return \"more than 2^31 - 1 pixels or channels in one GEMM\";");
    w_.line("return nullptr;");
    w_.close();
    w_.line();
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("typename Gemm::Arguments args{};");
    w_.line("args.mode = cutlass::gemm::GemmUniversalMode::kGemm;");
    w_.line("args.problem_shape = {int(a->m), int(a->n), int(a->k), 1};");
    w_.line("args.mainloop.ptr_A = static_cast<const ElementA*>(a->a.ptr);");
    w_.line("args.mainloop.dA = ucut_make_stride<typename GemmKernel::StrideA>(a->k, 0);");
    w_.line("args.mainloop.ptr_B = static_cast<const ElementB*>(a->b.ptr);");
    w_.line("args.mainloop.dB = ucut_make_stride<typename GemmKernel::StrideB>(a->k, 0);");
    write_epilogue_arguments(w_, cfg_, evt_, "ucut_make_stride<typename GemmKernel::StrideC>(a->n, 0)",
                             "ucut_make_stride<typename GemmKernel::StrideD>(a->n, 0)");
    close_make_arguments();
    write_host_api(w_, src_, cfg_, {.argument_check = "pointwise_error"});
  }

  void grouped_host_api() {
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("using Problem = typename ProblemShape::UnderlyingProblemShape;");
    w_.line("const ucut_group_args& g = a->group;");
    w_.line("typename Gemm::Arguments args{};");
    w_.line("args.mode = cutlass::gemm::GemmUniversalMode::kGrouped;");
    w_.line("args.problem_shape = {int(g.count), reinterpret_cast<Problem*>(const_cast<int32_t*>(g.problems)),");
    w_.line("                      reinterpret_cast<const Problem*>(g.problems_host)};");
    w_.line("args.mainloop.ptr_A = reinterpret_cast<const ElementA**>(const_cast<const void**>(g.a));");
    w_.line("args.mainloop.dA = reinterpret_cast<typename GemmKernel::InternalStrideA*>(const_cast<int64_t*>(g.lda));");
    w_.line("args.mainloop.ptr_B = reinterpret_cast<const ElementB**>(const_cast<const void**>(g.b));");
    w_.line("args.mainloop.dB = reinterpret_cast<typename GemmKernel::InternalStrideB*>(const_cast<int64_t*>(g.ldb));");
    w_.line(cfg_.has_source() ? "args.epilogue.ptr_C = reinterpret_cast<const ElementC**>(const_cast<const void**>(g.c));"
                              : "args.epilogue.ptr_C = nullptr;");
    // Without a residual, dC only has to be well-formed: D's strides serve.
    w_.line(fmt::format("args.epilogue.dC = reinterpret_cast<typename GemmKernel::InternalStrideC*>(const_cast<int64_t*>(g.{}));",
                        cfg_.has_source() ? "ldc" : "ldd"));
    w_.line("args.epilogue.ptr_D = reinterpret_cast<ElementD**>(const_cast<void**>(g.d));");
    w_.line("args.epilogue.dD = reinterpret_cast<typename GemmKernel::InternalStrideD*>(const_cast<int64_t*>(g.ldd));");
    write_fusion_arguments(w_, cfg_, evt_);
    close_make_arguments();
    write_host_api(w_, src_, cfg_);
  }

  /// The end of make_arguments: the device, the tile scheduler's arguments, and the return.
  void close_make_arguments() {
    w_.line("args.hw_info.device_id = device;");
    w_.line("args.hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);");
    scheduler_arguments();
    w_.line("return args;");
    w_.close();
    w_.line();
  }

  void scheduler_arguments() {
    static constexpr const char* orders[] = {"Heuristic", "AlongM", "AlongN"};
    w_.line(fmt::format("args.scheduler.raster_order = cutlass::gemm::kernel::detail::RasterOrderOptions::{};",
                        orders[static_cast<int>(cfg_.raster.value)]));
    w_.line(fmt::format("args.scheduler.max_swizzle_size = {};", cfg_.swizzle.value));
    if (cfg_.tile_scheduler.value == TileScheduler::split_k) {
      w_.line(fmt::format("args.scheduler.splits = {};", cfg_.splits.value));
      w_.line("args.scheduler.decomposition_mode = cutlass::gemm::kernel::detail::DecompositionMode::SplitK;");
    } else if (cfg_.tile_scheduler.value == TileScheduler::stream_k) {
      w_.line("args.scheduler.decomposition_mode = cutlass::gemm::kernel::detail::DecompositionMode::StreamK;");
    }
  }

  const SourceFile& src_;
  const KernelConfig& cfg_;
  const KernelConfig kernel_;  // the problem the CUTLASS kernel runs: cfg_ or its transpose (ir/transpose.h)
  std::string ns_;
  CppWriter w_;
  EvtTree evt_;
};

}  // namespace

namespace {

/// GEMMs and convolutions share the target; each has its emitter.
class Sm90Backend final : public Backend {
 public:
  std::string_view name() const override { return "sm90"; }
  EmittedKernel emit(const SourceFile& src, const KernelConfig& cfg) const override {
    return cfg.conv() && !cfg.conv_as_gemm() ? emit_conv(src, cfg) : GemmEmitter(src, cfg).run();
  }
};

}  // namespace

const Backend& sm90_backend() {
  static const Sm90Backend backend;
  return backend;
}

}  // namespace ucut::sm90
