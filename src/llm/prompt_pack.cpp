// llm/prompt_pack.cpp — reading, rendering and hashing prompt packs.
#include "llm/prompt_pack.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <regex>
#include <set>

#include "support/embedded.h"
#include "support/sha256.h"

namespace ucut::llm {
namespace {

const std::regex kSlot(R"(\{\{(include )?([a-z_][a-z0-9_]*)\}\})");

std::string read_or_throw(const PromptFileReader& read, std::string_view pack, const std::string& path) {
  std::optional<std::string> text = read(path);
  if (!text) throw PromptError(fmt::format("prompt pack `{}`: {} is missing", pack, path));
  return *text;
}

std::vector<std::string> string_array(const toml::table& t, std::string_view key, std::string_view pack) {
  std::vector<std::string> out;
  const toml::node* n = t.get(key);
  if (!n) return out;
  const toml::array* a = n->as_array();
  if (!a)
    throw PromptError(
        fmt::format("prompt pack `{}`: pack.toml's `{}` is not an array of file names", pack, key));
  for (const toml::node& v : *a) {
    std::optional<std::string> s = v.value<std::string>();
    if (!s)
      throw PromptError(fmt::format("prompt pack `{}`: pack.toml's `{}` holds a non-string", pack, key));
    out.push_back(*s);
  }
  return out;
}

/// The text after the template's first line when that line is a comment for people.
std::string_view body(std::string_view text) {
  if (text.starts_with("<!--")) {
    size_t end = text.find('\n');
    return end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return text;
}

}  // namespace

std::vector<std::string> PromptPack::slots(std::string_view name) const {
  auto t = templates.find(std::string(name));
  if (t == templates.end())
    throw PromptError(fmt::format("prompt pack `{}` has no template `{}`", this->name, name));
  std::vector<std::string> out;
  std::string_view text = body(t->second);
  for (std::cregex_iterator m(text.begin(), text.end(), kSlot), end; m != end; ++m)
    if (!(*m)[1].matched && std::find(out.begin(), out.end(), (*m)[2].str()) == out.end())
      out.push_back((*m)[2]);
  return out;
}

std::string PromptPack::render(std::string_view name,
                               const std::map<std::string, std::string>& values) const {
  auto t = templates.find(std::string(name));
  if (t == templates.end())
    throw PromptError(fmt::format("prompt pack `{}` has no template `{}`", this->name, name));
  std::string_view text = body(t->second);
  std::string out;
  std::set<std::string> used;
  auto last = text.begin();
  for (std::cregex_iterator m(text.begin(), text.end(), kSlot), end; m != end; ++m) {
    out.append(last, (*m)[0].first);
    last = (*m)[0].second;
    std::string key = (*m)[2];
    if ((*m)[1].matched) {
      auto inc = includes.find(key);
      if (inc == includes.end())
        throw PromptError(
            fmt::format("prompt pack `{}`, {}: `{{{{include {}}}}}` names no file of pack.toml's "
                        "[include]",
                        this->name, name, key));
      out += inc->second;
      continue;
    }
    auto v = values.find(key);
    if (v == values.end())
      throw PromptError(
          fmt::format("prompt pack `{}`, {}: no value for the slot `{{{{{}}}}}`", this->name, name, key));
    out += v->second;
    used.insert(key);
  }
  out.append(last, text.end());
  for (const auto& [key, value] : values)
    if (!used.count(key))
      throw PromptError(
          fmt::format("prompt pack `{}`, {}: a value for `{}`, which the template has no slot for",
                      this->name, name, key));
  return out;
}

nlohmann::json PromptPack::identity() const { return {{"name", name}, {"version", version}, {"hash", hash}}; }

PromptPack load_prompt_pack(std::string_view name, const PromptFileReader& reader) {
  PromptFileReader read = reader ? reader : [](std::string_view path) -> std::optional<std::string> {
    std::optional<std::string_view> text = embedded_path(path);
    return text ? std::optional<std::string>(std::string(*text)) : std::nullopt;
  };
  const std::string dir = fmt::format("prompts/{}/", name);
  std::string hashed;
  auto take = [&](const std::string& path) {
    std::string text = read_or_throw(read, name, path);
    hashed += fmt::format("{}\n{}\n", path, text.size()) + text;
    return text;
  };

  std::string manifest_text = take(dir + "pack.toml");
  toml::table manifest;
  try {
    manifest = toml::parse(manifest_text, dir + "pack.toml");
  } catch (const toml::parse_error& e) {
    throw PromptError(fmt::format("prompt pack `{}`: pack.toml is not TOML: {}", name, e.description()));
  }
  PromptPack p;
  p.name = manifest["name"].value_or(std::string());
  p.version = manifest["version"].value_or(0);
  if (p.name != name || p.version < 1)
    throw PromptError(
        fmt::format("prompt pack `{}`: pack.toml must say name = \"{}\" and a version ≥ 1", name, name));
  p.template_names = string_array(manifest, "templates", name);
  if (p.template_names.empty())
    throw PromptError(fmt::format("prompt pack `{}`: pack.toml lists no templates", name));
  for (const std::string& t : p.template_names) p.templates[t] = take(dir + t);
  for (const std::string& s : string_array(manifest, "schemas", name)) {
    std::string text = take(dir + s);
    try {
      p.schemas[s] = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw PromptError(fmt::format("prompt pack `{}`: {} is not JSON: {}", name, s, e.what()));
    }
  }
  if (const toml::table* inc = manifest["include"].as_table()) {
    for (const auto& [key, value] : *inc) {
      std::optional<std::string> path = value.value<std::string>();
      if (!path)
        throw PromptError(fmt::format("prompt pack `{}`: include `{}` is not a path", name, key.str()));
      p.includes[std::string(key.str())] = take(*path);
    }
  }
  p.hash = sha256_hex(hashed);
  return p;
}

std::vector<std::string> prompt_pack_names() {
  std::vector<std::string> names;
  for (std::string_view path : embedded_paths()) {
    if (!path.starts_with("prompts/") || !path.ends_with("/pack.toml")) continue;
    std::string_view rest = path.substr(8, path.size() - 8 - 10);
    if (rest.find('/') == std::string_view::npos) names.emplace_back(rest);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ucut::llm
