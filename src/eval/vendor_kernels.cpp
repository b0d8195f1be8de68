// eval/vendor_kernels.cpp — see vendor_kernels.h.
#include "eval/vendor_kernels.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace ucut {

namespace {

enum class Match { prefix, contains };

struct Row {
  MathLibrary library;
  Match match;
  std::string_view pattern;
};

constexpr std::array kRows = {
#define VENDOR_KERNEL(library, match, pattern) Row{MathLibrary::library, Match::match, pattern},
#include "eval/vendor_kernels.def"
#undef VENDOR_KERNEL
};

}  // namespace

std::optional<MathLibrary> library_of_kernel(std::string_view name) {
  for (const Row& r : kRows)
    if (r.match == Match::prefix ? name.starts_with(r.pattern)
                                 : name.find(r.pattern) != std::string_view::npos)
      return r.library;
  return std::nullopt;
}

void note_vendor_kernel(std::string_view name, std::vector<std::string>& found, size_t max) {
  std::optional<MathLibrary> library = library_of_kernel(name);
  if (!library || found.size() >= max) return;
  std::string shown = fmt::format("{}: {}", library_shown(*library), name);
  if (std::find(found.begin(), found.end(), shown) == found.end()) found.push_back(std::move(shown));
}

}  // namespace ucut
