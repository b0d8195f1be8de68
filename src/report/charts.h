// report/charts.h — the four charts of the report page (report/html.h), each one inline <svg> element, drawn
// with report/svg.h: fast_p over p, fast_1 over attempts, the policy grid's Pareto frontier and the roofline.
// A chart without data is still one <svg>, saying so.
#pragma once

#include <string>

#include "report/workspace_report.h"

namespace ucut::report {

/// fast_p over p, with and without integrity filtering.
std::string fast_p_chart(const WorkspaceReport& r);
/// The share of problems beating the baseline within their first k attempts.
std::string attempt_fast_p_chart(const WorkspaceReport& r);
/// Cost (attempts) vs geomean speedup of every replayed policy, the frontier, the fixed policy and the best gain.
std::string pareto_chart(const WorkspaceReport& r);
/// Log-log roofline of r.gpu (TF32 and FP16 compute roofs, the DRAM bandwidth roof) with each measured problem.
std::string roofline_chart(const WorkspaceReport& r);

}  // namespace ucut::report
