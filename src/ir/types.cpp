// ir/types.cpp — spellings and properties of the IR enums, read from dtypes.def and archs.def.
#include "ir/types.h"

#include <algorithm>
#include <array>

#include "support/error.h"

namespace ucut {
namespace {

struct DTypeRow {
  DType id;
  std::string_view name;
  int bits;
  std::string_view cutlass;
  DTypeKind kind;
};

constexpr DTypeKind kind_of_float = DTypeKind::float_;
constexpr DTypeKind kind_of_fp8 = DTypeKind::fp8;
constexpr DTypeKind kind_of_int = DTypeKind::int_;

const std::vector<DTypeRow>& dtype_rows() {
  static const std::vector<DTypeRow> rows = {
#define DTYPE(id, spelling, bits, cutlass, kind) {DType::id, spelling, bits, cutlass, kind_of_##kind},
#include "ir/dtypes.def"
#undef DTYPE
  };
  return rows;
}

const std::vector<ArchInfo>& arch_rows() {
  static const std::vector<ArchInfo> rows = {
#define ARCH(id, spelling, sm, specific, backend, min_cuda, max_cuda, smem) \
  {Arch::id, spelling, sm, specific, BackendKind::backend, min_cuda, max_cuda, smem},
#include "ir/archs.def"
#undef ARCH
  };
  return rows;
}

struct OpRow {
  OpKind id;
  std::string_view name;
  OpFamily family;
  int spatial_dims;
  ConvKind conv_kind;
  ConvGrouping grouping;
};

const std::vector<OpRow>& op_rows() {
  static const std::vector<OpRow> rows = {
#define OP(id, spelling, family, spatial_dims, conv_kind, grouping) \
  {OpKind::id, spelling, OpFamily::family, spatial_dims, ConvKind::conv_kind, ConvGrouping::grouping},
#include "ir/ops.def"
#undef OP
  };
  return rows;
}

}  // namespace

std::string_view dtype_name(DType t) { return dtype_rows()[static_cast<size_t>(t)].name; }
int dtype_bits(DType t) { return dtype_rows()[static_cast<size_t>(t)].bits; }
std::string_view cutlass_type(DType t) { return dtype_rows()[static_cast<size_t>(t)].cutlass; }
DTypeKind dtype_kind(DType t) { return dtype_rows()[static_cast<size_t>(t)].kind; }
bool is_fp8(DType t) { return dtype_kind(t) == DTypeKind::fp8; }

std::optional<DType> find_dtype(std::string_view s) {
  for (const DTypeRow& r : dtype_rows())
    if (r.name == s) return r.id;
  return std::nullopt;
}

std::vector<std::string_view> dtype_names() {
  std::vector<std::string_view> out;
  for (const DTypeRow& r : dtype_rows()) out.push_back(r.name);
  return out;
}

const ArchInfo& arch_info(Arch a) { return arch_rows()[static_cast<size_t>(a)]; }

std::optional<Arch> find_arch(std::string_view s) {
  for (const ArchInfo& r : arch_rows())
    if (r.name == s) return r.id;
  return std::nullopt;
}

std::vector<std::string_view> arch_names() {
  std::vector<std::string_view> out;
  for (const ArchInfo& r : arch_rows()) out.push_back(r.name);
  return out;
}

std::string_view layout_name(Layout l) {
  switch (l) {
    case Layout::row: return "row";
    case Layout::col: return "col";
    case Layout::channels_last: return "channels_last";
  }
  UC_UNREACHABLE() << "Layout " << static_cast<int>(l);
}

std::string_view op_name(OpKind k) { return op_rows()[static_cast<size_t>(k)].name; }
OpFamily op_family(OpKind k) { return op_rows()[static_cast<size_t>(k)].family; }
bool memory_family(OpFamily f) {
  return f == OpFamily::map || f == OpFamily::reduce || f == OpFamily::rownorm || f == OpFamily::scan ||
         f == OpFamily::window || f == OpFamily::library || f == OpFamily::sparse;
}
int op_spatial_dims(OpKind k) { return op_rows()[static_cast<size_t>(k)].spatial_dims; }
ConvKind op_conv_kind(OpKind k) { return op_rows()[static_cast<size_t>(k)].conv_kind; }
ConvGrouping op_conv_grouping(OpKind k) { return op_rows()[static_cast<size_t>(k)].grouping; }

std::string_view conv_kind_name(ConvKind k) {
  switch (k) {
    case ConvKind::fprop: return "fprop";
    case ConvKind::dgrad: return "dgrad";
    case ConvKind::wgrad: return "wgrad";
  }
  UC_UNREACHABLE() << "ConvKind " << static_cast<int>(k);
}

std::optional<ConvKind> find_conv_kind(std::string_view name) {
  for (ConvKind k : {ConvKind::fprop, ConvKind::dgrad, ConvKind::wgrad})
    if (name == conv_kind_name(k)) return k;
  return std::nullopt;
}

std::optional<OpKind> find_op(std::string_view s) {
  for (const OpRow& r : op_rows())
    if (r.name == s) return r.id;
  return std::nullopt;
}

std::string_view conv_extent_names(OpKind op, char role) {
  static constexpr std::string_view act[] = {"N,W,C", "N,H,W,C", "N,D,H,W,C"};
  static constexpr std::string_view flt[] = {"K,S,C", "K,R,S,C", "K,T,R,S,C"};
  static constexpr std::string_view out[] = {"N,Q,K", "N,P,Q,K", "N,Z,P,Q,K"};
  static constexpr std::string_view flt_transposed[] = {"C,S,K", "C,R,S,K", "C,T,R,S,K"};
  size_t i = static_cast<size_t>(std::clamp(op_spatial_dims(op), 1, 3) - 1);
  if (op_conv_grouping(op) == ConvGrouping::grouped && role == 'b') return "K,R,S,CG";
  if (op_conv_grouping(op) == ConvGrouping::depthwise && role != 'a') return role == 'b' ? "C,R,S,1" : "N,P,Q,C";
  switch (op_conv_kind(op)) {
    case ConvKind::fprop: return role == 'a' ? act[i] : role == 'b' ? flt[i] : out[i];
    case ConvKind::dgrad: return role == 'a' ? act[i] : role == 'b' ? flt_transposed[i] : out[i];
    case ConvKind::wgrad: return role == 'a' ? out[i] : role == 'b' ? act[i] : flt[i];
  }
  UC_UNREACHABLE() << "ConvKind " << static_cast<int>(op_conv_kind(op));
}

bool op_is_pipeline_stage(OpKind op) {
  if (op_family(op) == OpFamily::conv) return op_conv_kind(op) != ConvKind::wgrad;
  return op == OpKind::gemm || op == OpKind::batched_gemm;
}

OperandNames operand_names(OpKind op) {
  if (op_family(op) == OpFamily::gemm) return {"A", "B", "D"};
  return op_conv_kind(op) == ConvKind::wgrad ? OperandNames{"DY", "X", "DW"} : OperandNames{"X", "W", "Y"};
}

std::vector<std::string_view> op_names() {
  std::vector<std::string_view> out;
  for (const OpRow& r : op_rows()) out.push_back(r.name);
  return out;
}

std::string_view math_name(MathMode m) {
  switch (m) {
    case MathMode::native: return "native";
    case MathMode::tf32: return "tf32";
    case MathMode::tf32x3: return "tf32x3";
  }
  UC_UNREACHABLE() << "MathMode " << static_cast<int>(m);
}

std::string_view kernel_schedule_name(KernelSchedule s) {
  static constexpr std::array<std::string_view, 8> names = {
      "auto", "tma", "tma_warpspecialized", "tma_cooperative", "tma_pingpong", "cp_async_warpspecialized",
      "cp_async_cooperative", "multistage"};
  return names[static_cast<size_t>(s)];
}

bool is_cp_async(KernelSchedule s) {
  return s == KernelSchedule::cp_async_warpspecialized || s == KernelSchedule::cp_async_cooperative;
}

bool is_cooperative(KernelSchedule s) {
  return s == KernelSchedule::tma_cooperative || s == KernelSchedule::cp_async_cooperative;
}

std::string_view backend_name(BackendKind b) {
  switch (b) {
    case BackendKind::sm90: return "CUTLASS 3.x (sm90)";
    case BackendKind::sm80: return "CUTLASS 2.x (sm80)";
    case BackendKind::none: return "none";
    case BackendKind::reserved: return "reserved";
  }
  UC_UNREACHABLE() << "BackendKind " << static_cast<int>(b);
}

std::string_view epilogue_schedule_name(EpilogueSchedule s) {
  static constexpr std::array<std::string_view, 4> names = {"auto", "nosmem", "tma", "tma_cooperative"};
  return names[static_cast<size_t>(s)];
}

std::string_view tile_scheduler_name(TileScheduler s) {
  static constexpr std::array<std::string_view, 4> names = {"default", "persistent", "stream_k", "split_k"};
  return names[static_cast<size_t>(s)];
}

std::string_view raster_name(Raster r) {
  static constexpr std::array<std::string_view, 3> names = {"auto", "along_m", "along_n"};
  return names[static_cast<size_t>(r)];
}

}  // namespace ucut
