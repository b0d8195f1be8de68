// emit/cpp_writer.h — a structured C++ printer: indentation, scopes, aliases and comments in one place,
// so backends describe code instead of counting spaces. Output is byte-deterministic.
#pragma once

#include <string>
#include <string_view>

namespace ucut {

class CppWriter {
 public:
  /// One line at the current indentation ("" for a blank line).
  void line(std::string_view text = "");
  /// `// text`, one comment line per line of `text`.
  void comment(std::string_view text);
  /// `head {` and indent.
  void open(std::string_view head);
  /// Dedent and `}` + tail (e.g. "}  // namespace x", "};").
  void close(std::string_view tail = "}");
  /// `using name = type;`
  void alias(std::string_view name, std::string_view type);
  /// A block of text copied verbatim (templates); lines keep their own indentation.
  void verbatim(std::string_view block);

  const std::string& str() const { return out_; }

 private:
  std::string out_;
  int indent_ = 0;
};

/// A C string literal with every byte that needs it escaped (quotes, backslashes, control and non-ASCII
/// bytes), so any spec text survives as data.
std::string cpp_string_literal(std::string_view text);

}  // namespace ucut
