// engine/search/launch_search.h — the search space of a memory-bound family kernel's launch (ir/memop.h
// MemTunables: vector width, threads per block, vectors per thread and trip, grid policy) and the order the
// tuner (workflow/mskb_tune.h) walks it: a first round of launches that usually matter for bandwidth-bound
// kernels, then each round the unmeasured neighbours of the best so far. Check decides which points are valid
// (C702, C703); this file only proposes.
#pragma once

#include <compare>
#include <set>
#include <vector>

#include "engine/search/space.h"
#include "ir/memop.h"

namespace ucut::search {

/// One launch of a family kernel: every knob set.
struct LaunchPoint {
  int vector = 1, block = kMemDefaultBlock, items = kMemDefaultItems;
  GridPolicy grid = GridPolicy::persistent;
  auto operator<=>(const LaunchPoint&) const = default;
};

LaunchPoint launch_point(const MemTunables& t);
/// The move that spells `p` in full (all four `.with_*` calls).
Move launch_move(const LaunchPoint& p);

/// The values each knob takes, ascending.
struct LaunchSpace {
  std::vector<int> vectors;  // up to 16 bytes of the kernel's widest tensor
  std::vector<int> blocks;   // 128 .. 1024 threads
  std::vector<int> items;    // 1 .. 8 vectors per thread and trip
  bool contains(const LaunchPoint& p) const;
};

LaunchSpace launch_space(const MemOpConfig& m);

/// The first round, `start` (the spec's own launch) first: more bytes in flight per thread (items 2, 4),
/// bigger and smaller blocks, the other grid policy, the widest vector; duplicates and points outside `s`
/// dropped.
std::vector<LaunchPoint> seed_points(const LaunchPoint& start, const LaunchSpace& s);

/// Each knob one step along its domain from `p` (the grid policy flipped), in knob order.
std::vector<LaunchPoint> neighbors(const LaunchPoint& p, const LaunchSpace& s);

/// Up to `count` points not in `tried`: the neighbours of `best`, then those of its neighbours (two steps);
/// empty when every point that near has been tried (the search has converged around `best`).
std::vector<LaunchPoint> next_points(const LaunchPoint& best, const std::set<LaunchPoint>& tried,
                                     const LaunchSpace& s, size_t count);

}  // namespace ucut::search
