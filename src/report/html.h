// report/html.h — the report as one self-contained HTML page: inline CSS and SVG charts (report/charts.h), no
// script and no link to anything outside it; every text from the workspace is escaped.
#pragma once

#include <string>

#include "report/workspace_report.h"

namespace ucut::report {

/// The whole page. Deterministic: the same report gives the same bytes (no date of its own).
std::string render_html(const WorkspaceReport& r);

}  // namespace ucut::report
