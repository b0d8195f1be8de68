// cli/io.h — what the subcommands share: reading a spec (a path or `-` for stdin) and reporting results
// as text for people or JSON for tools (`--json`).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "compiler/compilation_json.h"
#include "compiler/pipeline.h"
#include "support/source.h"
#include "workflow/profile_spec.h"

namespace ucut::cli {

/// Reads `path` (or stdin for "-"); on failure prints why and returns nullopt.
std::optional<SourceFile> read_spec(const std::string& path);

/// Writes `text` to `path` ("-" for stdout); false with a message on failure.
bool write_text(const std::string& path, const std::string& text);

/// `j` indented for stdout, with a final newline; a byte that is not UTF-8 comes out as U+FFFD, not as an exception.
std::string json_text(const nlohmann::json& j);

/// The options of a profiling run (`profile`, `profile-corpus`): --ncu, --timeout (per run), --gpu, --cache-dir,
/// --cutlass, --worker.
void add_profiling_options(CLI::App& sub, ProfileOptions& o);

/// --inputs signed|framework (problem/input_draw.h), setting `framework`; `note` ends the help text.
void add_inputs_option(CLI::App& sub, bool& framework, const std::string& note);

/// Prints diagnostics to stderr as text (with colour on a terminal).
void print_diagnostics(const SourceFile& src, const Compilation& c);

}  // namespace ucut::cli
