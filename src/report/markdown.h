// report/markdown.h — the report's summary as a short Markdown document (tables, no charts): what
// `ucutlass report` prints, and report.md.
#pragma once

#include <string>

#include "report/workspace_report.h"

namespace ucut::report {

std::string render_markdown(const WorkspaceReport& r);

}  // namespace ucut::report
