// check/mma_table.cpp — Hopper wgmma facts by operand type.
#include "check/mma_table.h"

namespace ucut {

std::optional<MmaFacts> sm90_mma(DType a) {
  switch (a) {
    case DType::f16: return MmaFacts{16, {DType::f32, DType::f16}, false};
    case DType::bf16: return MmaFacts{16, {DType::f32}, false};
    case DType::tf32: return MmaFacts{8, {DType::f32}, true};
    case DType::e4m3:
    case DType::e5m2: return MmaFacts{32, {DType::f32}, true};
    case DType::i8: return MmaFacts{32, {DType::i32}, true};
    default: return std::nullopt;
  }
}

DType mma_input_type(const KernelConfig& cfg) {
  DType a = cfg.a.dtype.value;
  return a == DType::f32 ? DType::tf32 : a;
}

bool sm90_transposed_accumulators(const KernelConfig& cfg) {
  return cfg.backend() == BackendKind::sm90 && !cfg.conv() && mma_input_type(cfg) == DType::tf32 &&
         cfg.a.layout.value == Layout::row && cfg.b.layout.value == Layout::row;
}

}  // namespace ucut
