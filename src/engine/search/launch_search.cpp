// engine/search/launch_search.cpp — see launch_search.h.
#include "engine/search/launch_search.h"

#include <algorithm>

#include "ir/types.h"

namespace ucut::search {
namespace {

/// The value one step below (-1) or above (+1) `v` in the ascending `domain`, if any.
std::optional<int> step(const std::vector<int>& domain, int v, int dir) {
  auto it = std::find(domain.begin(), domain.end(), v);
  if (it == domain.end()) return std::nullopt;
  if (dir < 0) return it == domain.begin() ? std::nullopt : std::optional<int>(*(it - 1));
  return it + 1 == domain.end() ? std::nullopt : std::optional<int>(*(it + 1));
}

GridPolicy other(GridPolicy g) { return g == GridPolicy::persistent ? GridPolicy::cover : GridPolicy::persistent; }

}  // namespace

LaunchPoint launch_point(const MemTunables& t) {
  return {t.vector.value, t.block.value, t.items.value, t.grid.value, t.rows.value};
}

Move launch_move(const LaunchPoint& p, const LaunchSpace& s) {
  Move m;
  m.vector = p.vector;
  m.block = p.block;
  m.items = p.items;
  m.grid = p.grid;
  if (s.moves_rows()) m.rows = p.rows;
  return m;
}

bool LaunchSpace::contains(const LaunchPoint& p) const {
  auto in = [](const std::vector<int>& d, int v) { return std::find(d.begin(), d.end(), v) != d.end(); };
  return in(vectors, p.vector) && in(blocks, p.block) && in(items, p.items) && in(rows, p.rows);
}

LaunchSpace launch_space(const MemOpConfig& m) {
  int widest = dtype_bits(m.output().dtype.value);
  for (const TensorDecl& in : m.inputs) widest = std::max(widest, dtype_bits(in.dtype.value));
  LaunchSpace s;
  for (int v = 1; v * widest <= 128; v *= 2) s.vectors.push_back(v);
  s.blocks = {128, 256, 512, 1024};
  s.items = {1, 2, 4, 8};
  s.rows = {memop_default_rows(m)};
  if (m.norm) {
    const NormAxes axes = norm_axes(m);
    if (axes.adjacent && axes.inner.empty()) s.rows = {1, 4, 8, 16, 32};
  } else if (m.reduce && !m.reduce->over.empty()) {
    const ReduceAxes axes = reduce_axes(m);
    if (!axes.kept.empty() && axes.suffix()) s.rows = {kMemAutoRows, 1, 2, 4, 8};  // `auto`, or rows of whole warps
  }
  return s;
}

std::vector<LaunchPoint> seed_points(const LaunchPoint& start, const LaunchSpace& s) {
  std::vector<LaunchPoint> out;
  auto add = [&](LaunchPoint p) {
    if (s.contains(p) && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  out.push_back(start);  // the spec as written, even outside the space
  auto with = [&](auto change) {
    LaunchPoint p = start;
    change(p);
    add(p);
  };
  with([](LaunchPoint& p) { p.items = 2; });
  with([](LaunchPoint& p) { p.items = 4; });
  with([](LaunchPoint& p) { p.block = 512; });
  with([](LaunchPoint& p) { p.block = 128; });
  with([](LaunchPoint& p) { p.grid = other(p.grid); });
  with([&](LaunchPoint& p) { p.vector = s.vectors.back(); });
  with([](LaunchPoint& p) {
    p.items = 4;
    p.grid = other(p.grid);
  });
  if (s.moves_rows()) with([](LaunchPoint& p) { p.rows = p.block / 32; });  // a warp per row
  return out;
}

std::vector<LaunchPoint> neighbors(const LaunchPoint& p, const LaunchSpace& s) {
  std::vector<LaunchPoint> out;
  for (int dir : {-1, 1}) {
    if (auto v = step(s.vectors, p.vector, dir)) out.push_back({*v, p.block, p.items, p.grid, p.rows});
    if (auto b = step(s.blocks, p.block, dir)) out.push_back({p.vector, *b, p.items, p.grid, p.rows});
    if (auto i = step(s.items, p.items, dir)) out.push_back({p.vector, p.block, *i, p.grid, p.rows});
    if (auto r = step(s.rows, p.rows, dir)) out.push_back({p.vector, p.block, p.items, p.grid, *r});
  }
  out.push_back({p.vector, p.block, p.items, other(p.grid), p.rows});
  return out;
}

std::vector<LaunchPoint> next_points(const LaunchPoint& best, const std::set<LaunchPoint>& tried,
                                     const LaunchSpace& s, size_t count) {
  std::vector<LaunchPoint> out;
  auto take = [&](const LaunchPoint& p) {
    if (out.size() < count && !tried.count(p) && std::find(out.begin(), out.end(), p) == out.end())
      out.push_back(p);
  };
  const std::vector<LaunchPoint> near = neighbors(best, s);
  for (const LaunchPoint& p : near) take(p);
  for (const LaunchPoint& n : near)
    for (const LaunchPoint& p : neighbors(n, s))
      if (p != best) take(p);
  return out;
}

}  // namespace ucut::search
