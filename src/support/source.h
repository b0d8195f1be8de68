// support/source.h — a spec's text and the spans that point into it.
// Every token, AST node and IR field taken from the source carries a Span, so any stage can say where.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ucut {

/// The whole text of one spec, with its display name ("mlp.ucut", "<stdin>") and a line index.
class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  /// 1-based line and column of a byte offset (column counts bytes).
  std::pair<int, int> line_col(uint32_t offset) const;
  /// The text of 1-based line `line` without its newline.
  std::string_view line_text(int line) const;
  int line_count() const { return static_cast<int>(line_starts_.size()); }

 private:
  std::string name_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

/// The length in bytes (2 to 4) of the valid UTF-8 character that starts at byte `i` of `text`; 0 when none does (an
/// ASCII byte, a stray continuation byte, a truncated, overlong or surrogate sequence).
size_t utf8_char_length(std::string_view text, size_t i);

/// A byte range [begin, end) in a SourceFile. `implied` marks a value that lowering filled in by default:
/// it points at the construct that got the default (usually the kernel header), never at {0,0} by accident.
struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool implied = false;

  static Span implied_at(Span s) { return Span{s.begin, s.end, true}; }
  Span to(Span other) const { return Span{begin, other.end, implied}; }
  bool valid() const { return end >= begin; }
};

/// A value with the span it came from.
template <class T>
struct Spanned {
  T value{};
  Span span{};
};

}  // namespace ucut
