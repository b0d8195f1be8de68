// llm/schema_check.cpp — see schema_check.h.
#include "llm/schema_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ucut::llm {
namespace {

bool has_type(const nlohmann::json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  if (type == "number") return v.is_number();
  if (type == "integer") {
    if (v.is_number_integer()) return true;
    return v.is_number_float() &&
           v.get<double>() == static_cast<double>(static_cast<int64_t>(v.get<double>()));
  }
  return true;  // a type outside the subset constrains nothing
}

/// "an object", "a string".
std::string with_article(const std::string& type) {
  bool vowel = !type.empty() && std::string_view("aeiou").find(type[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + type;
}

std::string where(const std::string& path) {
  return path.empty() ? "the arguments" : fmt::format("`{}`", path);
}

std::optional<std::string> check(const nlohmann::json& schema, const nlohmann::json& v,
                                 const std::string& path) {
  if (!schema.is_object()) return std::nullopt;
  if (auto t = schema.find("type");
      t != schema.end() && t->is_string() && !has_type(v, t->get<std::string>()))
    return fmt::format("{} must be {}", where(path), with_article(t->get<std::string>()));
  if (auto e = schema.find("enum"); e != schema.end() && e->is_array()) {
    bool found = false;
    for (const auto& x : *e) found = found || x == v;
    if (!found) return fmt::format("{} must be one of {}", where(path), e->dump());
  }
  if (v.is_number()) {
    if (auto m = schema.find("minimum");
        m != schema.end() && m->is_number() && v.get<double>() < m->get<double>())
      return fmt::format("{} must be at least {}", where(path), m->dump());
    if (auto m = schema.find("maximum");
        m != schema.end() && m->is_number() && v.get<double>() > m->get<double>())
      return fmt::format("{} must be at most {}", where(path), m->dump());
  }
  if (v.is_string()) {
    // JSON Schema counts characters: UTF-8 bytes that do not continue a sequence.
    size_t length = 0;
    for (unsigned char c : v.get_ref<const std::string&>()) length += (c & 0xC0) != 0x80;
    if (auto m = schema.find("minLength"); m != schema.end() && m->is_number_unsigned() && length < m->get<size_t>())
      return length == 0 ? fmt::format("{} must not be empty", where(path))
                         : fmt::format("{} must be at least {} characters long", where(path), m->dump());
    if (auto m = schema.find("maxLength"); m != schema.end() && m->is_number_unsigned() && length > m->get<size_t>())
      return fmt::format("{} must be at most {} characters long", where(path), m->dump());
  }
  if (v.is_array()) {
    if (auto m = schema.find("minItems"); m != schema.end() && m->is_number_unsigned() && v.size() < m->get<size_t>())
      return fmt::format("{} must have at least {} item{}", where(path), m->dump(), m->get<size_t>() == 1 ? "" : "s");
    if (auto m = schema.find("maxItems"); m != schema.end() && m->is_number_unsigned() && v.size() > m->get<size_t>())
      return fmt::format("{} must have at most {} item{}", where(path), m->dump(), m->get<size_t>() == 1 ? "" : "s");
    if (auto items = schema.find("items"); items != schema.end() && items->is_object())
      for (size_t i = 0; i < v.size(); ++i)
        if (auto why = check(*items, v[i], fmt::format("{}[{}]", path, i))) return why;
    return std::nullopt;
  }
  if (!v.is_object()) return std::nullopt;
  static const nlohmann::json kNone = nlohmann::json::object();
  auto p = schema.find("properties");
  const nlohmann::json& props = p != schema.end() && p->is_object() ? *p : kNone;
  if (auto r = schema.find("required"); r != schema.end() && r->is_array())
    for (const auto& name : *r)
      if (name.is_string() && !v.contains(name.get<std::string>()))
        return fmt::format("{} the required `{}`",
                           path.empty() ? "the arguments lack" : where(path) + " lacks",
                           name.get<std::string>());
  auto extra = schema.find("additionalProperties");
  bool closed = extra != schema.end() && extra->is_boolean() && !extra->get<bool>();
  for (const auto& [key, value] : v.items()) {
    std::string sub = path.empty() ? key : path + "." + key;
    if (auto s = props.find(key); s != props.end()) {
      if (auto why = check(*s, value, sub)) return why;
    } else if (closed) {
      std::vector<std::string> known;
      for (const auto& [k, _] : props.items()) known.push_back(k);
      return fmt::format("unknown argument `{}`; the tool takes {}", sub,
                         known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")));
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> schema_violation(const nlohmann::json& schema, const nlohmann::json& value) {
  return check(schema, value, "");
}

}  // namespace ucut::llm
