// support/markdown_cell.cpp — see markdown_cell.h.
#include "support/markdown_cell.h"

namespace ucut {

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string markdown_code_cell(std::string_view text) {
  std::string out = markdown_cell(text);
  for (char& c : out)
    if (c == '`') c = '\'';
  return out;
}

}  // namespace ucut
