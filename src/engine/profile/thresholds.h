// engine/profile/thresholds.h — the classifier's thresholds τ on SM%, DRAM% and Memory%: learned by Otsu
// over a corpus of profiles (CUDAMaster's method), or the 30% prior; saved and loaded as JSON:
//
//   {
//     "schema": "ucutlass.profile_thresholds/1",
//     "sm_pct": 41.5, "dram_pct": 30, "mem_pct": 37.25,      // each in [0, 100]
//     "source": "otsu over 24 profiles of 'mskb-baselines': SM 41.5% (otsu), …",
//     "date": "2026-12-01T18:00:00Z",                        // when learned; "" for the prior
//     "corpus": { "name": "mskb-baselines",
//                 "kernels": [ { "kernel": "spmv_csr_kernel", "source": "mskb spmv_csr bf16 baseline",
//                                "metrics": { "sm__throughput.avg.pct_of_peak_sustained_elapsed": 12.5, … } }, … ]
//                 }
//   }
//
// Each corpus kernel keeps the table's metrics (metrics.h) as profiled ("metrics" may be absent in older files), so
// the thresholds can be audited and learned again (corpus_profiles) without a GPU.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/profile/kernel_profile.h"

namespace ucut::profile {

inline constexpr std::string_view kThresholdsSchema = "ucutlass.profile_thresholds/1";
/// CUDAMaster's brief: about 30% of peak separates busy from idle units.
inline constexpr double kPriorThresholdPct = 30;
/// Fewer distinct values than this and a metric keeps the prior: Otsu would only split a pair.
inline constexpr int kMinDistinctForOtsu = 3;

struct CorpusKernel {
  std::string kernel;
  std::string source;
  std::map<std::string, double> metrics;  // raw ncu name → value, the table's metrics only
  bool operator==(const CorpusKernel&) const = default;
};

struct Thresholds {
  double sm_pct = kPriorThresholdPct, dram_pct = kPriorThresholdPct, mem_pct = kPriorThresholdPct;
  std::string source;       // where they came from, per metric
  std::string date;         // ISO 8601 UTC when learned; empty for the prior
  std::string corpus_name;  // empty for the prior
  std::vector<CorpusKernel> corpus;
};

/// 30% on every metric, with a source saying so.
Thresholds prior_thresholds();

/// Otsu over the corpus's values of each metric; a metric with too few distinct values keeps the prior,
/// and `source` says which. An empty corpus gives prior_thresholds().
Thresholds learn_thresholds(const std::vector<KernelProfile>& corpus, std::string corpus_name);

/// The corpus kernels back as profiles (kernel, source, metrics), to learn the thresholds again.
std::vector<KernelProfile> corpus_profiles(const Thresholds& t);

nlohmann::json thresholds_json(const Thresholds& t);
/// nullopt with `error` naming the field on a malformed object.
std::optional<Thresholds> thresholds_from_json(const nlohmann::json& j, std::string* error);

/// Writes thresholds_json(t) to `path`; false with `error` on failure.
bool save_thresholds(const Thresholds& t, const std::string& path, std::string* error);
/// Reads and validates `path`; nullopt with `error` (the path, then what is wrong) on failure.
std::optional<Thresholds> load_thresholds(const std::string& path, std::string* error);

}  // namespace ucut::profile
