// problem/reference.cpp — see reference.h.
#include "problem/reference.h"

#include <array>

namespace ucut {
namespace {

constexpr std::array<const char*, 3> kReferenceNames = {"auto", "gpu", "cpu"};  // Reference's order

}  // namespace

const char* reference_name(Reference r) { return kReferenceNames[static_cast<size_t>(r)]; }

std::optional<Reference> parse_reference(std::string_view name) {
  for (size_t i = 0; i < kReferenceNames.size(); ++i)
    if (name == kReferenceNames[i]) return static_cast<Reference>(i);
  return std::nullopt;
}

std::vector<std::string_view> reference_names() { return {kReferenceNames.begin(), kReferenceNames.end()}; }

}  // namespace ucut
