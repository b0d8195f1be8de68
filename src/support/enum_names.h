// support/enum_names.h — an enum's names in one table (value ↔ name) for the edges where a value becomes
// text: JSON, SQLite, printing, command lines. Inside the program the enum travels; only the edges spell it.
//
// Beside each enum, one function that ADL finds returns its table, every value once, in enum order:
//   enum class Side { buy, sell };
//   constexpr auto enum_names(Side) {
//     return name_table<Side>("order side", {{Side::buy, "buy"}, {Side::sell, "sell"}});
//   }
// support/enum_json.h adds the JSON conversions. C++17: eval/protocol.h reaches nvcc through it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ucut {

/// One value and its name.
template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

/// An enum's names; `what` says what its values are ("hypothesis status"), for messages.
template <class E, std::size_t N>
struct EnumNames {
  std::string_view what;
  std::array<EnumName<E>, N> names;
};

/// Builds a table from a braced list of {value, name} pairs.
template <class E, std::size_t N>
constexpr EnumNames<E, N> name_table(std::string_view what, const EnumName<E> (&names)[N]) {
  EnumNames<E, N> t{what, {}};
  for (std::size_t i = 0; i < N; ++i) t.names[i] = names[i];
  return t;
}

/// The name of `e`; "" for a value its table lacks (enum_names_test rules that out for every table).
template <class E>
constexpr std::string_view enum_name(E e) {
  for (const EnumName<E>& n : enum_names(E{}).names)
    if (n.value == e) return n.name;
  return {};
}

/// The value named `name`; nullopt for a name the table lacks.
template <class E>
constexpr std::optional<E> parse_enum(std::string_view name) {
  for (const EnumName<E>& n : enum_names(E{}).names)
    if (n.name == name) return n.value;
  return std::nullopt;
}

/// "a, b or c": every name of E, for messages ("" shows as "\"\"").
template <class E>
std::string enum_name_list() {
  constexpr auto names = enum_names(E{}).names;
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i].name.empty() ? std::string("\"\"") : std::string(names[i].name);
  }
  return out;
}

/// "unknown hypothesis status 'x' (expected nominated, chosen, dropped or done)".
template <class E>
std::string unknown_enum_message(std::string_view name) {
  return "unknown " + std::string(enum_names(E{}).what) + " '" + std::string(name) + "' (expected " +
         enum_name_list<E>() + ")";
}

/// Every name of E, in enum order (the candidates of a "did you mean" for an unknown one).
template <class E>
std::vector<std::string_view> enum_name_views() {
  std::vector<std::string_view> out;
  for (const EnumName<E>& n : enum_names(E{}).names) out.push_back(n.name);
  return out;
}

/// The value named `name`; throws std::invalid_argument (unknown_enum_message) for a name the table lacks.
template <class E>
E enum_value(std::string_view name) {
  if (std::optional<E> e = parse_enum<E>(name)) return *e;
  throw std::invalid_argument(unknown_enum_message<E>(name));
}

/// The names of `values` joined by `separator`: "off_stream, precision_change".
template <class E>
std::string join_enum_names(const std::vector<E>& values, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? std::string(separator) : "") + std::string(enum_name(values[i]));
  return out;
}

}  // namespace ucut
