// report/json.h — the report's data model (report/workspace_report.h) as JSON, for tools: report.json.
#pragma once

#include <nlohmann/json.hpp>

#include "report/workspace_report.h"

namespace ucut::report {

/// {"workspace", "gpu", "runs", "summary": {scored, no_baseline, geomean_filtered, geomean_unfiltered,
/// inflation, fast_p, time}, "curves": {fast_p_filtered, fast_p_unfiltered, attempt_fast_p}, "grid"
/// (sched::grid_to_json or null), "problems"}. Missing values are null.
nlohmann::json report_json(const WorkspaceReport& r);

}  // namespace ucut::report
