// ir/enum_table.h — an enum's spellings as one table of {value, name} pairs: the name of a value, and the value of
// a name. The memory-bound families' keyword values (reduce ops, norms, windows' edges, ...) are such tables.
#pragma once

#include <optional>
#include <string_view>
#include <utility>

#include "support/error.h"

namespace ucut {

template <class Enum, size_t N>
std::string_view name_of(const std::pair<Enum, std::string_view> (&table)[N], Enum e) {
  for (const auto& [value, name] : table)
    if (value == e) return name;
  UC_UNREACHABLE() << "enum value " << static_cast<int>(e);
}

template <class Enum, size_t N>
std::optional<Enum> find_in(const std::pair<Enum, std::string_view> (&table)[N], std::string_view name) {
  for (const auto& [value, spelling] : table)
    if (spelling == name) return value;
  return std::nullopt;
}

}  // namespace ucut
