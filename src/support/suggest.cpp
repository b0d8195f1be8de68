// support/suggest.cpp — spelling suggestions for names.
#include "support/suggest.h"

#include <algorithm>
#include <numeric>

namespace ucut {

int edit_distance(std::string_view a, std::string_view b, int max_distance) {
  if (static_cast<int>(a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > max_distance)
    return max_distance + 1;
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    int prev = row[0];
    row[0] = static_cast<int>(i);
    int best = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      int cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
      best = std::min(best, row[j]);
    }
    if (best > max_distance) return max_distance + 1;
  }
  return row[b.size()];
}

std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string_view>& candidates) {
  int limit = std::max(1, static_cast<int>(word.size()) / 3);
  std::optional<std::string> best;
  int best_d = limit + 1;
  for (std::string_view c : candidates) {
    int d = edit_distance(word, c, limit);
    if (d < best_d) {
      best_d = d;
      best = std::string(c);
    }
  }
  return best;
}

std::string quoted_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? " or " : ", ";
    out += "`";
    out += names[i];
    out += "`";
  }
  return out;
}

}  // namespace ucut
