// emit/sm90/gemm.cpp — the SM90 GEMM backend: CUTLASS 3.x CollectiveBuilder mainloop + TMA epilogue with one
// EVT (emit/sm90/evt.cpp), wrapped in the kernel ABI (emit/templates/kernel_abi.h).
#include <fmt/format.h>

#include "check/smem_model.h"
#include "emit/abi_wrapper.h"
#include "emit/backend.h"
#include "emit/cpp_writer.h"
#include "emit/sm90/evt.h"
#include "ir/canonical.h"

namespace ucut::sm90 {
namespace {

std::string kernel_schedule_tag(const KernelConfig& cfg) {
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
    case KernelSchedule::multistage: break;  // the 2.x backend (emit/sm80)
  }
  return "";
}

std::string epilogue_schedule_tag(EpilogueSchedule e) {
  switch (e) {
    case EpilogueSchedule::auto_: return "cutlass::epilogue::collective::EpilogueScheduleAuto";
    case EpilogueSchedule::nosmem: return "cutlass::epilogue::NoSmemWarpSpecialized";
    case EpilogueSchedule::tma: return "cutlass::epilogue::TmaWarpSpecialized";
    case EpilogueSchedule::tma_cooperative: return "cutlass::epilogue::TmaWarpSpecializedCooperative";
  }
  return "";
}

std::string tile_scheduler_tag(TileScheduler t) {
  switch (t) {
    case TileScheduler::default_: return "void";
    case TileScheduler::persistent: return "cutlass::gemm::PersistentScheduler";
    case TileScheduler::stream_k:
    case TileScheduler::split_k: return "cutlass::gemm::StreamKScheduler";
  }
  return "void";
}

std::string shape(const std::array<int, 3>& v) { return fmt::format("cute::Shape<cute::_{}, cute::_{}, cute::_{}>", v[0], v[1], v[2]); }

class GemmEmitter {
 public:
  GemmEmitter(const SourceFile& src, const KernelConfig& cfg) : src_(src), cfg_(cfg), ns_(kernel_namespace(cfg)) {}

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
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode};
  }

 private:
  void element_types() {
    const TensorDecl& d = cfg_.output();
    const EpiOp* res = cfg_.source_stage();
    write_operand_types(w_, cfg_);
    if (res) {
      w_.alias("ElementC", std::string(cutlass_type(res->tensor->dtype.value)));
      w_.alias("LayoutC", layout_tag(res->tensor->layout.value));
      w_.line(fmt::format("constexpr int AlignmentC = {};", res->tensor->align.value));
    } else {
      w_.comment("no residual: the epilogue never reads C");
      w_.alias("ElementC", "void");
      w_.alias("LayoutC", layout_tag(d.layout.value));
      w_.line(fmt::format("constexpr int AlignmentC = {};", d.kernel_align()));
    }
    w_.alias("ElementD", std::string(cutlass_type(d.dtype.value)));
    w_.alias("LayoutD", layout_tag(d.layout.value));
    w_.line(fmt::format("constexpr int AlignmentD = {};", d.kernel_align()));
    w_.alias("ElementAccumulator", std::string(cutlass_type(cfg_.acc.value)));
    w_.alias("ElementCompute", std::string(cutlass_type(cfg_.compute.value)));
    w_.line("constexpr auto RoundStyle = cutlass::FloatRoundStyle::round_to_nearest;");
    w_.line();
  }

  void kernel_types() {
    w_.alias("TileShape", shape(cfg_.tile.value));
    w_.alias("ClusterShape", shape(cfg_.cluster.value));
    w_.alias("KernelSchedule", kernel_schedule_tag(cfg_));
    w_.alias("EpilogueSchedule", epilogue_schedule_tag(cfg_.epilogue_schedule.value));
    w_.line();
    std::string fusion;
    if (cfg_.plain_epilogue()) {
      w_.comment("plain store: D = acc (LinearCombination with alpha = 1, beta = 0)");
      fusion = "cutlass::epilogue::fusion::LinearCombination<ElementD, ElementCompute, ElementC, ElementCompute>";
      w_.alias("FusionCallbacks", fusion);
    } else {
      evt_ = build_evt(cfg_);
      w_.comment("Epilogue visitor tree: " + evt_.description);
      if (evt_.needs_epilogue_descriptor)
        w_.alias("EpiDesc",
                 "cutlass::epilogue::collective::detail::EpilogueDescriptor<TileShape, "
                 "cutlass::epilogue::collective::EpilogueTileAuto, ElementC, ElementD, EpilogueSchedule>");
      for (const auto& [name, type] : evt_.aliases) w_.alias(name, type);
      w_.alias("FusionCallbacks", evt_.root);
    }
    w_.line();
    w_.line("using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<");
    w_.line("    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,");
    w_.line("    cutlass::epilogue::collective::EpilogueTileAuto, ElementAccumulator, ElementCompute,");
    w_.line("    ElementC, LayoutC, AlignmentC, ElementD, LayoutD, AlignmentD, EpilogueSchedule,");
    w_.line("    FusionCallbacks>::CollectiveOp;");
    std::string stages = cfg_.stages.value == 0
                             ? "cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>("
                               "sizeof(typename CollectiveEpilogue::SharedStorage))>"
                             : fmt::format("cutlass::gemm::collective::StageCount<{}>", cfg_.stages.value);
    w_.line("using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<");
    w_.line("    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, AlignmentA,");
    w_.line("    ElementB, LayoutB, AlignmentB, ElementAccumulator, TileShape, ClusterShape,");
    w_.line(fmt::format("    {},", stages));
    w_.line("    KernelSchedule>::CollectiveOp;");
    w_.line("using GemmKernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>,");
    w_.line(fmt::format("    CollectiveMainloop, CollectiveEpilogue, {}>;", tile_scheduler_tag(cfg_.tile_scheduler.value)));
    w_.alias("Gemm", "cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>");
    SmemBudget b = sm90_smem_budget(cfg_);
    w_.line(fmt::format("static_assert(GemmKernel::SharedStorageSize <= {},", b.capacity));
    w_.line(fmt::format("              \"shared memory over the CTA limit: ucutlass check's model predicted {} bytes\");",
                        b.total_bytes));
    w_.line();
  }

  void host_api() {
    const EpiOp* res = cfg_.source_stage();
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("typename Gemm::Arguments args{};");
    w_.line("args.mode = a->batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;");
    w_.line("args.problem_shape = {int(a->m), int(a->n), int(a->k), int(a->batch)};");
    w_.line("args.mainloop.ptr_A = static_cast<const ElementA*>(a->a.ptr);");
    w_.line("args.mainloop.dA = ucut_make_stride<typename GemmKernel::StrideA>(a->a.ld, a->a.batch_stride);");
    w_.line("args.mainloop.ptr_B = static_cast<const ElementB*>(a->b.ptr);");
    w_.line("args.mainloop.dB = ucut_make_stride<typename GemmKernel::StrideB>(a->b.ld, a->b.batch_stride);");
    if (res) {
      w_.line("args.epilogue.ptr_C = static_cast<const ElementC*>(a->c.ptr);");
      w_.line("args.epilogue.dC = ucut_make_stride<typename GemmKernel::StrideC>(a->c.ld, a->c.batch_stride);");
    } else {
      w_.line("args.epilogue.ptr_C = nullptr;");
      w_.line("args.epilogue.dC = ucut_make_stride<typename GemmKernel::StrideC>(a->d.ld, a->d.batch_stride);");
    }
    w_.line("args.epilogue.ptr_D = static_cast<ElementD*>(a->d.ptr);");
    w_.line("args.epilogue.dD = ucut_make_stride<typename GemmKernel::StrideD>(a->d.ld, a->d.batch_stride);");
    if (cfg_.plain_epilogue()) {
      w_.line("args.epilogue.thread.alpha = ElementCompute(1);");
      w_.line("args.epilogue.thread.beta = ElementCompute(0);");
    } else {
      w_.line(fmt::format("args.epilogue.thread = {};", evt_.arguments));
    }
    w_.line("args.hw_info.device_id = device;");
    w_.line("args.hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);");
    scheduler_arguments();
    w_.line("return args;");
    w_.close();
    w_.line();

    bool reinit = cfg_.tile_scheduler.value == TileScheduler::stream_k || cfg_.tile_scheduler.value == TileScheduler::split_k;
    write_host_api(w_, src_, cfg_, reinit);
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
  std::string ns_;
  CppWriter w_;
  EvtTree evt_;
};

}  // namespace

const Backend& sm90_backend() {
  static const EmitterBackend<GemmEmitter> backend("sm90");
  return backend;
}

}  // namespace ucut::sm90
