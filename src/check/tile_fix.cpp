// check/tile_fix.cpp — one fix for every error at an explicit SM90 tile: the nearest `with_threadblockshape` that
// passes every rule, found by checking candidates. A rule sees one dimension (C201 tile M, C202 tile N, ...), and a
// hint that fixed only its own could propose a tile another rule rejects (100x100 -> `(128, 100, 64)`).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

#include "check/check.h"

namespace ucut::rules {
namespace {

bool at_tile(const KernelConfig& cfg, const Diagnostic& d) {
  return d.severity == Severity::error && d.primary.begin == cfg.tile.span.begin && d.primary.end == cfg.tile.span.end;
}

/// Every wgmma-shaped tile (M a multiple of 64, N of 8, K of 8, each at most 256), nearest to `tile` first: fewest
/// dimensions changed, then the smallest change in log2 steps.
std::vector<std::array<int, 3>> candidates(std::array<int, 3> tile) {
  struct Ranked {
    int changed;
    double distance;
    std::array<int, 3> t;
  };
  std::vector<Ranked> out;
  for (int m = 64; m <= 256; m += 64)
    for (int n = 16; n <= 256; n += 8)
      for (int k = 8; k <= 256; k += 8) {
        std::array<int, 3> t{m, n, k};
        Ranked r{0, 0, t};
        for (size_t i = 0; i < 3; ++i) {
          r.changed += t[i] != tile[i];
          r.distance += std::abs(std::log2(static_cast<double>(t[i]) / tile[i]));
        }
        if (r.changed > 0) out.push_back(r);
      }
  std::sort(out.begin(), out.end(), [](const Ranked& a, const Ranked& b) {
    return std::tie(a.changed, a.distance, a.t) < std::tie(b.changed, b.distance, b.t);
  });
  std::vector<std::array<int, 3>> tiles;
  for (const Ranked& r : out) tiles.push_back(r.t);
  return tiles;
}

/// Candidates checked before giving up: a tile the first few hundred neighbours cannot fix needs more than a tile.
constexpr size_t kMaxTries = 256;

}  // namespace

void attach_tile_fix(const KernelConfig& cfg, std::vector<Diagnostic>& found) {
  if (cfg.tile.span.implied || cfg.backend() != BackendKind::sm90) return;
  if (std::none_of(found.begin(), found.end(), [&](const Diagnostic& d) { return at_tile(cfg, d); })) return;
  // Errors elsewhere may stay (the fix is not about them); a candidate must add none and leave none at the tile.
  std::set<std::pair<RuleId, uint32_t>> before;
  for (const Diagnostic& d : found)
    if (d.severity == Severity::error) before.emplace(d.rule, d.primary.begin);
  std::optional<std::array<int, 3>> fix;
  std::vector<std::array<int, 3>> tiles = candidates(cfg.tile.value);
  for (size_t i = 0; i < tiles.size() && i < kMaxTries && !fix; ++i) {
    KernelConfig trial = cfg;
    trial.tile.value = tiles[i];
    DiagEngine diags;
    check_all(trial, diags);
    bool clean = std::all_of(diags.diagnostics().begin(), diags.diagnostics().end(), [&](const Diagnostic& d) {
      return d.severity != Severity::error || (!at_tile(cfg, d) && before.count({d.rule, d.primary.begin}));
    });
    if (clean) fix = tiles[i];
  }
  for (Diagnostic& d : found) {
    if (!at_tile(cfg, d)) continue;
    if (!fix) {  // no tile alone fixes it: a rule's own edit of the tile is at best a guess
      if (d.hint && d.hint->edit && d.hint->applicability == Applicability::machine_applicable)
        d.hint->applicability = Applicability::maybe_incorrect;
      continue;
    }
    std::string call = fmt::format("with_threadblockshape({}, {}, {})", (*fix)[0], (*fix)[1], (*fix)[2]);
    d.hint = Hint{fmt::format("use `{}`, the nearest tile that passes every rule", call), Edit{cfg.tile.span, call},
                  Applicability::machine_applicable};
  }
}

}  // namespace ucut::rules
