// eval/math_libraries.cpp — see math_libraries.h.
#include "eval/math_libraries.h"

#include <array>

namespace ucut {

namespace {

struct Row {
  MathLibrary library;
  std::string_view id, shown, sonames, symbols;
};

constexpr std::array kRows = {
#define MATH_LIBRARY(id, shown, sonames, symbols) Row{MathLibrary::id, #id, shown, sonames, symbols},
#include "eval/math_libraries.def"
#undef MATH_LIBRARY
};

/// True when `name` starts with one of the "|"-separated `prefixes`.
bool starts_with_any(std::string_view name, std::string_view prefixes) {
  while (!prefixes.empty()) {
    size_t bar = prefixes.find('|');
    if (name.starts_with(prefixes.substr(0, bar))) return true;
    prefixes = bar == std::string_view::npos ? std::string_view() : prefixes.substr(bar + 1);
  }
  return false;
}

}  // namespace

std::string_view library_id(MathLibrary l) { return kRows[static_cast<size_t>(l)].id; }

std::string_view library_shown(MathLibrary l) { return kRows[static_cast<size_t>(l)].shown; }

std::optional<MathLibrary> library_of_soname(std::string_view needed) {
  for (const Row& r : kRows)
    if (starts_with_any(needed, r.sonames)) return r.library;
  return std::nullopt;
}

std::optional<MathLibrary> library_of_symbol(std::string_view symbol) {
  for (const Row& r : kRows)
    if (starts_with_any(symbol, r.symbols)) return r.library;
  return std::nullopt;
}

}  // namespace ucut
