// export/python_text.cpp — see python_text.h.
#include "export/python_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>

namespace ucut::interop {

std::string python_string_literal(std::string_view text) {
  std::string out = "\"\"\"";
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool last = i + 1 == text.size();
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"' && (last || text[i + 1] == '"')) {
      out += "\\\"";  // no run of three quotes, and none next to the closing ones
    } else if (c == '\r') {
      out += "\\r";
    } else if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"\"\"";
}

std::string python_name(std::string_view name, std::set<std::string>& taken) {
  static const std::set<std::string, std::less<>> keywords = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  std::string base;
  for (char c : name) base += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "_" + base;
  if (keywords.count(base)) base += "_";
  std::string out = base;
  for (int i = 2; taken.count(out); ++i) out = fmt::format("{}_{}", base, i);
  taken.insert(out);
  return out;
}

std::string python_comment(std::string_view text, size_t width) {
  std::string out, line = "#";
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(at, end - at);
    if (line.size() > 1 && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = "#";
    }
    if (!word.empty()) line += " " + std::string(word);
    at = end + 1;
  }
  return out + line + "\n";
}

std::string python_float(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // "inf" and "nan" contain an n
  if (s == "inf") return "float(\"inf\")";
  if (s == "-inf") return "-float(\"inf\")";
  if (s == "nan") return "float(\"nan\")";
  return s;
}

std::string python_tuple(const std::vector<int64_t>& v) {
  return v.size() == 1 ? fmt::format("({},)", v[0]) : fmt::format("({})", fmt::join(v, ", "));
}

}  // namespace ucut::interop
