// support/enum_json.h — an enum as its name in JSON (support/enum_names.h): UCUT_ENUM_JSON(E), written in E's
// own namespace, gives nlohmann::json the to_json/from_json it finds by ADL. An unknown name is a json
// type_error, as a string where a number belongs is, so code that reads a JSON file catches it where it
// catches those.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "support/enum_names.h"

namespace ucut {

/// The value `j` names; throws nlohmann::json::type_error (302) for a name E's table lacks.
template <class E>
E enum_from_json(const nlohmann::json& j) {
  std::string name = j.get<std::string>();
  if (std::optional<E> e = parse_enum<E>(name)) return *e;
  throw nlohmann::json::type_error::create(302, unknown_enum_message<E>(name), &j);
}

}  // namespace ucut

#define UCUT_ENUM_JSON(E)                                                                \
  inline void to_json(nlohmann::json& j, E e) { j = std::string(::ucut::enum_name(e)); } \
  inline void from_json(const nlohmann::json& j, E& e) { e = ::ucut::enum_from_json<E>(j); }
