// ir/sm80_mma.cpp — mma.sync facts (PTX ISA "mma" shapes; CUTLASS arch/mma_sm80.h, mma_sm89.h) and the tile table.
#include "ir/sm80_mma.h"

namespace ucut {

std::optional<Sm80Mma> sm80_mma(DType a, MathMode math, int sm) {
  if (sm < 80 && (a == DType::f16 || a == DType::i8)) {
    // Turing: mma.sync m16n8k8 (f16) and m8n8k16 (i8); CUTLASS's SM75 kernels use tile K 32 and 64.
    if (a == DType::f16) return Sm80Mma{Sm80MmaClass::h16, "f16 tensor op", {16, 8, 8}, {32}, 75, false, {DType::f32, DType::f16}};
    return Sm80Mma{Sm80MmaClass::i8, "i8 tensor op", {8, 8, 16}, {64}, 75, true, {DType::i32}};
  }
  switch (a) {
    case DType::f16: return Sm80Mma{Sm80MmaClass::h16, "f16 tensor op", {16, 8, 16}, {32, 64}, 80, false, {DType::f32, DType::f16}};
    case DType::bf16: return Sm80Mma{Sm80MmaClass::h16, "bf16 tensor op", {16, 8, 16}, {32, 64}, 80, false, {DType::f32}};
    case DType::f32:
      if (math == MathMode::native) return Sm80Mma{Sm80MmaClass::simt, "f32 SIMT (CUDA cores)", {1, 1, 1}, {8}, 70, false, {DType::f32}};
      return Sm80Mma{Sm80MmaClass::tf32, math == MathMode::tf32x3 ? "3xTF32 tensor op" : "tf32 tensor op", {16, 8, 8},
                     {16, 32}, 80, false, {DType::f32}};
    case DType::f64: return Sm80Mma{Sm80MmaClass::f64, "f64 tensor op (DMMA)", {8, 8, 4}, {16}, 80, false, {DType::f64}};
    case DType::i8: return Sm80Mma{Sm80MmaClass::i8, "i8 tensor op", {16, 8, 32}, {64, 128}, 80, true, {DType::i32}};
    case DType::e4m3:
    case DType::e5m2: return Sm80Mma{Sm80MmaClass::i8, "FP8 tensor op", {16, 8, 32}, {64, 128}, 89, true, {DType::f32}};
    default: return std::nullopt;
  }
}

std::optional<Sm80Mma> sm80_mma(const KernelConfig& cfg) {
  return sm80_mma(cfg.a.dtype.value, cfg.math.value, arch_info(cfg.arch.value).sm);
}

bool sm80_pipelined(const KernelConfig& cfg) { return arch_info(cfg.arch.value).sm < 80; }

std::vector<Sm80Tile> sm80_tiles(Sm80MmaClass cls) {
  struct Row {
    Sm80MmaClass cls;
    Sm80Tile tile;
  };
  static const std::vector<Row> rows = {
#define SM80_TILE(c, tm, tn, wm, wn) {Sm80MmaClass::c, {tm, tn, wm, wn}},
#include "ir/sm80_tiles.def"
#undef SM80_TILE
  };
  std::vector<Sm80Tile> out;
  for (const Row& r : rows)
    if (r.cls == cls) out.push_back(r.tile);
  return out;
}

std::optional<Sm80Tile> sm80_tile(Sm80MmaClass cls, int tile_m, int tile_n) {
  for (const Sm80Tile& t : sm80_tiles(cls))
    if (t.tile_m == tile_m && t.tile_n == tile_n) return t;
  return std::nullopt;
}

}  // namespace ucut
