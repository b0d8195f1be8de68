// emit/cpp_writer.cpp — CppWriter.
#include "emit/cpp_writer.h"

namespace ucut {

void CppWriter::line(std::string_view text) {
  if (!text.empty()) out_.append(static_cast<size_t>(indent_) * 2, ' ');
  out_ += text;
  out_ += '\n';
}

void CppWriter::comment(std::string_view text) {
  while (true) {
    size_t nl = text.find('\n');
    std::string part(text.substr(0, nl));
    for (char& c : part)
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t') c = '?';
    // A trailing backslash would splice the next line into this comment.
    if (!part.empty() && part.back() == '\\') part += " (end of line)";
    line(part.empty() ? std::string("//") : "// " + part);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

void CppWriter::open(std::string_view head) {
  line(std::string(head) + " {");
  ++indent_;
}

void CppWriter::close(std::string_view tail) {
  if (indent_ > 0) --indent_;
  line(tail);
}

void CppWriter::alias(std::string_view name, std::string_view type) {
  line("using " + std::string(name) + " = " + std::string(type) + ";");
}

void CppWriter::verbatim(std::string_view block) {
  out_ += block;
  if (!block.empty() && block.back() != '\n') out_ += '\n';
}

std::string cpp_string_literal(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n\"\n    \""; break;  // one source line per spec line
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          static const char* hex = "0123456789abcdef";
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 15];
          out += "\"\"";  // end the literal so the next character cannot extend the hex escape
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

}  // namespace ucut
