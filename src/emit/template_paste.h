// emit/template_paste.h — the fixed templates an emitted file pastes (abi/, emit/templates/,
// export/templates/), each framed by two marker lines that name and hash it; the goldens keep only the first.
#pragma once

#include <string>
#include <string_view>

#include "emit/cpp_writer.h"

namespace ucut {

/// Pastes the embedded file `name` verbatim (an emitted file stays one self-contained translation unit)
/// between `// ---- begin template NAME (sha256 HASH) ----` and `// ---- end template NAME ----` at column 0,
/// where HASH is template_hash of the text.
void paste_template(CppWriter& w, std::string_view name);

/// The first 16 hex digits of the SHA-256 of a template's text: which version of it a file pasted.
std::string template_hash(std::string_view text);

/// Emitted code with its templates collapsed or expanded; `error` is empty when every marker was sound.
struct TemplateText {
  std::string text;
  std::string error;  // "line N: ..." (1-based, in the input) naming the first unsound marker
};

/// What the goldens hold: `code` with each pasted template's text and end marker dropped, its begin marker
/// kept where it was. An error when a begin marker has no end marker (or an end marker no begin marker), the
/// text between them is not the embedded file it names, or the marker's hash is not that file's.
TemplateText collapse_templates(std::string_view code);

/// The inverse of collapse_templates: each begin marker followed by the embedded file it names and its end
/// marker. An error when a marker names no embedded file or its hash is not that file's (the file changed).
TemplateText expand_templates(std::string_view collapsed);

}  // namespace ucut
