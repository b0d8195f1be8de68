// support/diag_render.h — the two consumers of diagnostics: text for people, JSON for tools.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "support/diag.h"

namespace ucut {

/// `file:line:col: error[C201]: message`, the source line, a caret run, `help:` and notes.
std::string render_text(const SourceFile& src, const Diagnostic& d, bool color = false);
std::string render_text(const SourceFile& src, const std::vector<Diagnostic>& ds, bool color = false);
/// Every diagnostic of `diags`, then `... and N more errors` when the engine dropped some (DiagEngine::kMaxErrors).
std::string render_text(const SourceFile& src, const DiagEngine& diags, bool color = false);

/// `text` safe to print on a terminal: printable ASCII, newlines, tabs and valid UTF-8 as they are; every other byte
/// (NUL, ESC and the other controls, DEL, bytes of no valid UTF-8 sequence) as `\xNN`. Source lines shown under a
/// diagnostic are escaped the same way, with the caret under the escaped bytes.
std::string printable(std::string_view text);

/// {rule, slug, severity, line, col, end_line, end_col, message, hint, fix?, notes[]}
nlohmann::json to_json(const SourceFile& src, const Diagnostic& d);
nlohmann::json to_json(const SourceFile& src, const std::vector<Diagnostic>& ds);

std::string_view severity_name(Severity s);
std::string_view applicability_name(Applicability a);

}  // namespace ucut
