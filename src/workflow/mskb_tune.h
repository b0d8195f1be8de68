// workflow/mskb_tune.h — `ucutlass mskb tune`: the built-in search for memory-bound family specs on MSKB tasks, no
// model needed. For each (task, precision) pair it starts from the pair's spec (`<specs>/<name>.ucut`, a `map`,
// `reduce` or other family kernel), walks its launch space (engine/search/launch_search.h) in rounds, and measures
// each round's variants side by side in one MSKB worker run with the naive launcher, the spec as written and the
// best so far (workflow/mskb_bench.h measure_mskb_pair: built through the cache, verified on every case, timed,
// flagged). A variant ranks by P, the complexity-weighted mean speedup over the naive launcher in GPU busy time;
// one that fails a case or is flagged never wins. The search stops when the best reaches `stop_at` of t_SOL_eff on
// the largest case (the latency floor or the bytes over the bandwidth), when a round improves P by less than
// `min_gain`, when no untried neighbour is left, or at the budget. The best spec and its launcher are written as
// <out>/<precision>/<name>.ucut and .cu (a folder for `bench mskb --impl`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/search/launch_search.h"
#include "engine/search/rewrite.h"
#include "workflow/mskb_bench.h"

namespace ucut {

struct MskbTuneOptions {
  MskbBenchOptions bench;                 // tasks, precisions, suite, cache, toolchain, worker, timing knobs
  std::string specs_dir = "examples/mskb";  // <name>.ucut per pair (RELU.ucut, RELU_bf16.ucut)
  std::string out_dir = "out/mskb-tune";
  int budget = 16;        // variants measured per pair, the spec as written included
  int rounds = 3;         // measuring runs per pair
  size_t batch = 7;       // new variants per round
  double stop_at = 0.9;   // stop once the best reaches this share of t_SOL_eff on the largest case
  double min_gain = 0.01; // stop when a round improves the best P by less than this share
};

/// Why a pair's search ended.
enum class TuneStop { at_sol, converged, exhausted, budget, rounds, needs_gpu, failed };
const char* tune_stop_name(TuneStop s);

/// One measured variant of a pair's spec.
struct TuneVariant {
  int round = 0;
  search::LaunchPoint point;
  std::string label;       // its key in its round's pair report ("v3")
  std::string phrase;      // "vector 4, block 512, 2 items, grid persistent"
  std::string spec_hash;   // memop_hash of the variant
  mskb::PairScore kernel;  // vs naive, GPU busy time, in its round's run
  mskb::PairScore compat;  // vs naive, MSKB-compatible time
  double largest_ms = 0;   // GPU busy time on the largest case
  double sol_eff_share = 0;  // t_SOL_eff / largest_ms on the largest case (0 without a bound)
  bool ok = false;         // correct and unflagged on every case
  std::string error;       // the first failure (a build error, a wrong case)
};

struct MskbTunePair {
  std::string task, name, spec_path;
  mskb::Precision precision = mskb::Precision::fp32;
  std::string gpu_name, driver_version, date;
  std::vector<TuneVariant> variants;  // in the order measured; a variant re-measured in a later round appears again
  search::Rejections rejected;        // variants check refused, by rule (C702, C703)
  int rounds = 0;
  int best = -1;    // index into variants: the best of the last round that had a winner
  int start = -1;   // the spec as written, in the same round as `best`
  TuneStop stop = TuneStop::rounds;
  std::string error;      // why the pair could not be tuned (no spec, not a family kernel, does not export)
  std::string best_spec;  // the winning spec's text
  std::string written;    // where the best spec and launcher went ("" when none)
};

struct MskbTuneReport {
  std::vector<MskbTunePair> pairs;
  std::string date;
  bool needs_gpu() const;
  bool failed() const;  // a pair that could not be tuned
};

/// Throws std::invalid_argument for an unknown task, std::runtime_error when the toolchain is missing.
MskbTuneReport tune_mskb(const MskbTuneOptions& o);

nlohmann::json mskb_tune_json(const MskbTuneReport& r);
std::string mskb_tune_markdown(const MskbTuneReport& r, const std::string& command);

}  // namespace ucut
