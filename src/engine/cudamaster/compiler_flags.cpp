// engine/cudamaster/compiler_flags.cpp — see compiler_flags.h.
#include "engine/cudamaster/compiler_flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <regex>
#include <sstream>

namespace ucut::engine::cudamaster {
namespace {

/// One option the Compiler may add: its name without dashes, and the values it takes ("" when none).
struct Allowed {
  const char* name;
  const char* values;  // a regex over the value; nullptr: takes none
  const char* shown;   // how allowed_compiler_flags() lists it
};

constexpr Allowed kAllowed[] = {
    {"use_fast_math", nullptr, "-use_fast_math"},
    {"ftz", "true|false", "-ftz=true|false"},
    {"prec-div", "true|false", "-prec-div=true|false"},
    {"prec-sqrt", "true|false", "-prec-sqrt=true|false"},
    {"fmad", "true|false", "-fmad=true|false"},
    {"extra-device-vectorization", nullptr, "-extra-device-vectorization"},
    {"restrict", nullptr, "-restrict"},
    {"maxrregcount", "(1[6-9]|[2-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])", "-maxrregcount=16..255"},
    {"Xptxas", nullptr, "-Xptxas=-v|-O0..-O3|-dlcm=ca|cg|-warn-spills|-warn-lmem-usage (comma-separated)"},
};

/// ptxas options the Compiler may pass through -Xptxas.
const std::regex kPtxasOption(R"(-v|-O[0-3]|-dlcm=(ca|cg)|-warn-spills|-warn-lmem-usage)");

/// Options that take their value as the next word when written without `=`.
bool takes_next_word(const std::string& name) { return name == "Xptxas" || name == "maxrregcount"; }

std::string strip_dashes(const std::string& s) {
  return s.substr(std::min(s.find_first_not_of('-'), s.size()));
}

/// Why an option outside the set is not taken, naming who owns it.
std::string refusal(const std::string& name) {
  static const std::vector<std::pair<std::regex, std::string>> owned = {
      {std::regex("arch|gencode|code|gpu-architecture|gpu-code"),
       "the target is the harness's (-gencode for this GPU)"},
      {std::regex("o|output-file|shared|cudart|l.*|L.*|I.*|isystem.*|Xcompiler|Xlinker|std.*"),
       "the output, language standard, include paths and libraries are the harness's"},
      {std::regex("G|g|device-debug|debug"), "debug builds are not timed"},
      {std::regex("default-stream"), "the launcher must work on the default stream as declared"},
  };
  for (const auto& [re, why] : owned)
    if (std::regex_match(name, re)) return why;
  return "not an option the Compiler may add (allowed: " + allowed_compiler_flags() + ")";
}

/// The canonical spelling of `name` with `value`, or nullopt with `why` set.
std::optional<std::string> canonical(const std::string& name, const std::optional<std::string>& value,
                                     std::string* why) {
  auto it = std::find_if(std::begin(kAllowed), std::end(kAllowed),
                         [&](const Allowed& a) { return name == a.name; });
  if (it == std::end(kAllowed)) {
    *why = refusal(name);
    return std::nullopt;
  }
  if (name == "Xptxas") {
    if (!value || value->empty()) {
      *why = "-Xptxas needs a ptxas option";
      return std::nullopt;
    }
    std::istringstream parts(*value);
    for (std::string part; std::getline(parts, part, ',');)
      if (!std::regex_match(part, kPtxasOption)) {
        *why = fmt::format(
            "ptxas option `{}` is not one the Compiler may pass (allowed: -v, -O0..-O3, "
            "-dlcm=ca|cg, -warn-spills, -warn-lmem-usage)",
            part);
        return std::nullopt;
      }
    return "-Xptxas=" + *value;
  }
  if (!it->values) {
    if (value) {
      *why = fmt::format("-{} takes no value", name);
      return std::nullopt;
    }
    return "-" + name;
  }
  if (!value || !std::regex_match(*value, std::regex(it->values))) {
    *why = fmt::format("-{} takes {}", name, it->shown);
    return std::nullopt;
  }
  return fmt::format("-{}={}", name, *value);
}

}  // namespace

std::string allowed_compiler_flags() {
  std::string out;
  for (const Allowed& a : kAllowed) out += (out.empty() ? "" : ", ") + std::string(a.shown);
  return out;
}

FlagChoice choose_compiler_flags(const std::vector<std::string>& proposed,
                                 const std::vector<std::string>& defaults) {
  std::vector<std::string> words;
  for (const std::string& entry : proposed) {
    std::istringstream in(entry);
    for (std::string w; in >> w;) words.push_back(w);
  }
  FlagChoice c;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (std::find(defaults.begin(), defaults.end(), word) != defaults.end()) {
      c.redundant.push_back(word);
      continue;
    }
    std::string body = strip_dashes(word), written = word;
    std::optional<std::string> value;
    if (size_t eq = body.find('='); eq != std::string::npos) {
      value = body.substr(eq + 1);
      body = body.substr(0, eq);
    } else if (word.starts_with("-") && takes_next_word(body) && i + 1 < words.size()) {
      value = words[++i];
      written += " " + *value;
    }
    std::string why;
    if (!word.starts_with("-")) why = "not an option (options start with `-`)";
    std::optional<std::string> flag = why.empty() ? canonical(body, value, &why) : std::nullopt;
    // A refused option takes its value along (`-o out.so`), so the refusal names them together.
    if (!flag && word.starts_with("-") && !value && i + 1 < words.size() && !words[i + 1].starts_with("-"))
      written += " " + words[++i];
    if (!flag)
      c.refused.push_back(fmt::format("{}: {}", written, why));
    else if (std::find(c.accepted.begin(), c.accepted.end(), *flag) == c.accepted.end())
      c.accepted.push_back(*flag);
  }
  return c;
}

}  // namespace ucut::engine::cudamaster
