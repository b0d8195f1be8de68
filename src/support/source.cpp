// support/source.cpp — line index over a spec's text.
#include "support/source.h"

#include <algorithm>

namespace ucut {

SourceFile::SourceFile(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::pair<int, int> SourceFile::line_col(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  int line = static_cast<int>(it - line_starts_.begin());
  return {line, static_cast<int>(offset - line_starts_[line - 1]) + 1};
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1 || line > line_count()) return {};
  uint32_t b = line_starts_[line - 1];
  uint32_t e = line < line_count() ? line_starts_[line] - 1 : static_cast<uint32_t>(text_.size());
  if (e > b && text_[e - 1] == '\r') --e;
  return std::string_view(text_).substr(b, e - b);
}

}  // namespace ucut
