// ir/types.h — the enums of the typed configuration IR and the lookups over their tables.
// Strings live only at the edges: lower.cpp maps spellings to these, printers map them back.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ucut {

enum class DType {
#define DTYPE(id, spelling, bits, cutlass, kind) id,
#include "ir/dtypes.def"
#undef DTYPE
};

enum class DTypeKind { float_, fp8, int_ };

std::string_view dtype_name(DType t);
int dtype_bits(DType t);
std::string_view cutlass_type(DType t);
DTypeKind dtype_kind(DType t);
bool is_fp8(DType t);
std::optional<DType> find_dtype(std::string_view spelling);
std::vector<std::string_view> dtype_names();

enum class Arch {
#define ARCH(id, spelling, sm, specific, backend, min_cuda, max_cuda, smem) id,
#include "ir/archs.def"
#undef ARCH
};

/// sm90: CUTLASS 3.x collective builders (wgmma). sm80: CUTLASS 2.x device API (mma.sync + cp.async), which
/// also runs on Hopper when a spec asks for `with_scheduler(multistage)`.
enum class BackendKind { sm90, sm80, none, reserved };
std::string_view backend_name(BackendKind b);

struct ArchInfo {
  Arch id;
  std::string_view name;
  int sm;               // 90 for sm90a
  bool arch_specific;   // the `a` suffix: wgmma, setmaxnreg, TMA multicast
  BackendKind backend;
  int min_cuda, max_cuda;  // 120 = CUDA 12.0; 0 = unbounded
  int smem_bytes;
};

const ArchInfo& arch_info(Arch a);
std::optional<Arch> find_arch(std::string_view spelling);
std::vector<std::string_view> arch_names();

/// row/col: row- or column-major over a matrix's last two extents. channels_last: a convolution tensor with
/// channels innermost (NWC, NHWC, NDHWC; filters KRSC), the only layout the conv kernels read.
enum class Layout { row, col, channels_last };
std::string_view layout_name(Layout l);

/// Which implicit GEMM of a convolution runs. A convolution's geometry is always that of the forward
/// convolution X[N, in, C] * W[K, filter, C] -> Y[N, out, K]; the kinds differ in which tensors are the
/// operands a, b and the output d:
///   fprop  a = X, b = W, d = Y
///   dgrad  a = Y-shaped, b = W, d = X-shaped: a transposed convolution (its input has K channels, its weight
///          is [K, filter, C] — PyTorch's [in, out, filter] channels-last — and its output has C channels)
///   wgrad  a = Y-shaped, b = X, d = W-shaped: the filter gradient
enum class ConvKind { fprop, dgrad, wgrad };
std::string_view conv_kind_name(ConvKind k);
std::optional<ConvKind> find_conv_kind(std::string_view name);

/// How a convolution's output channels read its input channels (ops.def's grouping column).
enum class ConvGrouping { dense, grouped, depthwise };

enum class OpKind {
#define OP(id, spelling, family, spatial_dims, conv_kind, grouping) id,
#include "ir/ops.def"
#undef OP
};
enum class OpFamily { gemm, conv, map, reduce, rownorm, scan, window, library, sparse };
std::string_view op_name(OpKind k);
OpFamily op_family(OpKind k);
/// The memory-bound families (ir/memop.h): their kernels move bytes rather than multiply matrices, and they
/// lower to a MemOpConfig, not a KernelConfig.
bool memory_family(OpFamily f);
int op_spatial_dims(OpKind k);  // 0 for GEMMs
ConvKind op_conv_kind(OpKind k);  // fprop for GEMMs
ConvGrouping op_conv_grouping(OpKind k);  // dense for GEMMs
/// Whether the operator may be a pipeline stage: a GEMM or batched GEMM (a matrix in, a matrix out) or a convolution
/// from activation to activation (forward, transposed, grouped, depthwise); not a grouped GEMM (a problem list) nor a
/// filter gradient (its output is a filter).
bool op_is_pipeline_stage(OpKind k);
std::optional<OpKind> find_op(std::string_view spelling);
std::vector<std::string_view> op_names();
/// A convolution's extent names for its operand a, b or output d (`role`), e.g. conv2d: a "N,H,W,C",
/// b "K,R,S,C", d "N,P,Q,K"; conv_transpose2d: "N,H,W,C", "C,R,S,K", "N,P,Q,K"; conv2d_wgrad: "N,P,Q,K",
/// "N,H,W,C", "K,R,S,C" (conv1d drops H/R/P, conv3d adds D/T/Z); grouped_conv2d's filter "K,R,S,CG" (C/G channels
/// per group), depthwise_conv2d's "C,R,S,1" and output "N,P,Q,C".
std::string_view conv_extent_names(OpKind op, char role);
/// The conventional names of an operator's operands a, b and output d: A, B, D (GEMMs), X, W, Y (forward and
/// transposed convolutions), DY, X, DW (filter gradients).
struct OperandNames {
  std::string_view a, b, d;
};
OperandNames operand_names(OpKind op);

/// How the tensor cores multiply f32 operands.
enum class MathMode { native, tf32, tf32x3 };
std::string_view math_name(MathMode m);

enum class KernelSchedule {
  auto_, tma, tma_warpspecialized, tma_cooperative, tma_pingpong,  // SM90 TMA mainloops
  cp_async_warpspecialized, cp_async_cooperative,                    // SM90 wgmma fed by cp.async (4-byte alignment)
  multistage                                                         // the CUTLASS 2.x multistage mainloop
};
bool is_cp_async(KernelSchedule s);
/// Two consumer warpgroups share the tile (tile M % 128 == 0).
bool is_cooperative(KernelSchedule s);
enum class EpilogueSchedule { auto_, nosmem, tma, tma_cooperative };
enum class TileScheduler { default_, persistent, stream_k, split_k };
enum class Raster { heuristic, along_m, along_n };

std::string_view kernel_schedule_name(KernelSchedule s);
std::string_view epilogue_schedule_name(EpilogueSchedule s);
std::string_view tile_scheduler_name(TileScheduler s);
std::string_view raster_name(Raster r);

}  // namespace ucut
