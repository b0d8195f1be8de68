// support/diag_render.h — the two consumers of diagnostics: text for people, JSON for tools.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "support/diag.h"

namespace ucut {

/// `file:line:col: error[C201]: message`, the source line, a caret run, `help:` and notes.
std::string render_text(const SourceFile& src, const Diagnostic& d, bool color = false);
std::string render_text(const SourceFile& src, const std::vector<Diagnostic>& ds, bool color = false);

/// {rule, slug, severity, line, col, end_line, end_col, message, hint, fix?, notes[]}
nlohmann::json to_json(const SourceFile& src, const Diagnostic& d);
nlohmann::json to_json(const SourceFile& src, const std::vector<Diagnostic>& ds);

std::string_view severity_name(Severity s);
std::string_view applicability_name(Applicability a);

}  // namespace ucut
