// llm/prompt_pack.h — the prompt packs (prompts/<pack>/, prompts/README.md): what μCUTLASS says to a model,
// read from the binary's embedded copy, rendered with every slot filled, and hashed so that a run records the
// exact words it used.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ucut::llm {

/// A pack that cannot be read or a template rendered wrongly: names the pack, the file and the slot.
struct PromptError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads a file by its path from the repository root ("prompts/dsl/pack.toml", "docs/dsl-guide.md").
using PromptFileReader = std::function<std::optional<std::string>(std::string_view path)>;

struct PromptPack {
  std::string name;
  int version = 0;
  /// SHA-256 over the pack's files and every file it includes, each as its path, length and text, in the
  /// order pack.toml lists them: two runs used the same words exactly when their hashes match.
  std::string hash;
  std::vector<std::string> template_names;        // in pack.toml's order
  std::map<std::string, std::string> templates;   // file name → text
  std::map<std::string, std::string> includes;    // include name → text
  std::map<std::string, nlohmann::json> schemas;  // file name ("schemas/x.schema.json") → JSON Schema

  /// The slots (`{{name}}`) template `name` asks the caller for, in order of first use.
  std::vector<std::string> slots(std::string_view name) const;
  /// Template `name` with its first line (the comment for people) dropped, `{{include X}}` replaced by the
  /// included file and every `{{slot}}` by its value (inserted as is: a value's own braces are not expanded).
  /// Throws PromptError for an unknown template, a slot without a value, or a value no slot uses.
  std::string render(std::string_view name, const std::map<std::string, std::string>& values) const;
  /// The record of a run: {name, version, hash}.
  nlohmann::json identity() const;
};

/// Pack `name` (a folder under prompts/) through `read`; by default the copy embedded in the binary.
PromptPack load_prompt_pack(std::string_view name, const PromptFileReader& read = {});

/// Every pack embedded in the binary, by name.
std::vector<std::string> prompt_pack_names();

}  // namespace ucut::llm
