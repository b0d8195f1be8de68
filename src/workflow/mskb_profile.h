// workflow/mskb_profile.h — one MSKB launcher under Nsight Compute: the MSKB worker's profile mode
// (MskbRequest::profile_only: the case's inputs, then one call between cudaProfilerStart and
// cudaProfilerStop) run by ncu with --profile-from-start off, so only the launcher's own kernels are
// profiled; the longest is classified with the thresholds and filtered to the metrics that matter for its
// class, as `ucutlass profile` does for specs (workflow/profile_spec.h). Without counters (no ncu, no
// permission, no GPU, no worker) the report degrades to the timing and SOL it is given and says why; nothing
// here throws for those.
#pragma once

#include <optional>
#include <string>

#include "engine/cudamaster/evaluator.h"
#include "engine/profile/ncu_run.h"
#include "engine/profile/thresholds.h"
#include "mskb/protocol_enums.h"
#include "mskb/task.h"
#include "sol/roofline.h"

namespace ucut {

struct MskbProfileOptions {
  std::string worker;  // default: mskb::find_mskb_worker()
  std::string ncu = profile::find_ncu();
  double timeout_s = 600;  // the whole ncu run (replay makes several passes per kernel)
  profile::Thresholds thresholds = profile::prior_thresholds();
};

/// What the harness already knows of the launcher on the profiled case, for the SOL percentage and for the
/// report without counters.
struct MskbProfileContext {
  std::optional<double> measured_ms;             // its timed GPU busy time
  double sol_ms = 0;                             // the case's SOL bound (0: none)
  std::optional<sol::BoundKind> roofline_bound;  // the side of the ridge the case sits on
};

/// Profiles `library` (a launcher built for the pair, in role `role`) on case `case_index`.
engine::cudamaster::ProfileResult profile_mskb_launcher(const mskb::Task& t, mskb::Precision p,
                                                        const std::string& library, mskb::Role role,
                                                        int case_index, const MskbProfileContext& context,
                                                        const MskbProfileOptions& opts);

}  // namespace ucut
