// emit/template_paste.cpp — see template_paste.h. The marker format lives here and nowhere else.
#include "emit/template_paste.h"

#include <fmt/format.h>

#include <optional>
#include <vector>

#include "support/embedded.h"
#include "support/error.h"
#include "support/sha256.h"

namespace ucut {
namespace {

constexpr std::string_view kBegin = "// ---- begin template ";
constexpr std::string_view kHash = " (sha256 ";
constexpr std::string_view kBeginTail = ") ----";
constexpr std::string_view kEnd = "// ---- end template ";
constexpr std::string_view kEndTail = " ----";

std::string begin_marker(std::string_view name, std::string_view hash) {
  return fmt::format("{}{}{}{}{}", kBegin, name, kHash, hash, kBeginTail);
}

std::string end_marker(std::string_view name) { return fmt::format("{}{}{}", kEnd, name, kEndTail); }

/// The embedded file as pasted: ending in a newline (CppWriter::verbatim adds one), so that the end marker
/// starts a line.
std::optional<std::string> pasted_text(std::string_view name) {
  std::optional<std::string_view> text = embedded_file(name);
  if (!text) return std::nullopt;
  std::string out(*text);
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

/// `text` cut after each newline, so the pieces concatenate back to it byte for byte.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    size_t len = nl == std::string_view::npos ? text.size() : nl + 1;
    out.push_back(text.substr(0, len));
    text.remove_prefix(len);
  }
  return out;
}

std::string_view without_newline(std::string_view line) {
  return line.ends_with('\n') ? line.substr(0, line.size() - 1) : line;
}

/// A begin marker read: the template it names and that template's text as pasted; `error` when the rest of
/// the line is not `NAME (sha256 HASH) ----`, no embedded file is called NAME, or HASH is not its text's.
struct Opened {
  std::string name;
  std::string text;
  std::string error;
};

Opened open_template(std::string_view line) {
  std::string_view rest = line.substr(kBegin.size());
  size_t hash_at = rest.find(kHash);
  if (hash_at == std::string_view::npos || hash_at == 0 ||
      rest.substr(0, hash_at).find(' ') != std::string_view::npos || !rest.ends_with(kBeginTail) ||
      rest.size() < hash_at + kHash.size() + kBeginTail.size())
    return {"", "", fmt::format("`{}` is not a begin marker `{}`", line, begin_marker("NAME", "HASH"))};
  std::string name(rest.substr(0, hash_at));
  std::string_view hash = rest.substr(hash_at + kHash.size());
  hash.remove_suffix(kBeginTail.size());
  std::optional<std::string> text = pasted_text(name);
  if (!text) return {name, "", fmt::format("no embedded template is called `{}`", name)};
  if (hash != template_hash(*text))
    return {name, "", fmt::format("the marker says sha256 {}, the embedded `{}` hashes to {}", hash, name,
                                  template_hash(*text))};
  return {name, *text, ""};
}

TemplateText failure(size_t index, std::string_view why) {
  return {"", fmt::format("line {}: {}", index + 1, why)};
}

enum class Direction { collapse, expand };

/// `text` copied line by line, each begin marker's template collapsed (its text and end marker dropped) or
/// expanded (the embedded text and an end marker added after it).
TemplateText convert(std::string_view text, Direction d) {
  std::vector<std::string_view> lines = lines_of(text);
  TemplateText out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = without_newline(lines[i]);
    if (line.starts_with(kEnd)) {
      const char* why = d == Direction::collapse ? "follows no begin marker" : "in collapsed text";
      return failure(i, fmt::format("`{}` {}", line, why));
    }
    out.text += lines[i];
    if (!line.starts_with(kBegin)) continue;
    Opened t = open_template(line);
    if (!t.error.empty()) return failure(i, t.error);
    std::string end = end_marker(t.name);
    if (d == Direction::expand) {
      if (!lines[i].ends_with('\n')) out.text += '\n';
      out.text += t.text + end + "\n";
      continue;
    }
    size_t j = i + 1;
    std::string body;
    while (j < lines.size() && without_newline(lines[j]) != end) body += lines[j++];
    if (j == lines.size()) return failure(i, fmt::format("`{}` has no end marker `{}`", t.name, end));
    if (body != t.text)
      return failure(i, fmt::format("the text pasted as `{}` (to line {}) is not that file", t.name, j + 1));
    i = j;
  }
  return out;
}

}  // namespace

std::string template_hash(std::string_view text) { return sha256_hex(text).substr(0, 16); }

void paste_template(CppWriter& w, std::string_view name) {
  auto pasted = pasted_text(name);
  UC_ASSERT(pasted) << "template `" << name << "` is not embedded (cmake/embed.cmake globs src/abi and src/emit/templates)";
  std::string text = std::move(*pasted);
  w.verbatim(begin_marker(name, template_hash(text)));
  w.verbatim(text);
  w.verbatim(end_marker(name));
}

TemplateText collapse_templates(std::string_view code) { return convert(code, Direction::collapse); }

TemplateText expand_templates(std::string_view collapsed) { return convert(collapsed, Direction::expand); }

}  // namespace ucut
