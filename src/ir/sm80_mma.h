// ir/sm80_mma.h — what the CUTLASS 2.x backend multiplies with: mma.sync instruction shapes per operand class and
// arch (Turing's are half as deep), and the CTA/warp tiles of sm80_tiles.def. Read by lower (defaults), check
// (legality) and emit/sm80 (types).
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/kernel_config.h"

namespace ucut {

enum class Sm80MmaClass { h16, tf32, i8, f64, simt };

struct Sm80Mma {
  Sm80MmaClass cls;
  std::string_view name;          // "f16/bf16 tensor op", for messages
  std::array<int, 3> instruction; // mma.sync M, N, K (1,1,1 for SIMT FMA)
  std::vector<int> tile_k;        // legal CTA tile K values
  int min_sm;                     // first arch that has the instruction
  bool needs_tn;                  // A row-major and B column-major (K-major operands)
  std::vector<DType> accumulators;
};

struct Sm80Tile {
  int tile_m, tile_n, warp_m, warp_n;
};

/// The operand class of A/B types and math mode on an arch (`sm` 75, 80, ...); nullopt when the 2.x backend has no
/// MMA for them at all (`min_sm` says when the arch is too old for one it has).
std::optional<Sm80Mma> sm80_mma(DType a, MathMode math, int sm);
std::optional<Sm80Mma> sm80_mma(const KernelConfig& cfg);

/// The 2.x mainloop: Turing's two-stage pipelined loop (register-staged loads) or the cp.async multistage loop.
bool sm80_pipelined(const KernelConfig& cfg);

/// The tiles sm80_tiles.def lists for a class, in file order (the first 128x128 one is the default).
std::vector<Sm80Tile> sm80_tiles(Sm80MmaClass cls);

/// The table row for a CTA tile M x N, if any.
std::optional<Sm80Tile> sm80_tile(Sm80MmaClass cls, int tile_m, int tile_n);

}  // namespace ucut
