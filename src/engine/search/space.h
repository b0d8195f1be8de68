// engine/search/space.h — the knobs a spec can move along: a Move (typed knob assignments, printable as JSON and
// as a phrase) and the Space of values each knob takes for a kernel's backend, operator and problem.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "problem/problem.h"
#include "ir/kernel_config.h"
#include "ir/memop.h"
#include "ir/sm80_mma.h"

namespace ucut::search {

using Triple = std::array<int, 3>;

/// `with_tile_scheduler(...)`: default, persistent, stream_k or split_k(splits).
struct TileSched {
  TileScheduler kind = TileScheduler::default_;
  int splits = 1;
  bool operator==(const TileSched&) const = default;
};

/// `with_raster(order, swizzle = n)`.
struct RasterSwizzle {
  Raster order = Raster::heuristic;
  int swizzle = 1;
  bool operator==(const RasterSwizzle&) const = default;
};

/// Where converted (`from(f32)`) operands become 16-bit: all in a workspace copy before every run, or one of them in
/// the mainloop (sm90a's mixed-input kernel, `from(f32, mainloop)`; check's C426), the other still copied.
enum class Conversion { workspace, mainloop_a, mainloop_b };
std::string_view conversion_name(Conversion c);  // "workspace", "mainloop_a", "mainloop_b"
/// The conversion `cfg` spells (workspace when it converts nothing in its mainloop).
Conversion conversion_of(const KernelConfig& cfg);

/// A set of knob assignments; unset knobs keep the spec's value. `stages` 0 is `auto`.
struct Move {
  std::optional<Triple> tile, warp, cluster;
  std::optional<KernelSchedule> schedule;  // the epilogue schedule follows it (its implied pair)
  std::optional<TileSched> tile_scheduler;
  std::optional<RasterSwizzle> raster;
  std::optional<int> stages;
  std::optional<MathMode> math;
  /// The type A and B are multiplied in: a 16-bit type converts f32 operands (`from(f32)`, a precision change).
  std::optional<DType> operands;
  std::optional<Conversion> conversion;
  /// A memory-bound family kernel's launch (ir/memop.h MemTunables): `.with_vector`, `.with_block`,
  /// `.with_items`, `.with_grid`.
  std::optional<int> vector, block, items;
  std::optional<GridPolicy> grid;

  bool empty() const;
  /// The names of the knobs it sets, in the order above ("tile", "cluster", ...).
  std::vector<std::string> knobs() const;
  bool operator==(const Move&) const = default;
};

/// {"tile": [128, 256, 64], "schedule": "tma_pingpong", "tile_scheduler": "split_k(4)", "raster": "along_n",
///  "swizzle": 2, "stages": "auto", "math": "tf32", "operands": "bf16", "conversion": "mainloop_b", "vector": 8,
///  "block": 512, "items": 4, "grid": "auto"} with only the knobs it sets.
std::string move_json(const Move& m);
/// Reads move_json's format back (unknown keys are ignored); nullopt when it is not a JSON object.
std::optional<Move> parse_move_json(const std::string& json);
/// "tile 128x256x64, cluster 2x1x1, tma_pingpong, split-K 4, raster along_n swizzle 2, auto stages, math tf32,
/// bf16 operands, B converted in the mainloop"; a family kernel's "vector 8, block 512, 4 items, grid auto".
std::string move_phrase(const Move& m);

/// The values each knob may take. A knob with one value does not move. Point i of the product (mixed radix,
/// tiles slowest, conversions fastest) is a full assignment; check() decides which points are valid.
struct Space {
  BackendKind backend = BackendKind::sm90;
  std::optional<Sm80MmaClass> mma_2x;  // the 2.x operand class, for the warp tile that goes with a CTA tile
  bool moves_warp = false;             // the spec spells `with_warpshape`: tile moves carry the table's warp tile
  std::vector<Triple> tiles, clusters;
  std::vector<KernelSchedule> schedules;
  std::vector<TileSched> tile_schedulers;
  std::vector<RasterSwizzle> rasters;
  std::vector<int> stages;
  std::vector<MathMode> maths;
  std::vector<DType> operand_types;  // A's and B's type: the spec's, and 16-bit conversions the tolerance admits
  std::vector<Conversion> conversions;  // where converted operands convert (sm90a GEMMs: also in the mainloop)

  size_t size() const;
  Move point(size_t index) const;
  /// Whether every knob `m` sets takes a value of this space (the warp tile follows the tile).
  bool contains(const Move& m) const;
};

/// The knob names Move::knobs uses, in its order.
const std::vector<std::string>& knob_names();

/// Pins every knob of `s` not in `knobs` to `cfg`'s value: the space a search limited to those knobs explores.
void restrict_space(Space& s, const KernelConfig& cfg, const std::vector<std::string>& knobs);

/// Whether the problem's tolerance accepts TF32 products for its f32 operands: it asks for tf32, or its atol and
/// rtol are at least the harness's default TF32 tolerance. Running TF32 on an exact-f32 problem is a precision change.
bool tf32_allowed(const Problem& problem);

/// Whether the problem's tolerance accepts f32 operands multiplied as bf16 or f16 (converted by the kernel): its
/// atol and rtol are at least the harness's default tolerance for 16-bit operands. A precision change.
bool half_operands_allowed(const Problem& problem);

/// Whether the problem's tolerance accepts the precision `cfg` multiplies in (tf32_allowed for TF32 math,
/// half_operands_allowed for converted operands); true when it makes no precision change.
bool precision_admitted(const Problem& problem, const KernelConfig& cfg);

/// The space of `cfg` (a lowered kernel or pipeline stage) for `problem` (may be null: no math or operand moves).
Space space_for(const KernelConfig& cfg, const Problem* problem);

/// The knobs of `point` that differ from `cfg`, plus the kernel schedule when the spec leaves it implied and the
/// tile moves (its default follows tile M), and the warp tile where the spec spells one.
Move relative_move(const Space& space, const KernelConfig& cfg, const Move& point);

}  // namespace ucut::search
