// eval/library_imports.cpp — see library_imports.h.
#include "eval/library_imports.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <optional>

#include "eval/math_libraries.h"

namespace ucut {

namespace {

constexpr size_t kSymbolsShown = 4;  // per library, in the reason

struct Evidence {
  std::vector<std::string> needed, symbols;
};

}  // namespace

std::vector<IntegrityFlag> library_import_flags(const ElfImports& imports) {
  std::map<MathLibrary, Evidence> found;
  for (const std::string& n : imports.needed)
    if (std::optional<MathLibrary> l = library_of_soname(n)) found[*l].needed.push_back(n);
  for (const std::string& s : imports.undefined)
    if (std::optional<MathLibrary> l = library_of_symbol(s)) found[*l].symbols.push_back(s);
  if (found.empty()) return {};
  std::vector<std::string> parts;
  for (const auto& [library, e] : found) {
    std::vector<std::string> what;
    if (!e.needed.empty()) what.push_back(fmt::format("links {}", fmt::join(e.needed, ", ")));
    if (!e.symbols.empty()) {
      size_t shown = std::min(e.symbols.size(), kSymbolsShown);
      what.push_back(
          fmt::format("imports {}{}", fmt::join(e.symbols.begin(), e.symbols.begin() + shown, ", "),
                      e.symbols.size() > shown ? fmt::format(" and {} more", e.symbols.size() - shown) : ""));
    }
    parts.push_back(fmt::format("{} ({})", library_shown(library), fmt::join(what, "; ")));
  }
  if (!imports.device_code)
    return {{FlagId::library_only,
             fmt::format("no device code of its own (no .nv_fatbin section); hands the work to {}",
                         fmt::join(parts, ", "))}};
  return {{FlagId::library_main_op,
           fmt::format("has device code of its own but hands work to {}", fmt::join(parts, ", "))}};
}

}  // namespace ucut
