// emit/sm90/kernel_parts.cpp — see kernel_parts.h.
#include "emit/sm90/kernel_parts.h"

#include <fmt/format.h>

#include "check/smem_model.h"
#include "emit/abi_wrapper.h"
#include "emit/sm90/evt.h"

namespace ucut::sm90 {

std::string tile_shape(const std::array<int, 3>& v, bool nested_k, bool nested_n) {
  auto mode = [](int extent, bool nested) {
    return nested ? fmt::format("cute::Shape<cute::_{}>", extent) : fmt::format("cute::_{}", extent);
  };
  return fmt::format("cute::Shape<cute::_{}, {}, {}>", v[0], mode(v[1], nested_n), mode(v[2], nested_k));
}

void write_epilogue_types(CppWriter& w, const KernelConfig& cfg) {
  const TensorDecl& d = cfg.output();
  const EpiOp* res = cfg.source_stage();
  if (res) {
    w.alias("ElementC", std::string(cutlass_type(res->tensor->dtype.value)));
    w.alias("LayoutC", layout_tag(cfg, res->tensor->layout.value, true));
    w.line(fmt::format("constexpr int AlignmentC = {};", res->tensor->align.value));
  } else {
    w.comment("no residual: the epilogue never reads C");
    w.alias("ElementC", "void");
    w.alias("LayoutC", layout_tag(cfg, d.layout.value, true));
    w.line(fmt::format("constexpr int AlignmentC = {};", d.kernel_align()));
  }
  w.alias("ElementD", std::string(cutlass_type(d.dtype.value)));
  w.alias("LayoutD", layout_tag(cfg, d.layout.value, true));
  w.line(fmt::format("constexpr int AlignmentD = {};", d.kernel_align()));
  w.alias("ElementAccumulator", std::string(cutlass_type(cfg.acc.value)));
  w.alias("ElementCompute", std::string(cutlass_type(cfg.compute.value)));
  w.line("constexpr auto RoundStyle = cutlass::FloatRoundStyle::round_to_nearest;");
  w.line();
}

EvtTree write_fusion(CppWriter& w, const KernelConfig& cfg) {
  if (cfg.plain_epilogue()) {
    w.comment("plain store: D = acc (LinearCombination with alpha = 1, beta = 0)");
    w.alias("FusionCallbacks",
            "cutlass::epilogue::fusion::LinearCombination<ElementD, ElementCompute, ElementC, ElementCompute>");
    return {};
  }
  EvtTree evt = build_evt(cfg);
  w.comment("Epilogue visitor tree: " + evt.description);
  if (evt.needs_epilogue_descriptor)
    w.alias("EpiDesc",
            "cutlass::epilogue::collective::detail::EpilogueDescriptor<TileShape, "
            "cutlass::epilogue::collective::EpilogueTileAuto, ElementC, ElementD, EpilogueSchedule>");
  for (const auto& [name, type] : evt.aliases) w.alias(name, type);
  w.alias("FusionCallbacks", evt.root);
  return evt;
}

void write_collective_epilogue(CppWriter& w, std::string_view layout_suffix) {
  w.line("using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<");
  w.line("    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,");
  w.line("    cutlass::epilogue::collective::EpilogueTileAuto, ElementAccumulator, ElementCompute,");
  w.line(fmt::format("    ElementC, LayoutC{}, AlignmentC, ElementD, LayoutD{}, AlignmentD, EpilogueSchedule,", layout_suffix,
                     layout_suffix));
  w.line("    FusionCallbacks>::CollectiveOp;");
}

std::string stage_count(const KernelConfig& cfg, const std::string& ns) {
  if (cfg.stages.value > 0) return fmt::format("{}::StageCount<{}>", ns, cfg.stages.value);
  return ns + "::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>";
}

void write_smem_assert(CppWriter& w, const KernelConfig& cfg, const std::string& kernel) {
  SmemBudget b = sm90_smem_budget(cfg);
  w.line(fmt::format("static_assert({}::SharedStorageSize <= {},", kernel, b.capacity));
  w.line(fmt::format("              \"shared memory over the CTA limit: ucutlass check's model predicted {} bytes\");",
                     b.total_bytes));
}

void write_epilogue_arguments(CppWriter& w, const KernelConfig& cfg, const EvtTree& evt, const std::string& stride_c,
                              const std::string& stride_d) {
  w.line(cfg.has_source() ? "args.epilogue.ptr_C = static_cast<const ElementC*>(a->c.ptr);"
                          : "args.epilogue.ptr_C = nullptr;");
  w.line(fmt::format("args.epilogue.dC = {};", stride_c));
  w.line("args.epilogue.ptr_D = static_cast<ElementD*>(a->d.ptr);");
  w.line(fmt::format("args.epilogue.dD = {};", stride_d));
  write_fusion_arguments(w, cfg, evt);
}

void write_fusion_arguments(CppWriter& w, const KernelConfig& cfg, const EvtTree& evt) {
  if (cfg.plain_epilogue()) {
    w.line("args.epilogue.thread.alpha = ElementCompute(1);");
    w.line("args.epilogue.thread.beta = ElementCompute(0);");
  } else {
    w.line(fmt::format("args.epilogue.thread = {};", evt.arguments));
  }
}

}  // namespace ucut::sm90
