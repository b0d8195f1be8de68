// emit/sm90/kernel_parts.h — the pieces the SM90 GEMM and convolution emitters share: tile shapes, the C/D and
// epilogue element types, the fusion callbacks (plain or EVT), the collective epilogue, the shared-memory check
// and the epilogue arguments.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "emit/cpp_writer.h"
#include "emit/evt_builder.h"
#include "ir/kernel_config.h"

namespace ucut::sm90 {

/// `cute::Shape<cute::_128, cute::_128, cute::_64>`; with `nested_k` the K extent is a one-mode shape
/// (`cute::Shape<cute::_64>`), as the implicit-GEMM mainloop tiles the channel mode of K; with `nested_n` the N
/// extent too (a filter gradient tiles (c, s, r, t)).
std::string tile_shape(const std::array<int, 3>& v, bool nested_k = false, bool nested_n = false);

/// ElementC/LayoutC/AlignmentC, ElementD/LayoutD/AlignmentD, ElementAccumulator, ElementCompute, RoundStyle.
void write_epilogue_types(CppWriter& w, const KernelConfig& cfg);

/// `FusionCallbacks`: LinearCombination for a plain store, else the chain's EVT (returned for its arguments).
EvtTree write_fusion(CppWriter& w, const KernelConfig& cfg);

/// The mainloop builder's stage count: `<ns>::StageCount<N>`, or with `with_stages(auto)` as many stages as fit
/// beside the epilogue (`<ns>::StageCountAutoCarveout`); `ns` is cutlass::gemm::collective or cutlass::conv::collective.
std::string stage_count(const KernelConfig& cfg, const std::string& ns);

/// `CollectiveEpilogue` from the epilogue CollectiveBuilder (needs TileShape, ClusterShape, EpilogueSchedule).
/// `layout_suffix` " *" makes C's and D's layouts per-problem (a grouped GEMM's pointer-array epilogue).
void write_collective_epilogue(CppWriter& w, std::string_view layout_suffix = "");

/// static_assert on `<kernel>::SharedStorageSize` against the CTA limit, naming check's prediction.
void write_smem_assert(CppWriter& w, const KernelConfig& cfg, const std::string& kernel);

/// `args.epilogue.*` in make_arguments: C, D, their strides (C++ expressions) and the thread arguments.
void write_epilogue_arguments(CppWriter& w, const KernelConfig& cfg, const EvtTree& evt, const std::string& stride_c,
                              const std::string& stride_d);

/// `args.epilogue.thread`: alpha = 1, beta = 0 for a plain store, else the EVT's arguments.
void write_fusion_arguments(CppWriter& w, const KernelConfig& cfg, const EvtTree& evt);

}  // namespace ucut::sm90
