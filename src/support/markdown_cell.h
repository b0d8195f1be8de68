// support/markdown_cell.h — text made safe for one cell of a Markdown table: the reports' one escaping rule.
#pragma once

#include <string>
#include <string_view>

namespace ucut {

/// Pipes escaped and line breaks turned into spaces, so that a value cannot split its row or table.
std::string markdown_cell(std::string_view text);

/// As markdown_cell, for text set in a code span inside the cell: backticks, which would end the span, become '.
std::string markdown_code_cell(std::string_view text);

}  // namespace ucut
