// support/suggest.cpp — spelling suggestions for names.
#include "support/suggest.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace ucut {

int edit_distance(std::string_view a, std::string_view b, int max_distance) {
  if (static_cast<int>(a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > max_distance)
    return max_distance + 1;
  // Three rows of the table: an adjacent swap reads two rows back, so a path may skip one row, and the early exit
  // needs two consecutive rows above the cap.
  std::vector<int> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  std::iota(prev.begin(), prev.end(), 0);
  int prev_best = 0;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = static_cast<int>(i);
    int best = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
      best = std::min(best, row[j]);
    }
    if (std::min(best, prev_best) > max_distance) return max_distance + 1;
    prev_best = best;
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return std::min(prev[b.size()], max_distance + 1);
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string_view>& candidates,
                                       size_t max_count) {
  int limit = std::max(1, static_cast<int>(word.size()) / 3);
  std::string w = lower(word);
  std::vector<std::string> best;
  int best_d = limit + 1;
  for (std::string_view c : candidates) {
    int d = edit_distance(w, lower(c), limit);
    if (d > limit || d > best_d || std::find(best.begin(), best.end(), c) != best.end()) continue;
    if (d < best_d) best.clear();
    best_d = d;
    if (best.size() < max_count) best.emplace_back(c);
  }
  return best;
}

std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::vector<std::string> best = closest_names(word, candidates);
  if (best.empty()) return std::nullopt;
  return best.front();
}

std::optional<std::string> did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::vector<std::string> best = closest_names(word, candidates);
  if (best.empty()) return std::nullopt;
  return "did you mean " + quoted_list({best.begin(), best.end()}) + "?";
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
