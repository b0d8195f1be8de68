// check/targets.cpp — assembles the support matrix from the capability tables.
#include "check/targets.h"

#include "check/mma_table.h"
#include "ir/memop.h"
#include "ir/sm80_mma.h"

namespace ucut {
namespace {

/// The operand types a spec can name, with the math mode that selects a distinct MMA.
struct OperandChoice {
  DType a;
  MathMode math;
  const char* label;
};

const std::vector<OperandChoice>& operand_choices() {
  static const std::vector<OperandChoice> c = {
      {DType::f16, MathMode::native, "f16"},
      {DType::bf16, MathMode::native, "bf16"},
      {DType::f32, MathMode::tf32, "f32 (math = tf32)"},
      {DType::f32, MathMode::tf32x3, "f32 (math = tf32x3)"},
      {DType::f32, MathMode::native, "f32 (math = native)"},
      {DType::f64, MathMode::native, "f64"},
      {DType::e4m3, MathMode::native, "e4m3/e5m2"},
      {DType::i8, MathMode::native, "i8"},
  };
  return c;
}

std::vector<std::string> schedules_of(BackendKind b) {
  if (b == BackendKind::sm80) return {"multistage"};
  if (b != BackendKind::sm90) return {};
  return {"auto", "tma", "tma_warpspecialized", "tma_cooperative", "tma_pingpong", "cp_async_warpspecialized",
          "cp_async_cooperative", "multistage (the 2.x kernel)"};
}

/// What a convolution runs as on each backend (emit/sm90/conv.cpp, emit/sm80/conv.cpp) and what it needs
/// (conv_rules.cpp). Grouped convolutions run the 2.x kernel on sm90a too.
std::string conv_note(OpKind op, BackendKind b) {
  if (op_conv_grouping(op) == ConvGrouping::grouped)
    return " (2.x grouped implicit GEMM, multistage; K/G divides tile N)";
  if (b == BackendKind::sm80) {
    switch (op_conv_kind(op)) {
      case ConvKind::fprop: return " (2.x implicit GEMM)";
      case ConvKind::dgrad: return " (2.x dgrad: any stride, dilation 1)";
      case ConvKind::wgrad: return " (2.x wgrad)";
    }
  }
  switch (op_conv_kind(op)) {
    case ConvKind::fprop: return " (fprop, tma_warpspecialized; 2.x with multistage)";
    case ConvKind::dgrad:
      return " (one fprop per output phase, writing Y in place; the flipped filter at stride 1; "
             "tma_warpspecialized; 2.x with multistage)";
    case ConvKind::wgrad: break;
  }
  return " (wgrad, f16/bf16 operands, tma_warpspecialized; 2.x with multistage)";
}

/// What a grouped GEMM runs as on each backend (emit/sm90/gemm.cpp, emit/sm80/gemm.cpp; grouped_rules.cpp).
std::string grouped_note(BackendKind b) {
  return b == BackendKind::sm90 ? " (pointer-array kernel, tma_cooperative/tma_pingpong, elementwise epilogues)"
                                : " (GemmGrouped, epilogue act(alpha*acc + beta*C))";
}

/// What a family operator runs as (emit/memory/; ir/memop_library.h for the library calls).
std::string family_note(OpKind kind) {
  switch (kind) {
    case OpKind::sort:
    case OpKind::topk:
      return " (library call: CUB device radix sort, f32/bf16)";
    case OpKind::fft:
      return " (library call: cuFFT C2C in f32, f32/bf16 planar)";
    case OpKind::attention:
      return " (library call: CUTLASS fused multi-head attention, f32 on 3xTF32 / bf16 tensor cores)";
    default:
      return " (memory-bound: f16/bf16/f32 in 16-byte vectors, grid-stride)";
  }
}

}  // namespace

std::vector<TargetSupport> support_matrix() {
  std::vector<TargetSupport> out;
  for (std::string_view name : arch_names()) {
    const ArchInfo& a = arch_info(*find_arch(name));
    TargetSupport t{a.id, a.backend, a.min_cuda, a.max_cuda, {}, schedules_of(a.backend), {}};
    // Every operator on both backends, except the depthwise direct convolution on Turing (cp.async).
    for (std::string_view op : op_names()) {
      OpKind kind = *find_op(op);
      bool conv = op_family(kind) == OpFamily::conv;
      if (memory_family(op_family(kind))) {  // its own emitter (emit/memory/), on the targets C701 names
        if (memop_emits_for(a.id))
          t.operators.push_back(std::string(op) + family_note(kind));
        continue;
      }
      if (conv && op_conv_grouping(kind) == ConvGrouping::depthwise) {  // the 2.x direct convolution, SM80 on
        if (a.backend != BackendKind::none && a.backend != BackendKind::reserved && a.sm >= 80)
          t.operators.push_back(std::string(op) + " (direct convolution, f32 on CUDA cores, fixed filter size)");
        continue;
      }
      // Turing has no two-stage 3D dgrad (conv_rules.cpp: C101).
      if (a.sm == 75 && kind == OpKind::conv_transpose3d) continue;
      if (a.backend == BackendKind::sm90 || a.backend == BackendKind::sm80)
        t.operators.push_back(std::string(op) + (conv ? conv_note(kind, a.backend)
                                                 : kind == OpKind::grouped_gemm ? grouped_note(a.backend)
                                                                                : ""));
    }
    for (const OperandChoice& c : operand_choices()) {
      if (a.backend == BackendKind::sm90) {
        // Hopper's wgmma (f32 runs as tf32); the 2.x kernel on sm90a (`multistage`) adds what sm80 has.
        if (c.math == MathMode::tf32x3 || (c.a == DType::f32 && c.math == MathMode::native) || c.a == DType::f64) {
          if (auto m = sm80_mma(c.a, c.math, a.sm)) t.operands.push_back({c.label, std::string(m->name) + ", multistage", m->accumulators});
          continue;
        }
        if (auto m = sm90_mma(c.a == DType::f32 ? DType::tf32 : c.a)) t.operands.push_back({c.label, "wgmma", m->accumulators});
      } else if (a.backend == BackendKind::sm80) {
        auto m = sm80_mma(c.a, c.math, a.sm);
        if (m && m->min_sm <= a.sm) t.operands.push_back({c.label, std::string(m->name), m->accumulators});
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

bool toolkit_targets(const TargetSupport& t, int cuda) {
  return (t.min_cuda == 0 || cuda >= t.min_cuda) && (t.max_cuda == 0 || cuda <= t.max_cuda);
}

}  // namespace ucut
