// workflow/profile_corpus.h — `ucutlass profile-corpus`: profile a list of (spec, problem) pairs and learn the
// classifier's thresholds from them by Otsu's method (engine/profile/thresholds.h). The pairs come from a
// manifest:
//
//   # corpus.toml
//   name = "kernelbench-seeds"            # the corpus's name, recorded with the thresholds (default: the
//   file's stem)
//   [[pair]]
//   spec = "../bench/kernelbench/impl/L1_001_square_matmul.ucut"       # relative to this file
//   problem = "../suites/kernelbench/level1/L1_001_square_matmul.toml"  # a harness or a suite problem
//   [[pair]]                                                            # no spec: the suite problem's generated
//   problem = "../suites/kernelbench/level1/L1_004_matvec.toml"         # starting spec (engine/search/seed_spec.h),
//   tolerance = 1e-2                                                    # at this atol = rtol when given
//
// Every pair's kernel is built first, in parallel (the build cache), then each is profiled on its own.
// A pair that cannot be profiled (no counters, a spec that does not check or build) is listed with its reason
// and left out; the others still count. The thresholds file keeps every profiled kernel's metrics, so the
// thresholds can be audited and learned again without a GPU.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "workflow/profile_spec.h"

namespace ucut {

struct CorpusPair {
  std::string spec, problem;  // paths, resolved against the manifest's folder; spec "" = the generated seed
  std::optional<double> tolerance;  // replaces the suite problem's atol = rtol (seeds of a relaxed problem use TF32)
};

struct CorpusManifest {
  std::string name;
  std::vector<CorpusPair> pairs;
};

/// Reads a manifest; nullopt with `error` naming the file, the field and the fix.
std::optional<CorpusManifest> load_corpus_manifest(const std::string& path, std::string* error);

struct CorpusEntry {
  CorpusPair pair;
  std::optional<profile::KernelProfile> kernel;  // the classified kernel of its launch, when profiled
  std::string skipped;                           // why it is not in the corpus, when it is not
};

struct CorpusResult {
  std::vector<CorpusEntry> entries;  // in manifest order
  profile::Thresholds thresholds;    // learned over the profiled kernels; the prior when there are none
  int profiled() const;
};

/// Profiles every pair with `opts` (its thresholds are not used) and learns the thresholds; `progress` sees
/// one line per pair.
CorpusResult record_corpus(const CorpusManifest& m, const ProfileOptions& opts,
                           const std::function<void(const std::string&)>& progress);

}  // namespace ucut
